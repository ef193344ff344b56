/** The bytes are not a PDF, or the PDF is too broken (or encrypted) for its pages or text to be read. */
export class PdfUnreadableError extends Error {
  override readonly name: string = 'PdfUnreadableError';

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

/**
 * The PDF asks for more work than a reader allows (PDF_WORK_LIMITS): it is refused as unreadable, the way a damaged
 * file is, with the limit it passed named.
 */
export class PdfLimitError extends PdfUnreadableError {
  override readonly name = 'PdfLimitError';

  constructor(
    readonly limit: 'inflatedBytes' | 'operators' | 'pages',
    message: string,
  ) {
    super(message);
  }
}
