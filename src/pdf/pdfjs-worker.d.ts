// pdfjs-dist ships no types for its worker module; esign only hands it back to pdfjs as `globalThis.pdfjsWorker`.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
