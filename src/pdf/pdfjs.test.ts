import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { simplePdf } from '../../test/support/pdfs.js';
import { loadPdfjs } from './pdfjs.js';
import { openPdfDocument } from './text.js';

/** What a DecompressionStream gives for `bytes`, chunk by chunk. */
async function decompressed(format: 'deflate' | 'gzip', bytes: Uint8Array): Promise<string[]> {
  const stream = new DecompressionStream(format);
  const writer = stream.writable.getWriter();
  void writer.write(bytes).catch(() => undefined);
  void writer.close().catch(() => undefined);
  const chunks: string[] = [];
  for await (const chunk of stream.readable) chunks.push(Buffer.from(chunk).toString());
  return chunks;
}

describe('pdfjs as loaded here', () => {
  it('Flate streams inflate in one step: whole, or refused when damaged (pdfjs then decodes them itself)', async () => {
    await loadPdfjs();
    // Larger than the 16 KiB pieces a zlib stream gives.
    const text = 'BT /F1 12 Tf 72 700 Td (hello) Tj ET\n'.repeat(2000);
    const compressed = deflateSync(text);
    expect(await decompressed('deflate', compressed)).toEqual([text]);
    await expect(decompressed('deflate', compressed.subarray(0, compressed.length - 6))).rejects.toThrow();
    // Other formats are Node's own.
    expect((await decompressed('gzip', gzipSync(text))).join('')).toBe(text);
  });

  it('operator lists arrive without a deep copy: the glyphs of text drawn on two pages are the same objects', async () => {
    const { OPS } = await loadPdfjs();
    const opened = openPdfDocument(await simplePdf({ pages: [['Same words'], ['Same words']] }));
    try {
      const pdf = await opened.pdf;
      const glyphsOf = async (pageNumber: number): Promise<unknown[]> => {
        const { fnArray, argsArray } = await (await pdf.getPage(pageNumber)).getOperatorList();
        const shown = fnArray.flatMap((fn, index) => (fn === OPS.showText ? [(argsArray[index] as unknown[][])[0]!] : []));
        return shown.flat();
      };
      const [first, second] = [await glyphsOf(1), await glyphsOf(2)];
      expect(first).toHaveLength('Same words'.length);
      // pdfjs keeps one glyph object per font and character; a deep copy per message would give each page its own.
      first.forEach((glyph, index) => expect(glyph).toBe(second[index]));
    } finally {
      await opened.destroy();
    }
  });
});
