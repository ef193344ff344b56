/**
 * A worker thread reading PDFs for src/pdf/text.ts, so that pdfjs never keeps the main thread busy (a signal is
 * handled there at once) and a large document is read on every core. It loads pdfjs once for its whole life and keeps
 * each document it is asked about open until told to close it. Requests and answers: ReaderRequest and PageAnswer.
 */
import { parentPort } from 'node:worker_threads';
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api.js';
import type { AnchorSearch } from './anchors.js';
import { openPdfDocument, readPage, readPageInfos, type PageAnswer, type ReaderRequest } from './text.js';

const documents = new Map<number, { pdf: Promise<PDFDocumentProxy>; destroy: () => Promise<void>; searches?: readonly AnchorSearch[] }>();

function errorMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

const answer = (message: PageAnswer, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

parentPort!.on('message', (request: ReaderRequest) => {
  switch (request.type) {
    case 'open': {
      // The bytes are this thread's own copy: pdfjs may take them over.
      const opened = openPdfDocument(request.bytes, { owned: true });
      documents.set(request.job, { ...opened, searches: request.searches });
      const { job } = request;
      opened.pdf.then(
        (pdf) => request.answer && answer({ job, page: 0, pageCount: pdf.numPages }),
        // Asked to, the failure is answered with the name pdfjs gave it (PasswordException); else the pages report it.
        (cause: unknown) => request.answer && answer({ job, page: 0, error: errorMessage(cause), errorName: (cause as Error | undefined)?.name }),
      );
      break;
    }
    case 'page': {
      const opened = documents.get(request.job);
      if (!opened) break;
      opened.pdf
        .then((pdf) => readPage(pdf, request.page, opened.searches))
        .then(
          // The page's lines are views of one buffer (or a few): each is handed over once.
          (read) => answer({ job: request.job, page: request.page, ...read }, [...new Set(read.text?.lines.map((line) => line.boxes.buffer as ArrayBuffer))]),
          (cause: unknown) => answer({ job: request.job, page: request.page, error: errorMessage(cause) }),
        );
      break;
    }
    case 'pageInfo': {
      const opened = documents.get(request.job);
      if (!opened) break;
      opened.pdf
        .then((pdf) => readPageInfos(pdf, request.from, request.to))
        .then(
          (pages) => answer({ job: request.job, page: request.from, pages }),
          (cause: unknown) => answer({ job: request.job, page: request.from, error: errorMessage(cause) }),
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
