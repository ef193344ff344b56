/**
 * PDF fixtures for tests and benchmarks, generated in memory with pdf-lib so that every position a test
 * expects is known from the drawing code, not measured from a stored file.
 */
import {
  PDFDocument,
  PDFHexString,
  StandardFonts,
  beginText,
  degrees,
  endText,
  rgb,
  setFontAndSize,
  setTextMatrix,
  showText,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';

export type PageSize = [width: number, height: number];

/** Where simplePdf and the other line-based fixtures put their text, in displayed top-left coordinates. */
export const TEXT_LAYOUT = {
  left: 72,
  firstBaseline: 100,
  lineSpacing: 20,
  fontSize: 12,
} as const;

/** Helvetica's ascent as pdfjs reports it; the top of found text is the baseline minus ascent × size. */
export const HELVETICA_ASCENT = 0.718;

const LETTER: PageSize = [612, 792];

/**
 * How far drawing `text` advances. pdf-lib's widthOfTextAtSize subtracts kerning that its drawText does
 * not apply, so it is summed glyph by glyph here.
 */
export function advanceWidth(font: PDFFont, text: string, size: number): number {
  return [...text].reduce((sum, char) => sum + font.widthOfTextAtSize(char, size), 0);
}

export function baselineOfLine(lineIndex: number): number {
  return TEXT_LAYOUT.firstBaseline + lineIndex * TEXT_LAYOUT.lineSpacing;
}

function drawLines(page: PDFPage, font: PDFFont, lines: readonly string[]): void {
  const { height } = page.getSize();
  lines.forEach((line, index) => {
    page.drawText(line, {
      x: TEXT_LAYOUT.left,
      y: height - baselineOfLine(index),
      size: TEXT_LAYOUT.fontSize,
      font,
    });
  });
}

async function save(doc: PDFDocument): Promise<Uint8Array> {
  // Object streams cost time on big fixtures and pdfjs reads either layout.
  return doc.save({ useObjectStreams: false });
}

/** One page per entry of `pages`, each line of text drawn in Helvetica 12 following TEXT_LAYOUT. */
export async function simplePdf(options: { pages: string[][]; pageSize?: PageSize }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of options.pages) {
    drawLines(doc.addPage(options.pageSize ?? LETTER), font, lines);
  }
  return save(doc);
}

/**
 * The PDF user-space point shown at displayed (x, y) on a page whose visible box is `view`
 * ([x0, y0, x1, y1]) turned by `rotate` degrees clockwise. Written out per rotation here on purpose,
 * independently of src/pdf/geometry.ts, so that tests compare two derivations (this one and pdfjs's viewport).
 */
function userPointShownAt(view: readonly number[], rotate: number, x: number, y: number): [number, number] {
  const [x0, y0, x1, y1] = view as [number, number, number, number];
  switch (rotate) {
    case 90:
      return [x0 + y, y0 + x];
    case 180:
      return [x1 - x, y0 + y];
    case 270:
      return [x1 - y, y1 - x];
    default:
      return [x0 + x, y1 - y];
  }
}

/** Where rotatedPdf and cropBoxPdf draw their upright word: baseline start, displayed coordinates. */
export const UPRIGHT_WORD_AT = { x: 100, y: 200 } as const;
/** Where rotatedPdf draws a word in plain user space (so it reads sideways once the page is turned). */
export const SIDEWAYS_WORD_AT_USER = { x: 300, y: 400 } as const;

async function turnedPage(options: {
  rotate: number;
  mediaBox: PageSize;
  cropBox?: [x: number, y: number, width: number, height: number];
}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage(options.mediaBox);
  page.setRotation(degrees(options.rotate));
  const [cropX, cropY, cropWidth, cropHeight] = options.cropBox ?? [0, 0, ...options.mediaBox];
  page.setCropBox(cropX, cropY, cropWidth, cropHeight);
  const view = [cropX, cropY, cropX + cropWidth, cropY + cropHeight];
  const [x, y] = userPointShownAt(view, options.rotate, UPRIGHT_WORD_AT.x, UPRIGHT_WORD_AT.y);
  // Turning the text by the page rotation makes it read upright once the viewer turns the page.
  page.drawText('UPRIGHT', { x, y, size: TEXT_LAYOUT.fontSize, font, rotate: degrees(options.rotate) });
  page.drawText('SIDEWAYS', { x: SIDEWAYS_WORD_AT_USER.x, y: SIDEWAYS_WORD_AT_USER.y, size: TEXT_LAYOUT.fontSize, font });
  return save(doc);
}

