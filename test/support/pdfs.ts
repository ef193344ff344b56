/**
 * PDF fixtures for tests and benchmarks, generated in memory with pdf-lib so that every position a test
 * expects is known from the drawing code, not measured from a stored file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFString,
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

/**
 * Liberation Sans, the TrueType font pdfjs-dist ships (it has Latin, Greek, Cyrillic and Hebrew glyphs), with the
 * few tables a fixture needs read directly from the file, so expected advances come from the font, not from pdfjs.
 */
interface TrueTypeFont {
  bytes: Uint8Array;
  glyphOf: (char: string) => number;
  /** Advance width of a glyph in thousandths of the font size. */
  advanceOf: (glyph: number) => number;
}

let liberationSans: TrueTypeFont | undefined;

function loadLiberationSans(): TrueTypeFont {
  if (liberationSans) return liberationSans;
  const path = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts', 'LiberationSans-Regular.ttf');
  const bytes = new Uint8Array(readFileSync(path));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = new Map<string, number>();
  for (let index = 0, count = view.getUint16(4); index < count; index++) {
    const entry = 12 + index * 16;
    tables.set(String.fromCharCode(...bytes.subarray(entry, entry + 4)), view.getUint32(entry + 8));
  }
  const unitsPerEm = view.getUint16(tables.get('head')! + 18);
  const metricCount = view.getUint16(tables.get('hhea')! + 34);
  const hmtx = tables.get('hmtx')!;
  const cmap = tables.get('cmap')!;
  let format4 = 0;
  for (let index = 0, count = view.getUint16(cmap + 2); index < count; index++) {
    const record = cmap + 4 + index * 8;
    if (view.getUint16(record) === 3 && view.getUint16(record + 2) === 1) format4 = cmap + view.getUint32(record + 4);
  }
  const segments = view.getUint16(format4 + 6) / 2;
  const ends = format4 + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  const glyphOf = (char: string): number => {
    const code = char.codePointAt(0)!;
    for (let segment = 0; segment < segments; segment++) {
      if (view.getUint16(ends + segment * 2) < code) continue;
      const start = view.getUint16(starts + segment * 2);
      if (start > code) return 0;
      const delta = view.getInt16(deltas + segment * 2);
      const rangeOffsetAt = rangeOffsets + segment * 2;
      const rangeOffset = view.getUint16(rangeOffsetAt);
      if (rangeOffset === 0) return (code + delta) & 0xffff;
      const glyph = view.getUint16(rangeOffsetAt + rangeOffset + (code - start) * 2);
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
  const advanceOf = (glyph: number): number => (view.getUint16(hmtx + Math.min(glyph, metricCount - 1) * 4) * 1000) / unitsPerEm;
  liberationSans = { bytes, glyphOf, advanceOf };
  return liberationSans;
}

/** A glyph of a Liberation line: a character drawn as itself, or a glyph read as other text (its ToUnicode). */
export type LiberationGlyph = string | { glyph: string; text: string; width?: number; code?: number };

export interface LiberationLine {
  /** Start of the baseline, displayed top-left coordinates. */
  x: number;
  y: number;
  size: number;
  /** Text state operators set before the line is shown, e.g. `3 Tc` or `150 Tz`. */
  state?: string;
  /** Drawn left to right; a number is a TJ adjustment in thousandths of the font size (positive moves left). */
  glyphs: (LiberationGlyph | number)[];
}

const describeGlyph = (glyph: LiberationGlyph): { glyph: string; text: string; width?: number; code?: number } => (typeof glyph === 'string' ? { glyph, text: glyph } : glyph);

/** Advance of a glyph in Liberation Sans, in thousandths of the font size (what a line's widths add up from). */
export function liberationAdvance(glyph: LiberationGlyph): number {
  const font = loadLiberationSans();
  const { glyph: char, width } = describeGlyph(glyph);
  return width ?? font.advanceOf(font.glyphOf(char));
}

/**
 * One page (612×792) of lines in Liberation Sans embedded as a CID font: every distinct glyph gets its own code,
 * mapped to its glyph (CIDToGIDMap), its width (W) and its text (ToUnicode), so a test can draw any glyph and have
 * it read as any text (zero-width spaces, soft hyphens, private-use code points), with exact, known advances.
 */
export async function liberationPdf(lines: readonly LiberationLine[]): Promise<Uint8Array> {
  const font = loadLiberationSans();
  const codes = new Map<string, { code: number; glyph: number; width: number; text: string }>();
  let nextCode = 0x100;
  const codeOf = (spec: LiberationGlyph): number => {
    const { glyph, text, width, code } = describeGlyph(spec);
    const key = JSON.stringify([glyph, text, width, code]);
    let entry = codes.get(key);
    if (!entry) {
      const glyphId = font.glyphOf(glyph);
      entry = { code: code ?? nextCode++, glyph: glyphId, width: width ?? font.advanceOf(glyphId), text };
      codes.set(key, entry);
    }
    return entry.code;
  };
  const doc = await PDFDocument.create();
  const page = doc.addPage(LETTER);
  const { height } = page.getSize();
  const hex4 = (value: number): string => value.toString(16).padStart(4, '0');
  const content = lines
    .map((line) => {
      const parts = line.glyphs.map((glyph) => (typeof glyph === 'number' ? ` ${glyph} ` : `<${hex4(codeOf(glyph))}>`));
      return `BT FONT ${line.size} Tf ${line.state ?? ''} 1 0 0 1 ${line.x} ${height - line.y} Tm [${parts.join('')}] TJ ET`;
    })
    .join('\n');
  const entries = [...codes.values()];
  const maxCode = Math.max(...entries.map((entry) => entry.code));
  const cidToGid = new Uint8Array((maxCode + 1) * 2);
  for (const entry of entries) {
    cidToGid[entry.code * 2] = entry.glyph >> 8;
    cidToGid[entry.code * 2 + 1] = entry.glyph & 0xff;
  }
  const utf16 = (text: string): string => [...text].map((char) => {
    const code = char.codePointAt(0)!;
    return code > 0xffff ? hex4(0xd800 + ((code - 0x10000) >> 10)) + hex4(0xdc00 + ((code - 0x10000) & 0x3ff)) : hex4(code);
  }).join('');
  const toUnicode = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Esign-UCS def /CMapType 2 def',
    '1 begincodespacerange <0000> <FFFF> endcodespacerange',
    `${entries.length} beginbfchar`,
    ...entries.map((entry) => `<${hex4(entry.code)}> <${utf16(entry.text)}>`),
    'endbfchar endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const { context } = doc;
  const fontFile = context.register(context.flateStream(font.bytes, { Length1: font.bytes.length }));
  const descriptor = context.register(
    context.obj({ Type: 'FontDescriptor', FontName: 'LiberationSans', Flags: 32, FontBBox: [-544, -303, 1302, 980], ItalicAngle: 0, Ascent: 905, Descent: -212, CapHeight: 729, StemV: 80, FontFile2: fontFile }),
  );
  const cidFont = context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: 'LiberationSans',
      CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
      FontDescriptor: descriptor,
      W: entries.flatMap((entry) => [entry.code, [entry.width]]),
      CIDToGIDMap: context.register(context.flateStream(cidToGid)),
    }),
  );
  const type0 = context.register(
    context.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: 'LiberationSans', Encoding: 'Identity-H', DescendantFonts: [cidFont], ToUnicode: context.register(context.flateStream(toUnicode)) }),
  );
  const fontKey = page.node.newFontDictionary('Lib', type0);
  page.node.set(PDFName.of('Contents'), context.register(context.flateStream(content.replaceAll('FONT', fontKey.toString()))));
  return save(doc);
}

