import { describe, expect, it } from 'vitest';
import { inflationBombPdf, manyOperatorsPdf, manyPagesPdf } from '../../test/support/heavy-pdfs.js';
import type { AnchorSearch } from './anchors.js';
import { PDF_WORK_LIMITS, PdfWorkBudget } from './budget.js';
import { PdfLimitError } from './errors.js';
import { loadPdfText, readPdfPages, searchPdf } from './text.js';

const SEARCH: AnchorSearch[] = [{ key: 'k', text: 'Signed by', occurrence: 'all' }];

describe('PDF work budget', () => {
  it('is shared by the readers of a document: one reader passing the limit refuses it for all, and stops each', () => {
    let stopped = 0;
    const own = new PdfWorkBudget();
    own.stop = () => stopped++;
    const other = new PdfWorkBudget(own.spent);
    expect(own.spend('operators', PDF_WORK_LIMITS.operators - 1)).toBe(true);
    expect(other.spend('operators', 2)).toBe(false);
    expect(other.exceeded).toMatchObject({ limit: 'operators' });
    expect(own.spend('operators', 1)).toBe(false);
    expect(() => own.check()).toThrow(PdfLimitError);
    expect(stopped).toBe(1);
    // A huge amount neither wraps the shared counter nor lets the next small one through.
    const fresh = new PdfWorkBudget();
    expect(fresh.spend('inflatedBytes', 2 ** 40)).toBe(false);
    expect(new PdfWorkBudget(fresh.spent).spend('inflatedBytes', 1)).toBe(false);
  });
});

describe('reading a PDF within the work limits', () => {
  it('refuses a content stream inflating past the limit (zlib stops there), and reads one within it', async () => {
    await expect(searchPdf(inflationBombPdf(1024), SEARCH)).rejects.toMatchObject({ name: 'PdfLimitError', limit: 'inflatedBytes' });
    expect((await searchPdf(inflationBombPdf(16), SEARCH)).matches).toMatchObject([{ key: 'k', page: 1 }]);
  });

  it('counts the streams pdfjs inflates itself (zlib refused their checksum) as well', async () => {
    // Each page inflates to 20 MiB: within the limit alone, past it together.
    expect((await searchPdf(inflationBombPdf(20, 1, { checksumWrong: true }), SEARCH)).matches).toHaveLength(1);
    await expect(loadPdfText(inflationBombPdf(20, 2, { checksumWrong: true }))).rejects.toMatchObject({ name: 'PdfLimitError', limit: 'inflatedBytes' });
  });

  it('refuses a page drawing more operators than the limit, with a message naming it', async () => {
    const refusal = await searchPdf(manyOperatorsPdf(PDF_WORK_LIMITS.operators + 10_000), SEARCH).catch((cause: unknown) => cause);
    expect(refusal).toBeInstanceOf(PdfLimitError);
    expect((refusal as Error).message).toBe('the PDF is refused: its pages draw with more than 500,000 operators, the limit for reading its text');
  });

  it('refuses more pages than the limit, and walks a long flat page tree once, not once per page', async () => {
    await expect(readPdfPages(manyPagesPdf(PDF_WORK_LIMITS.pages + 1))).rejects.toMatchObject({ name: 'PdfLimitError', limit: 'pages' });
    // Walked once per page, 5,000 pages took 14 s here; walked once, a fraction of a second.
    const started = performance.now();
    const { pageCount } = await readPdfPages(manyPagesPdf(5_000));
    expect(pageCount).toBe(5_000);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