/**
 * A 600×800 page with /Rotate `rotate`, holding 'UPRIGHT' drawn so that it reads upright with its baseline
 * starting at UPRIGHT_WORD_AT as displayed, and 'SIDEWAYS' drawn unturned at SIDEWAYS_WORD_AT_USER.
 */
export async function rotatedPdf(rotate: 0 | 90 | 180 | 270): Promise<Uint8Array> {
  return turnedPage({ rotate, mediaBox: [600, 800] });
}

/** The CropBox cropBoxPdf sets inside its 600×800 MediaBox: x, y, width, height in user space. */
export const CROP_BOX = [50, 100, 400, 500] as const;

/**
 * A 600×800 MediaBox cropped to CROP_BOX (so the visible page is 400×500 and its origin is not 0,0),
 * optionally rotated, with 'UPRIGHT' reading upright from UPRIGHT_WORD_AT as displayed.
 */
export async function cropBoxPdf(rotate: 0 | 90 | 180 | 270 = 0): Promise<Uint8Array> {
  return turnedPage({ rotate, mediaBox: [600, 800], cropBox: [...CROP_BOX] });
}

/** The pieces splitItemsPdf draws edge to edge on its first line; together they read SPLIT_LINE. */
export const SPLIT_PIECES = ['Please si', 'gn here: {{sig', 'nature}}', ' today'] as const;
export const SPLIT_LINE = SPLIT_PIECES.join('');
/** The second line: two words with a visible gap between them and no space character. */
export const GAP_WORDS = ['Signed', 'by:'] as const;
export const GAP_WIDTH = 15;

/**
 * One visible line drawn as several text-show operations, alternating two fonts with identical metrics
 * (Helvetica and Helvetica-Oblique) so that pdfjs cannot merge them into one item; then a line whose two
 * words are separated by a gap in position only.
 */
export async function splitItemsPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = [
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaOblique),
  ] as const;
  const page = doc.addPage(LETTER);
  const { height } = page.getSize();
  const size = TEXT_LAYOUT.fontSize;
  let x: number = TEXT_LAYOUT.left;
  SPLIT_PIECES.forEach((piece, index) => {
    const font = fonts[index % 2]!;
    page.drawText(piece, { x, y: height - baselineOfLine(0), size, font });
    x += advanceWidth(font, piece, size);
  });
  const [first, second] = GAP_WORDS;
  page.drawText(first, { x: TEXT_LAYOUT.left, y: height - baselineOfLine(1), size, font: fonts[0] });
  const secondX = TEXT_LAYOUT.left + advanceWidth(fonts[0], first, size) + GAP_WIDTH;
  page.drawText(second, { x: secondX, y: height - baselineOfLine(1), size, font: fonts[1] });
  return save(doc);
}

/** Byte the ligature font maps to the glyph /fi, which pdfjs extracts as U+FB01. */
const FI_LIGATURE_BYTE = 0x80;

/**
 * Lines containing a real 'fi' ligature glyph: Helvetica with an /Encoding /Differences entry mapping one
 * byte to /fi, written with pdf-lib's low-level operators since drawText would encode 'fi' as two glyphs.
 * Each line is given as text where U+FB01 stands for the ligature byte.
 */
export const LIGATURE_LINES = ['This agreement is con\uFB01dential.', '\uFB01\uFB01\uFB01\uFB01\uFB01\uFB01\uFB01\uFB01 target'] as const;

