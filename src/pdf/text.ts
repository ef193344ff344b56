/**
 * Reads page geometry and the text layer of a PDF with pdfjs, and expresses every text position the way
 * the contract speaks about the page: PDF points, origin at the top-left of the page as displayed
 * (rotation applied), relative to the visible page box (CropBox, else MediaBox).
 */
import type {
  PDFDocumentProxy,
  PDFPageProxy,
  TextItem as PdfjsTextItem,
  TextStyle,
} from 'pdfjs-dist/types/src/display/api.js';
import { PdfTextTimeoutError, PdfUnreadableError } from './errors.js';
import { loadPdfjs, pdfjsCMapOptions } from './pdfjs.js';

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

/** The way the text runs on the page as displayed; character positions are spread along it. */
export type ReadingDirection = 'right' | 'down' | 'left' | 'up';

/** One run of text as pdfjs extracted it, with its displayed box (from descent to ascent of its font). */
export interface TextItem extends Box {
  str: string;
  direction: ReadingDirection;
  fontSize: number;
  /** Where `str` starts in its line's `text`. */
  start: number;
}

/** Items sharing a baseline, in reading order, and their text joined with a space wherever they are visibly apart. */
export interface TextLine {
  text: string;
  items: TextItem[];
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

export interface LoadPdfTextOptions {
  /** Pages whose text is read; the contract searches 500. */
  maxPages?: number;
  /** Absolute time (as Date.now()) after which reading gives up with PdfTextTimeoutError. */
  deadlineMs?: number;
}

export const DEFAULT_MAX_TEXT_PAGES = 500;

/**
 * A gap wider than this share of the font size between two items of a line reads as a word break.
 * Helvetica's space is 0.278 em; tight kerning between pieces of one word stays far below 0.2.
 */
const WORD_GAP_EM = 0.2;

/** Two items belong to the same line when their boxes overlap across the line by this share of the smaller one. */
const SAME_LINE_OVERLAP = 0.5;

/** What pdfjs assumes for a font that reports no ascent. */
const DEFAULT_ASCENT = 0.8;

/** Text pages fetched concurrently: pdfjs answers faster when requests are queued than one at a time. */
const PAGES_IN_FLIGHT = 8;

function errorMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

async function beforeDeadline<T>(work: Promise<T>, deadlineMs: number | undefined): Promise<T> {
  if (deadlineMs === undefined) return work;
  const remaining = deadlineMs - Date.now();
  if (remaining <= 0) {
    // The work is abandoned (the document is destroyed next); its failure must not surface as unhandled.
    work.catch(() => undefined);
    throw new PdfTextTimeoutError(deadlineMs);
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PdfTextTimeoutError(deadlineMs)), remaining);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Opens the PDF, runs `read` on it and always releases it, also when the deadline passes while it is
 * still opening. Failures of pdfjs become PdfUnreadableError.
 */
async function withPdf<T>(
  bytes: Uint8Array,
  deadlineMs: number | undefined,
  read: (pdf: PDFDocumentProxy) => Promise<T>,
): Promise<T> {
  const { getDocument, VerbosityLevel } = await loadPdfjs();
  const task = getDocument({
    // pdfjs takes ownership of (detaches) the buffer it is given; a Buffer's slice() would even share memory.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: VerbosityLevel.ERRORS,
    ...pdfjsCMapOptions(),
  });
  try {
    let pdf: PDFDocumentProxy;
    try {
      pdf = await beforeDeadline(task.promise, deadlineMs);
    } catch (cause) {
      if (cause instanceof PdfTextTimeoutError) throw cause;
      throw new PdfUnreadableError(`not a readable PDF: ${errorMessage(cause)}`, { cause });
    }
    return await read(pdf);
  } catch (cause) {
    if (cause instanceof PdfTextTimeoutError || cause instanceof PdfUnreadableError) throw cause;
    throw new PdfUnreadableError(`the PDF could not be read: ${errorMessage(cause)}`, { cause });
  } finally {
    await task.destroy();
  }
}

function pageInfo(page: PDFPageProxy): PageInfo {
  const viewport = page.getViewport({ scale: 1 });
  return {
    page: page.pageNumber,
    width: viewport.width,
    height: viewport.height,
    rotate: page.rotate as PageInfo['rotate'],
  };
}

/** `read` for pages 1..count, a few in flight at a time, in page order. */
async function mapPages<T>(
  count: number,
  deadlineMs: number | undefined,
  read: (pageNumber: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (let first = 1; first <= count; first += PAGES_IN_FLIGHT) {
    const batch: Promise<T>[] = [];
    for (let pageNumber = first; pageNumber < first + PAGES_IN_FLIGHT && pageNumber <= count; pageNumber++) {
      batch.push(read(pageNumber));
    }
    results.push(...(await beforeDeadline(Promise.all(batch), deadlineMs)));
  }
  return results;
}

async function readAllPageInfo(pdf: PDFDocumentProxy, deadlineMs: number | undefined): Promise<PageInfo[]> {
  return mapPages(pdf.numPages, deadlineMs, async (pageNumber) => pageInfo(await pdf.getPage(pageNumber)));
}

/** Page count and page sizes without reading any text: what document processing needs. */
export async function readPdfPages(bytes: Uint8Array): Promise<{ pageCount: number; pages: PageInfo[] }> {
  return withPdf(bytes, undefined, async (pdf) => ({ pageCount: pdf.numPages, pages: await readAllPageInfo(pdf, undefined) }));
}

/** Reads page geometry for all pages and the text of the first `maxPages` pages. */
export async function loadPdfText(bytes: Uint8Array, options: LoadPdfTextOptions = {}): Promise<PdfText> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_TEXT_PAGES;
  const { deadlineMs } = options;
  return withPdf(bytes, deadlineMs, async (pdf) => {
    const pages = await readAllPageInfo(pdf, deadlineMs);
    const pageTexts = await mapPages(Math.min(pdf.numPages, maxPages), deadlineMs, (pageNumber) => readPageText(pdf, pageNumber));
    return {
      pageCount: pdf.numPages,
      pages,
      truncated: pdf.numPages > maxPages,
      hasText: pageTexts.some((pageText) => pageText.lines.some((line) => /\S/u.test(line.text))),
      pageTexts,
    };
  });
}

async function readPageText(pdf: PDFDocumentProxy, pageNumber: number): Promise<PageText> {
  const page = await pdf.getPage(pageNumber);
  // Normalisation is done by the search, which keeps track of where each normalised character came from.
  const content = await page.getTextContent({ disableNormalization: true });
  const transform = page.getViewport({ scale: 1 }).transform as Matrix;
  const placed: PlacedItem[] = [];
  for (const item of content.items) {
    if (!('str' in item)) continue;
    if (item.str === '') {
      // pdfjs marks some line ends with an empty item; the break belongs to the text before it.
      const previous = placed.at(-1);
      if (previous && item.hasEOL) previous.hasEOL = true;
      continue;
    }
    placed.push(placeItem(item, content.styles[item.fontName], transform));
  }
  page.cleanup();
  return { page: pageNumber, lines: groupIntoLines(placed) };
}

type Matrix = [number, number, number, number, number, number];

/** An item during line building: its final fields plus what only the grouping needs. */
interface PlacedItem extends Omit<TextItem, 'start'> {
  hasEOL: boolean;
}

function applyMatrix(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function fontExtent(style: TextStyle | undefined): { ascent: number; descent: number } {
  const reportedDescent = style && style.descent < 0 ? style.descent : undefined;
  const ascent = style && style.ascent > 0 ? style.ascent : reportedDescent !== undefined ? 1 + reportedDescent : DEFAULT_ASCENT;
  return { ascent, descent: reportedDescent ?? ascent - 1 };
}

/**
 * Builds the item's quadrilateral in PDF user space (along its baseline for its advance width, from
 * descent to ascent across it), takes it through the page viewport (rotation and visible-box origin) and
 * keeps the displayed bounding box.
 */
function placeItem(item: PdfjsTextItem, style: TextStyle | undefined, viewport: Matrix): PlacedItem {
  const [a, b, c, d, e, f] = item.transform as Matrix;
  const fontSize = Math.hypot(c, d);
  const advanceLength = Math.hypot(a, b) || 1;
  const advance = [a / advanceLength, b / advanceLength] as const;
  const up = fontSize > 0 ? ([c / fontSize, d / fontSize] as const) : ([-advance[1], advance[0]] as const);
  const { ascent, descent } = fontExtent(style);
  const corners: [number, number][] = [];
  for (const along of [0, item.width]) {
    for (const across of [descent * fontSize, ascent * fontSize]) {
      corners.push(applyMatrix(viewport, e + advance[0] * along + up[0] * across, f + advance[1] * along + up[1] * across));
    }
  }
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  const shownAdvanceX = viewport[0] * advance[0] + viewport[2] * advance[1];
  const shownAdvanceY = viewport[1] * advance[0] + viewport[3] * advance[1];
  const direction: ReadingDirection =
    Math.abs(shownAdvanceX) >= Math.abs(shownAdvanceY)
      ? shownAdvanceX >= 0 ? 'right' : 'left'
      : shownAdvanceY >= 0 ? 'down' : 'up';
  return {
    str: item.str,
    direction,
    fontSize,
    hasEOL: item.hasEOL,
    x,
    y,
    width: Math.max(...xs) - x,
    height: Math.max(...ys) - y,
  };
}

const runsHorizontally = (direction: ReadingDirection): boolean => direction === 'right' || direction === 'left';

/** The item's extent across its line: [from, to] on the axis perpendicular to the reading direction. */
function acrossLine(item: PlacedItem): [number, number] {
  return runsHorizontally(item.direction) ? [item.y, item.y + item.height] : [item.x, item.x + item.width];
}

/** The item's extent along its line, in reading order: the coordinate where it starts and where it ends. */
function alongLine(item: Box & { direction: ReadingDirection }): [number, number] {
  switch (item.direction) {
    case 'right':
      return [item.x, item.x + item.width];
    case 'left':
      return [-(item.x + item.width), -item.x];
    case 'down':
      return [item.y, item.y + item.height];
    case 'up':
      return [-(item.y + item.height), -item.y];
  }
}

function groupIntoLines(items: PlacedItem[]): TextLine[] {
  const byDirection = new Map<ReadingDirection, PlacedItem[]>();
  for (const item of items) {
    const group = byDirection.get(item.direction);
    if (group) group.push(item);
    else byDirection.set(item.direction, [item]);
  }
  const lines: { items: PlacedItem[]; across: [number, number] }[] = [];
  for (const group of byDirection.values()) {
    group.sort((left, right) => centre(acrossLine(left)) - centre(acrossLine(right)));
    let current: (typeof lines)[number] | undefined;
    for (const item of group) {
      const across = acrossLine(item);
      if (current && overlapsEnough(current.across, across)) {
        current.items.push(item);
        current.across = [Math.min(current.across[0], across[0]), Math.max(current.across[1], across[1])];
      } else {
        current = { items: [item], across };
        lines.push(current);
      }
    }
  }
  return lines
    .map(({ items: lineItems }) => joinLine(lineItems.sort((left, right) => alongLine(left)[0] - alongLine(right)[0])))
    .sort((left, right) => topLeftOrder(left.items[0]!, right.items[0]!));
}

function centre([from, to]: [number, number]): number {
  return (from + to) / 2;
}

function overlapsEnough(line: [number, number], item: [number, number]): boolean {
  const overlap = Math.min(line[1], item[1]) - Math.max(line[0], item[0]);
  const smaller = Math.min(line[1] - line[0], item[1] - item[0]);
  return smaller <= 0 ? overlap >= 0 : overlap >= SAME_LINE_OVERLAP * smaller;
}

function topLeftOrder(left: Box, right: Box): number {
  return left.y - right.y || left.x - right.x;
}

function joinLine(items: PlacedItem[]): TextLine {
  let text = '';
  const lineItems: TextItem[] = [];
  items.forEach((item, index) => {
    const previous = items[index - 1];
    if (previous && needsSpaceBetween(previous, item)) text += ' ';
    const { str, direction, fontSize, x, y, width, height } = item;
    lineItems.push({ str, direction, fontSize, x, y, width, height, start: text.length });
    text += item.str;
  });
  return { text, items: lineItems };
}

function needsSpaceBetween(previous: PlacedItem, next: PlacedItem): boolean {
  if (/\s$/u.test(previous.str) || /^\s/u.test(next.str)) return false;
  if (previous.hasEOL) return true;
  const gap = alongLine(next)[0] - alongLine(previous)[1];
  return gap > WORD_GAP_EM * Math.max(previous.fontSize, next.fontSize);
}
