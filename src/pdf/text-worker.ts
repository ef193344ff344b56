/**
 * A worker thread reading PDFs for src/pdf/text.ts, so that pdfjs never keeps the main thread busy (a signal is
 * handled there at once) and a large document is read on every core. It loads pdfjs once for its whole life and keeps
 * each document it is asked about open until told to close it. Requests and answers: ReaderRequest and PageAnswer.
 * Every read of a document spends from the work budget its readers share (budget.ts): past a limit, the document is
 * closed and every answer about it names the limit.
 */
import { parentPort } from 'node:worker_threads';
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api.js';
import type { AnchorSearch } from './anchors.js';
import { PdfWorkBudget, withWorkBudget } from './budget.js';
import { openPdfDocument, readPage, readPageInfos, readWithinBudget, type PageAnswer, type ReaderRequest } from './text.js';

/** A document open here, with its work budget, whose counters its other readers share. */
interface OpenDocument {
  pdf: Promise<PDFDocumentProxy>;
  destroy: () => Promise<void>;
  budget: PdfWorkBudget;
  searches?: readonly AnchorSearch[];
}

const documents = new Map<number, OpenDocument>();

/** The answer to a failed request: why, and the work limit passed if that is what stopped it. */
function failure(opened: OpenDocument, cause: unknown): Pick<PageAnswer, 'error' | 'errorName' | 'limit'> {
  const limit = opened.budget.exceeded?.limit;
  return { error: cause instanceof Error ? cause.message : String(cause), errorName: (cause as Error | undefined)?.name, ...(limit ? { limit } : {}) };
}

/** `read` of the open document, with its work counted against the document's budget. */
function underBudget<T>(opened: OpenDocument, read: (pdf: PDFDocumentProxy) => Promise<T>): Promise<T> {
  return withWorkBudget(opened.budget, () => opened.budget.within(opened.pdf).then((pdf) => readWithinBudget(opened.budget, pdf, read)));
}

const answer = (message: PageAnswer, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

parentPort!.on('message', (request: ReaderRequest) => {
  switch (request.type) {
    case 'open': {
      const { job } = request;
      const budget = new PdfWorkBudget(request.spent);
      // Past a limit, the document is closed at once: pdfjs stops its work on it, and every read of it fails.
      budget.stop = () => void documents.get(job)?.destroy();
      // The bytes are this thread's own copy: pdfjs may take them over.
      const opened: OpenDocument = { ...withWorkBudget(budget, () => openPdfDocument(request.bytes, { owned: true })), budget, searches: request.searches };
      documents.set(job, opened);
      // Asked to, the failure is answered with the name pdfjs gave it (PasswordException); else the pages report it.
      underBudget(opened, async (pdf) => pdf.numPages).then(
        (pageCount) => request.answer && answer({ job, page: 0, pageCount }),
        (cause: unknown) => request.answer && answer({ job, page: 0, ...failure(opened, cause) }),
      );
      break;
    }
    case 'page': {
      const opened = documents.get(request.job);
      if (!opened) break;
      underBudget(opened, (pdf) => readPage(pdf, request.page, opened.searches)).then(
        // The page's lines are views of one buffer (or a few): each is handed over once.
        (read) => answer({ job: request.job, page: request.page, ...read }, [...new Set(read.text?.lines.map((line) => line.boxes.buffer as ArrayBuffer))]),
        (cause: unknown) => answer({ job: request.job, page: request.page, ...failure(opened, cause) }),
      );
      break;
    }
    case 'pageInfo': {
      const opened = documents.get(request.job);
      if (!opened) break;
      underBudget(opened, (pdf) => readPageInfos(pdf, request.from, request.to)).then(
        (pages) => answer({ job: request.job, page: request.from, pages }),
        (cause: unknown) => answer({ job: request.job, page: request.from, ...failure(opened, cause) }),
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
