/**
 * PDFs whose text is in any script, without a font for it: Helvetica glyphs are drawn, one one-byte code per
 * character, and a ToUnicode map says which character each code stands for. Text extraction reads the map, as it does
 * for every subset font, so the text read and each character's place are known exactly.
 */
import { assemblePdf, streamObject } from './raw-pdf.js';

export const SCRIPT_PDF_LAYOUT = { left: 72, firstBaseline: 100, lineSpacing: 24, fontSize: 12, pageHeight: 792 } as const;
/** Every code's advance, in thousandths of an em. */
const ADVANCE = 600;

/** Where the `index`-th character (code point) of line `line` starts, in displayed points from the left. */
export function characterX(index: number): number {
  return SCRIPT_PDF_LAYOUT.left + (index * ADVANCE * SCRIPT_PDF_LAYOUT.fontSize) / 1000;
}

export function scriptBaseline(line: number): number {
  return SCRIPT_PDF_LAYOUT.firstBaseline + line * SCRIPT_PDF_LAYOUT.lineSpacing;
}

const hex4 = (codePoint: number): string =>
  (codePoint > 0xffff ? String.fromCodePoint(codePoint).split('').map((unit) => unit.charCodeAt(0)) : [codePoint]).map((unit) => unit.toString(16).padStart(4, '0')).join('');

/** One Letter page drawing each of `lines`, in the order of their code points (a space is code 0x20). */
export function unicodeTextPdf(lines: readonly string[]): Uint8Array {
  const codes = new Map<string, number>([[' ', 0x20]]);
  for (const char of lines.flatMap((line) => [...line])) {
    if (!codes.has(char)) codes.set(char, codes.size === 1 ? 0x21 : 0x21 + codes.size - 1);
  }
  if (codes.size > 0xff - 0x20) throw new Error('at most 223 distinct characters');
  const entries = [...codes].map(([char, code]) => `<${code.toString(16).padStart(2, '0')}> <${hex4(char.codePointAt(0)!)}>`);
  const blocks: string[] = [];
  for (let from = 0; from < entries.length; from += 100) {
    const block = entries.slice(from, from + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
  }
  const toUnicode = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def /CMapName /Adobe-Identity-UCS def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    ...blocks,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  const { left, fontSize, pageHeight } = SCRIPT_PDF_LAYOUT;
  const content = lines
    .map((line, index) => {
      const drawn = [...line].map((char) => codes.get(char)!.toString(16).padStart(2, '0')).join('');
      return `BT /F1 ${fontSize} Tf ${left} ${pageHeight - scriptBaseline(index)} Td <${drawn}> Tj ET`;
    })
    .join('\n');
  return assemblePdf([
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 ${pageHeight}] /Resources << /Font << /F1 4 0 R >> >> /Contents 6 0 R >>`),
    Buffer.from(`<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 /LastChar 255 /Widths [${Array(224).fill(ADVANCE).join(' ')}] /ToUnicode 5 0 R >>`),
    streamObject(Buffer.from(toUnicode)),
    streamObject(Buffer.from(content)),
  ]);
}
