/**
 * Small PDFs that ask for a great deal of work: the cases of the PDF work budgets (issue 21), written byte by byte in
 * a moment and a few megabytes of memory, whatever work they stand for.
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { PDF_WORK_LIMITS } from '../../src/pdf/budget.js';
import { assemblePdf, streamObject } from './raw-pdf.js';

const FONT = Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
/** The text each of these files draws first, where it has any. */
export const HEAVY_PDF_TEXT = 'Signed by';

/** `pages` pages, each drawing `content` (a stream of its own for each page). */
function sameContentPdf(content: Uint8Array, filter: string, pages = 1): Uint8Array {
  const kids = Array.from({ length: pages }, (_, index) => `${4 + 2 * index} 0 R`).join(' ');
  const objects: Uint8Array[] = [Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'), Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`), FONT];
  for (let index = 0; index < pages; index++) {
    objects.push(Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * index} 0 R >>`));
    objects.push(streamObject(content, filter));
  }
  return assemblePdf(objects);
}

const ADLER_MODULUS = 65521n;

/**
 * A zlib stream of `prefix` followed by `count` bytes of `fill`, made without ever holding them: a chunk of fill
 * compressed with a full flush (which forgets what came before) gives the same bytes every time, so it is repeated.
 */
function deflatedFill(prefix: Buffer, fill: number, count: number, checksumWrong: boolean): Buffer {
  const CHUNK = 1 << 20;
  if (count % CHUNK !== 0) throw new Error('the fill is a whole number of MiB');
  const flushed = { finishFlush: constants.Z_FULL_FLUSH, level: 9 };
  const head = deflateRawSync(prefix, flushed);
  const chunk = deflateRawSync(Buffer.alloc(CHUNK, fill), flushed);
  const end = deflateRawSync(Buffer.alloc(0));
  // Adler-32 of prefix + fill: a is 1 + the sum of the bytes, b the sum of a after each byte.
  let a = 1n;
  let b = 0n;
  for (const byte of prefix) {
    a = (a + BigInt(byte)) % ADLER_MODULUS;
    b = (b + a) % ADLER_MODULUS;
  }
  const n = BigInt(count);
  const c = BigInt(fill);
  b = (b + n * a + (c * n * (n + 1n)) / 2n) % ADLER_MODULUS;
  a = (a + n * c) % ADLER_MODULUS;
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE((Number((b << 16n) | a) ^ (checksumWrong ? 1 : 0)) >>> 0);
  return Buffer.concat([Buffer.from([0x78, 0xda]), head, ...Array.from({ length: count / CHUNK }, () => chunk), end, checksum]);
}

/**
 * Pages whose content stream draws HEAVY_PDF_TEXT, then inflates to `inflatedMiB` MiB of spaces. With a wrong
 * checksum, zlib refuses the stream at its end and pdfjs inflates it again with its own decoder.
 */
export function inflationBombPdf(inflatedMiB: number, pages = 1, options: { checksumWrong?: boolean } = {}): Uint8Array {
  const content = deflatedFill(Buffer.from(`BT /F1 12 Tf 72 700 Td (${HEAVY_PDF_TEXT}) Tj ET\n`), 0x20, inflatedMiB * (1 << 20), options.checksumWrong ?? false);
  return sameContentPdf(content, '/Filter /FlateDecode', pages);
}

/** One page drawing HEAVY_PDF_TEXT and then `count` more text-showing operators, compressed. */
export function manyOperatorsPdf(count: number): Uint8Array {
  const parts = [`BT /F1 12 Tf 72 700 Td (${HEAVY_PDF_TEXT}) Tj 0 -14 Td`];
  for (let index = 1; index < count; index++) parts.push(index % 64 === 0 ? `(${index.toString(36)})Tj` : '(.)Tj');
  parts.push('ET');
  return sameContentPdf(deflateSync(parts.join('\n')), '/Filter /FlateDecode');
}

/**
 * `count` pages, each empty but the first (which draws HEAVY_PDF_TEXT), all kids of one page tree node: the flat tree
 * that makes a reader walking the tree for each page take time growing with the square of the pages.
 */
export function manyPagesPdf(count: number): Uint8Array {
  const FIRST_PAGE = 5;
  const kids = Array.from({ length: count }, (_, index) => `${FIRST_PAGE + index} 0 R`).join(' ');
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${count} /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> >>`),
    FONT,
    streamObject(Buffer.from(`BT /F1 12 Tf 72 700 Td (${HEAVY_PDF_TEXT}) Tj ET`)),
  ];
  for (let index = 0; index < count; index++) objects.push(Buffer.from(index === 0 ? '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>' : '<< /Type /Page /Parent 2 0 R >>'));
  return assemblePdf(objects);
}

/**
 * One page that keeps pdfjs busy for seconds (about two of CPU) yet stays under every work limit, the work a signal
 * must be able to cut short: text operators up to nearly the operators limit, then compatibility operators (BX),
 * which pdfjs parses but does not pass on as drawing, up to nearly the inflated bytes limit.
 */
export function busyPagePdf(): Uint8Array {
  const text = `BT /F1 12 Tf 72 700 Td ${'(x) Tj '.repeat(Math.floor(PDF_WORK_LIMITS.operators * 0.95))}ET `;
  const parsedOnly = 'BX '.repeat(Math.floor((PDF_WORK_LIMITS.inflatedBytes * 0.95 - text.length) / 3));
  return sameContentPdf(deflateSync(text + parsedOnly), '/Filter /FlateDecode');
}