export async function ligaturePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(LETTER);
  const fontRef = doc.context.register(
    doc.context.obj({
      Type: 'Font',
      Subtype: 'Type1',
      BaseFont: 'Helvetica',
      Encoding: { Type: 'Encoding', BaseEncoding: 'WinAnsiEncoding', Differences: [FI_LIGATURE_BYTE, 'fi'] },
    }),
  );
  const fontKey = page.node.newFontDictionary('Lig', fontRef);
  const { height } = page.getSize();
  LIGATURE_LINES.forEach((line, index) => {
    const hex = [...line]
      .map((char) => (char === '\uFB01' ? FI_LIGATURE_BYTE : char.charCodeAt(0)).toString(16).padStart(2, '0'))
      .join('');
    page.pushOperators(
      beginText(),
      setFontAndSize(fontKey, TEXT_LAYOUT.fontSize),
      setTextMatrix(1, 0, 0, 1, TEXT_LAYOUT.left, height - baselineOfLine(index)),
      showText(PDFHexString.of(hex)),
      endText(),
    );
  });
  return save(doc);
}

/** A page with a drawn rectangle and no text at all, like a scan without OCR. */
export async function noTextPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(LETTER);
  page.drawRectangle({ x: 72, y: 500, width: 300, height: 100, borderColor: rgb(0, 0, 0), borderWidth: 1 });
  return save(doc);
}

/** `n` Letter pages, each with one line of text: `textPerPage` itself or its result for the page number. */
export async function manyPagesPdf(
  n: number,
  textPerPage: string | ((page: number) => string),
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= n; page++) {
    const text = typeof textPerPage === 'string' ? textPerPage : textPerPage(page);
    drawLines(doc.addPage(LETTER), font, [text]);
  }
  return save(doc);
}

export const REPEATED_WORD = 'INITIAL';
const REPEATS_PER_LINE = 5;
const LINES_PER_PAGE = 30;

/** REPEATED_WORD written `n` times, five per line and thirty lines per page, in reading order. */
export async function manyOccurrencesPdf(n: number): Promise<Uint8Array> {
  const lines: string[] = [];
  for (let remaining = n; remaining > 0; remaining -= REPEATS_PER_LINE) {
    lines.push(Array.from({ length: Math.min(REPEATS_PER_LINE, remaining) }, () => REPEATED_WORD).join(' here '));
  }
  const pages: string[][] = [];
  for (let start = 0; start < lines.length; start += LINES_PER_PAGE) {
    pages.push(lines.slice(start, start + LINES_PER_PAGE));
  }
  return simplePdf({ pages });
}

/** The lines of ndaPdf's single page: two signature blocks, each with 'Signed by:' and '{{signature}}'. */
export const NDA_LINES = [
  'MUTUAL NON-DISCLOSURE AGREEMENT',
  '',
  'The parties agree to keep confidential all information exchanged',
  'under this agreement for a period of five (5) years.',
  '',
  'Disclosing Party',
  'Signed by: ______________________',
  '{{signature}}',
  'Date: ____________',
  '',
  'Receiving Party',
  'Signed by: ______________________',
  '{{signature}}',
  'Date: ____________',
] as const;

export async function ndaPdf(): Promise<Uint8Array> {
  return simplePdf({ pages: [[...NDA_LINES]] });
}

/** The text of predefinedCMapPdf: Japanese, as two-byte UCS-2 codes of a non-embedded CJK font. */
export const PREDEFINED_CMAP_TEXT = '日本語の契約書';

/**
 * A PDF whose text can only be read through one of the predefined CMaps that pdfjs ships (UniJIS-UCS2-H, and
 * Adobe-Japan1-UCS2 back to Unicode), as PDFs from Japanese office software are. pdf-lib always embeds its fonts, so
 * the file is written by hand.
 */
export function predefinedCMapPdf(): Uint8Array {
  const codes = [...PREDEFINED_CMAP_TEXT].map((char) => char.codePointAt(0)!.toString(16).padStart(4, '0')).join('');
  const content = `BT /F1 24 Tf 72 700 Td <${codes}> Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiMin-W3 /Encoding /UniJIS-UCS2-H /DescendantFonts [6 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiMin-W3 /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /FontDescriptor 7 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /HeiseiMin-W3 /Flags 6 /FontBBox [-123 -257 1001 910] /ItalicAngle 0 /Ascent 859 /Descent -141 /CapHeight 709 /StemV 69 >>',
  ];
  let pdf = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}
