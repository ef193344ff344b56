/**
 * A worker thread reading page text for loadPdfText, so that a large document is read on every core. It loads pdfjs
 * once for its whole life and keeps each document it is asked about open until told to close it.
 * Messages in: {open, job, bytes}, {page, job, page}, {pageInfo, job, from, to}, {close, job}; out: {job, page, text},
 * {job, page: from, pages} or {job, page, error}.
 */
import { parentPort } from 'node:worker_threads';
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api.js';
import { openPdfDocument, readPageInfos, readPageText } from './text.js';

type Request =
  | { type: 'open'; job: number; bytes: Uint8Array }
  | { type: 'page'; job: number; page: number }
  | { type: 'pageInfo'; job: number; from: number; to: number }
  | { type: 'close'; job: number };

const documents = new Map<number, { pdf: Promise<PDFDocumentProxy>; destroy: () => Promise<void> }>();

function errorMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

parentPort!.on('message', (request: Request) => {
  switch (request.type) {
    case 'open': {
      const opened = openPdfDocument(request.bytes);
      documents.set(request.job, opened);
      // A failure to open is reported with the first page asked for.
      opened.pdf.catch(() => undefined);
      break;
    }
    case 'page': {
      const opened = documents.get(request.job);
      if (!opened) break;
      opened.pdf
        .then((pdf) => readPageText(pdf, request.page))
        .then(
          // The page's lines are views of one buffer (or a few): each is handed over once.
          (text) => parentPort!.postMessage({ job: request.job, page: request.page, text }, [...new Set(text.lines.map((line) => line.boxes.buffer as ArrayBuffer))]),
          (cause: unknown) => parentPort!.postMessage({ job: request.job, page: request.page, error: errorMessage(cause) }),
        );
      break;
    }
    case 'pageInfo': {
      const opened = documents.get(request.job);
      if (!opened) break;
      opened.pdf
        .then((pdf) => readPageInfos(pdf, request.from, request.to))
        .then(
          (pages) => parentPort!.postMessage({ job: request.job, page: request.from, pages }),
          (cause: unknown) => parentPort!.postMessage({ job: request.job, page: request.from, error: errorMessage(cause) }),
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
