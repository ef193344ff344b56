/** pdfjs-dist ships no types for its worker half; it is only imported to be loaded (see loadPdfjs in text.ts). */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
