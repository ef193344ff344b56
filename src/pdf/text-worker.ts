/**
 * A worker thread reading page text for loadPdfText, so that a large document is read on every core. It loads pdfjs
 * once for its whole life and keeps each document it is asked about open until told to close it.
 * Messages in: {open, job, bytes, searches?, spent (the document's work budget's counters, shared)}, {page, job, page}, {pageInfo, job, from, to}, {close, job}; out: {job,
 * page, ...PageRead}, {job, page: from, pages} or {job, page, error}.
 */
import { parentPort } from 'node:worker_threads';
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api.js';
import type { AnchorSearch } from './anchors.js';
import { PdfWorkBudget, withWorkBudget } from './budget.js';
import { openPdfDocument, readPage, readPageInfos } from './text.js';

type Request =
  | { type: 'open'; job: number; bytes: Uint8Array; searches?: AnchorSearch[]; spent: Int32Array }
  | { type: 'page'; job: number; page: number }
  | { type: 'pageInfo'; job: number; from: number; to: number }
  | { type: 'close'; job: number };

/** A document open here, with its work budget (budget.ts), shared with its other readers. */
interface OpenDocument {
  pdf: Promise<PDFDocumentProxy>;
  destroy: () => Promise<void>;
  budget: PdfWorkBudget;
  searches?: AnchorSearch[];
}

const documents = new Map<number, OpenDocument>();

/** The answer to a failed request: why, and the work limit passed if that is what stopped it. */
function failure(opened: OpenDocument, cause: unknown): { error: string; limit?: string } {
  const limit = opened.budget.exceeded?.limit;
  return { error: cause instanceof Error ? cause.message : String(cause), ...(limit ? { limit } : {}) };
}

parentPort!.on('message', (request: Request) => {
  switch (request.type) {
    case 'open': {
      // Past a limit, the document is closed at once: pdfjs stops its work on it, and every read of it fails.
      const budget = new PdfWorkBudget(request.spent);
      budget.stop = () => void documents.get(request.job)?.destroy();
      const opened = withWorkBudget(budget, () => openPdfDocument(request.bytes));
      documents.set(request.job, { ...opened, budget, searches: request.searches });
      // A failure to open is reported with the first page asked for.
      opened.pdf.catch(() => undefined);
      break;
    }
    case 'page': {
      const opened = documents.get(request.job);
      if (!opened) break;
      opened.budget.within(withWorkBudget(opened.budget, () => opened.pdf.then((pdf) => readPage(pdf, request.page, opened.searches)))).then(
        // The page's lines are views of one buffer (or a few): each is handed over once.
        (read) => parentPort!.postMessage({ job: request.job, page: request.page, ...read }, [...new Set(read.text?.lines.map((line) => line.boxes.buffer as ArrayBuffer))]),
        (cause: unknown) => parentPort!.postMessage({ job: request.job, page: request.page, ...failure(opened, cause) }),
      );
      break;
    }
    case 'pageInfo': {
      const opened = documents.get(request.job);
      if (!opened) break;
      opened.budget.within(withWorkBudget(opened.budget, () => opened.pdf.then((pdf) => readPageInfos(pdf, request.from, request.to)))).then(
        (pages) => parentPort!.postMessage({ job: request.job, page: request.from, pages }),
        (cause: unknown) => parentPort!.postMessage({ job: request.job, page: request.from, ...failure(opened, cause) }),
      );
      break;
    }
    case 'close': {
      const opened = documents.get(request.job);
      documents.delete(request.job);
      void opened?.destroy();
      break;
    }
  }
});