const FILLER_WORDS = 'agreement party shall notice term date signature obligation confidential disclosure receiving section'.split(' ');

/**
 * `pages` letter pages filled like a contract: `linesPerPage` lines of about 100 characters in 9 pt Helvetica (a
 * dense page is 66 lines, a manual's about 45), with ANCHORWORD once on the last line of every page.
 */
export async function densePdf(pages: number, linesPerPage = 66): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  let word = 0;
  for (let page = 1; page <= pages; page++) {
    const sheet = doc.addPage(LETTER);
    for (let line = 0; line < linesPerPage; line++) {
      let text = line === linesPerPage - 1 ? 'ANCHORWORD ' : '';
      while (text.length < 100) text += `${FILLER_WORDS[(word++ * 7) % FILLER_WORDS.length]} `;
      sheet.drawText(text.trimEnd(), { x: 40, y: 760 - line * 11, size: 9, font });
    }
  }
  return save(doc);
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
  return handWrittenPdf(objects);
}

/** A PDF of the given objects (ASCII), numbered from 1, the first the catalog. */
function handWrittenPdf(objects: readonly string[]): Uint8Array {
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

/** The word type3BitmapPdf shows, in letters whose glyph names are their own (so pdfjs reads them back as text). */
export const TYPE3_BITMAP_TEXT = 'Signed';

/**
 * A PDF whose text is set in a Type3 font of bitmap glyphs (each an 8x8 image mask), as TeX's older PDFs are. pdfjs
 * loads such a font's glyphs to read the text, and turns bitmaps into outlines with a DOMMatrix.
 */
export function type3BitmapPdf(): Uint8Array {
  const letters = [...new Set(TYPE3_BITMAP_TEXT)].sort();
  const codes = letters.map((letter) => letter.charCodeAt(0));
  const [first, last] = [Math.min(...codes), Math.max(...codes)];
  const content = `BT /F1 24 Tf 72 700 Td (${TYPE3_BITMAP_TEXT}) Tj ET`;
  const glyph = '600 0 0 0 600 700 d1\nq 600 0 0 700 0 0 cm\nBI /IM true /W 8 /H 8 /BPC 1 /F /AHx ID 55AA55AA55AA55AA> EI\nQ';
  return handWrittenPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    [
      '<< /Type /Font /Subtype /Type3 /FontBBox [0 0 600 700] /FontMatrix [0.001 0 0 0.001 0 0] /Resources << >>',
      `/CharProcs << ${letters.map((letter) => `/${letter} 6 0 R`).join(' ')} >>`,
      `/Encoding << /Type /Encoding /Differences [${letters.map((letter) => `${letter.charCodeAt(0)} /${letter}`).join(' ')}] >>`,
      `/FirstChar ${first} /LastChar ${last} /Widths [${Array.from({ length: last - first + 1 }, () => 600).join(' ')}] >>`,
    ].join('\n'),
    `<< /Length ${glyph.length} >>\nstream\n${glyph}\nendstream`,
  ]);
}
