/**
 * Work budgets for reading a PDF: a small file can ask for gigabytes of inflated streams, millions of drawing
 * operators or tens of thousands of pages. The readers of a document (this thread and the worker threads) spend from
 * one budget, found by pdfjs's code through the async context the reading runs in; past a limit the reading stops at
 * once and the document is refused with PdfLimitError, whoever asked (the CLI exits 2, the emulator answers 422
 * DOCUMENT_TEXT_UNREADABLE).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { PdfLimitError } from './errors.js';

const MiB = 1024 * 1024;

/**
 * The limits, for all the readers of a document together. With them, reading any PDF up to 10 MB stays under 512 MiB
 * of memory (docs/usage.md "PDF work limits" gives the measured times): a stream is inflated whole (held up to three times
 * over for a moment), and a page's operators (about 200 bytes each) are held until the page is read. The largest
 * documents of the shared corpus of real PDFs spend under a tenth of each.
 */
export const PDF_WORK_LIMITS = {
  /** Bytes the document's compressed streams (page content, fonts, ...) inflate to, in all. */
  inflatedBytes: 32 * MiB,
  /** Drawing operators on the pages read (at most 500), in all. */
  operators: 500_000,
  /** Pages in the document. */
  pages: 10_000,
} as const;

export type PdfWorkLimit = keyof typeof PDF_WORK_LIMITS;

/** 500000 as 500,000: by hand, because Node's first toLocaleString loads ICU's locale data (15 ms at start-up). */
const withThousands = (count: number) => String(count).replace(/\B(?=(\d{3})+$)/g, ',');

const WHY: Record<PdfWorkLimit, string> = {
  inflatedBytes: `its compressed streams inflate to more than ${PDF_WORK_LIMITS.inflatedBytes / MiB} MiB`,
  operators: `its pages draw with more than ${withThousands(PDF_WORK_LIMITS.operators)} operators`,
  pages: `it has more than ${withThousands(PDF_WORK_LIMITS.pages)} pages`,
};

/** What a refusal tells the user to do instead. */
export const PDF_LIMIT_HINT =
  'A document this heavy is refused by esign and the service alike (often it is damaged or made to exhaust readers). Re-save it with a PDF editor ("Save as" or "Print to PDF"), split it, or place fields by page and position instead of anchors.';

export function pdfLimitError(limit: PdfWorkLimit): PdfLimitError {
  return new PdfLimitError(limit, `the PDF is refused: ${WHY[limit]}, the limit for reading its text`);
}

/** Where each limit's spending is kept in a budget's shared counters. */
const COUNTER: Record<Exclude<PdfWorkLimit, 'pages'>, number> = { inflatedBytes: 0, operators: 1 };

/**
 * What the readers of one document have spent, in counters they share across threads (a worker thread is handed
 * `spent`).
 */
export class PdfWorkBudget {
  /** The limit passed, once one is. */
  exceeded: PdfLimitError | undefined;
  /** Fails with the refusal once a limit is passed: pdfjs's work in flight may never settle once it is stopped. */
  readonly refused: Promise<never>;
  private rejectRefused!: (refusal: PdfLimitError) => void;

  /** Ends this reader's reading: set by whoever opened the document. */
  stop: () => void = () => undefined;

  constructor(readonly spent: Int32Array = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT))) {
    this.refused = new Promise<never>((_, reject) => {
      this.rejectRefused = reject;
    });
    this.refused.catch(() => undefined);
  }

  /** `work`, or the refusal if a limit is passed first. */
  within<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return Promise.race([work, this.refused]);
  }

  /** What is left of `limit`. */
  remaining(limit: Exclude<PdfWorkLimit, 'pages'>): number {
    return PDF_WORK_LIMITS[limit] - Atomics.load(this.spent, COUNTER[limit]);
  }

  /** Spends `amount`; false (and the reading stopped) when that, or another reader's spending, passes the limit. */
  spend(limit: Exclude<PdfWorkLimit, 'pages'>, amount: number): boolean {
    // Past the limit by one is refused as well as by any more: the counter must not wrap around.
    const counted = Math.min(amount, PDF_WORK_LIMITS[limit] + 1);
    if (Atomics.add(this.spent, COUNTER[limit], counted) + counted <= PDF_WORK_LIMITS[limit] && !this.exceeded) return true;
    Atomics.store(this.spent, COUNTER[limit], PDF_WORK_LIMITS[limit] + 1);
    this.refuse(limit);
    return false;
  }

  refuse(limit: PdfWorkLimit): void {
    if (this.exceeded) return;
    this.exceeded = pdfLimitError(limit);
    this.rejectRefused(this.exceeded);
    this.stop();
  }

  /** Throws the refusal once a limit was passed. */
  check(): void {
    if (this.exceeded) throw this.exceeded;
  }
}

const current = new AsyncLocalStorage<PdfWorkBudget>();

/** Runs `read` with `budget` as the one pdfjs's work is counted against, also in the promises it starts. */
export function withWorkBudget<T>(budget: PdfWorkBudget, read: () => T): T {
  return current.run(budget, read);
}

/**
 * The budget of the reading this code runs for. Work outside any reading (a PDF opened for another purpose) has a
 * budget of its own for each call, so that one stream still cannot pass a limit alone.
 */
export function currentWorkBudget(): PdfWorkBudget {
  return current.getStore() ?? new PdfWorkBudget();
}
