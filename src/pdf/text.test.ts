import { describe, expect, it } from 'vitest';
import {
  CROP_BOX,
  GAP_WORDS,
  SPLIT_LINE,
  cropBoxPdf,
  manyPagesPdf,
  ndaPdf,
  noTextPdf,
  rotatedPdf,
  simplePdf,
  splitItemsPdf,
} from '../../test/support/pdfs.js';
import { PdfTextTimeoutError, PdfUnreadableError } from './errors.js';
import { loadPdfText, readPdfPages } from './text.js';

describe('loadPdfText', () => {
  it('pages: width and height of the visible page box as displayed, swapped on pages turned by 90 or 270', async () => {
    for (const rotate of [0, 90, 180, 270] as const) {
      const text = await loadPdfText(await rotatedPdf(rotate));
      const turned = rotate === 90 || rotate === 270;
      expect(text.pages).toEqual([{ page: 1, width: turned ? 800 : 600, height: turned ? 600 : 800, rotate }]);
    }
  });

  it('pages: the CropBox, not the MediaBox, is the page', async () => {
    const text = await loadPdfText(await cropBoxPdf());
    expect(text.pages).toEqual([{ page: 1, width: CROP_BOX[2], height: CROP_BOX[3], rotate: 0 }]);
  });

  it('lines: top to bottom, each line text in reading order', async () => {
    const text = await loadPdfText(await simplePdf({ pages: [['first line', 'second line'], ['other page']] }));
    expect(text.pageCount).toBe(2);
    expect(text.pageTexts.map((page) => page.lines.map((line) => line.text))).toEqual([['first line', 'second line'], ['other page']]);
    expect(text.hasText).toBe(true);
    expect(text.truncated).toBe(false);
  });

  it('lines: items drawn separately on one line are joined, with a space only where there is a visible gap', async () => {
    const text = await loadPdfText(await splitItemsPdf());
    const [split, gap] = text.pageTexts[0]!.lines;
    expect(split!.text).toBe(SPLIT_LINE);
    expect(gap!.text).toBe(GAP_WORDS.join(' '));
  });

  it('hasText: false for a PDF without a text layer', async () => {
    const text = await loadPdfText(await noTextPdf());
    expect(text.hasText).toBe(false);
    expect(text.pageTexts).toEqual([{ page: 1, lines: [] }]);
  });

  it('truncated: more than 500 pages, only the first 500 have their text read, all have their size', async () => {
    const text = await loadPdfText(await manyPagesPdf(501, (page) => `page ${page}`));
    expect(text.truncated).toBe(true);
    expect(text.pageCount).toBe(501);
    expect(text.pages).toHaveLength(501);
    expect(text.pageTexts).toHaveLength(500);
    expect(text.pageTexts.at(-1)!.lines[0]!.text).toBe('page 500');
  });

  it('maxPages: the reading limit can be lowered', async () => {
    const text = await loadPdfText(await manyPagesPdf(3, 'x'), { maxPages: 2 });
    expect(text.truncated).toBe(true);
    expect(text.pageTexts.map((page) => page.page)).toEqual([1, 2]);
  });

  it('refuses bytes that are not a PDF with PdfUnreadableError', async () => {
    await expect(loadPdfText(new TextEncoder().encode('hello, not a pdf'))).rejects.toBeInstanceOf(PdfUnreadableError);
  });

  it('gives up with PdfTextTimeoutError once the deadline has passed', async () => {
    const bytes = await manyPagesPdf(501, 'filler');
    await expect(loadPdfText(bytes, { deadlineMs: Date.now() - 1 })).rejects.toBeInstanceOf(PdfTextTimeoutError);
    await expect(loadPdfText(bytes, { deadlineMs: Date.now() + 5 })).rejects.toBeInstanceOf(PdfTextTimeoutError);
  });

  it("leaves the caller's bytes usable (pdfjs detaches the buffer it is given)", async () => {
    const bytes = Buffer.from(await ndaPdf());
    const copy = Buffer.from(bytes);
    await loadPdfText(bytes);
    expect(bytes.equals(copy)).toBe(true);
    await expect(loadPdfText(bytes)).resolves.toMatchObject({ pageCount: 1 });
  });
});

describe('readPdfPages', () => {
  it('gives the page count and displayed sizes without reading text', async () => {
    await expect(readPdfPages(await cropBoxPdf(90))).resolves.toEqual({
      pageCount: 1,
      pages: [{ page: 1, width: CROP_BOX[3], height: CROP_BOX[2], rotate: 90 }],
    });
  });

  it('owned: bytes handed over are used without a copy (detached), a Buffer included', async () => {
    const bytes = Buffer.from(await cropBoxPdf());
    const owned = Buffer.from(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    await expect(readPdfPages(owned, { owned: true })).resolves.toMatchObject({ pageCount: 1 });
    expect(owned.buffer.byteLength).toBe(0);
  });

  it('refuses a truncated file with PdfUnreadableError', async () => {
    const bytes = await ndaPdf();
    await expect(readPdfPages(bytes.subarray(0, 200))).rejects.toBeInstanceOf(PdfUnreadableError);
  });
});
