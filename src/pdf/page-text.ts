/** What reading a PDF's text gives: the shapes the reader, the line builder, the glyph table and the anchor search share. */

/** The contract's page description (anchors:find `pages`, document listing `pages`). */
export interface PageInfo {
  page: number;
  /** Width of the visible page box as displayed: swapped with the height on pages turned by 90 or 270. */
  width: number;
  height: number;
  rotate: 0 | 90 | 180 | 270;
}

/** A rectangle in displayed top-left page coordinates, PDF points. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The way the text runs on the page as displayed. */
export type ReadingDirection = 'right' | 'down' | 'left' | 'up';

/**
 * Text sharing a baseline, in logical reading order, with a space wherever words are visibly apart, and for each
 * UTF-16 unit of `text` the displayed box of the glyph it comes from: x, y, width and height at boxes[4i..4i+3].
 */
export interface TextLine {
  text: string;
  direction: ReadingDirection;
  boxes: Float32Array;
}

export interface PageText {
  page: number;
  /** Top to bottom, then left to right, as displayed. */
  lines: TextLine[];
}

export interface PdfText {
  pageCount: number;
  /** Every page of the document, also those whose text was not read. */
  pages: PageInfo[];
  /** True when the document has more pages than the reading limit; only the first pages have text. */
  truncated: boolean;
  /** Whether any page that was read has a visible character. */
  hasText: boolean;
  /** Text of the pages read, in page order: the first min(pageCount, maxPages) pages. */
  pageTexts: PageText[];
}
