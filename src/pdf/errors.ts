/** The bytes are not a PDF, or the PDF is too broken (or encrypted) for its pages or text to be read. */
export class PdfUnreadableError extends Error {
  override readonly name = 'PdfUnreadableError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Reading the text did not finish before the caller's deadline. */
export class PdfTextTimeoutError extends Error {
  override readonly name = 'PdfTextTimeoutError';

  constructor(readonly deadlineMs: number) {
    super(`reading the PDF text did not finish before the deadline (${new Date(deadlineMs).toISOString()})`);
  }
}
