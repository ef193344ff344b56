/**
 * Reads page geometry and the text layer of a PDF with pdfjs, and expresses every text position the way
 * the contract speaks about the page: PDF points, origin at the top-left of the page as displayed
 * (rotation applied), relative to the visible page box (CropBox, else MediaBox).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { isSea } from 'node:sea';
import { Worker } from 'node:worker_threads';
import type {
  PDFDocumentProxy,
  PDFPageProxy,
} from 'pdfjs-dist/types/src/display/api.js';
import { pageMatches, selectOccurrences, type AnchorMatch, type AnchorSearch } from './anchors.js';
import { PDF_WORK_LIMITS, PdfWorkBudget, currentWorkBudget, pdfLimitError, withWorkBudget, type PdfWorkLimit } from './budget.js';
import { PdfTextTimeoutError, PdfUnreadableError } from './errors.js';
import { GlyphTable, pageGlyphs, type FontMetrics, type Matrix } from './glyphs.js';
import { buildLines } from './lines.js';
import type { PageInfo, PageText, PdfText } from './page-text.js';
import { loadPdfjs, pdfjsCMapOptions } from './pdfjs.js';

export interface LoadPdfTextOptions {
  /** Pages whose text is read; the contract searches 500. */
  maxPages?: number;
  /** Absolute time (as Date.now()) after which reading gives up with PdfTextTimeoutError. */
  deadlineMs?: number;
}

export const DEFAULT_MAX_TEXT_PAGES = 500;

/** Pages fetched concurrently by one reader alone: pdfjs answers faster when requests are queued than one at a time. */
const PAGES_IN_FLIGHT = 8;
/** Threads reading one document's pages: the machines this runs on have two cores or more. */
const MAX_READERS = 2;

function errorMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

async function beforeDeadline<T>(work: Promise<T>, deadlineMs: number | undefined): Promise<T> {
  if (deadlineMs === undefined) return work;
  const remaining = deadlineMs - Date.now();
  if (remaining <= 0) {
    // The work is abandoned (the document is destroyed next); its failure must not surface as unhandled.
    work.catch(() => undefined);
    throw new PdfTextTimeoutError(deadlineMs);
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PdfTextTimeoutError(deadlineMs)), remaining);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Opens a PDF with pdfjs the way every reader here does; `destroy` releases it, also while it is still opening. */
export function openPdfDocument(bytes: Uint8Array, options: { owned?: boolean } = {}): { pdf: Promise<PDFDocumentProxy>; destroy: () => Promise<void> } {
  const task = loadPdfjs().then(({ getDocument, VerbosityLevel }) =>
    getDocument({
      // pdfjs takes ownership of (detaches) the buffer it is given: a copy, unless the caller hands its bytes over
      // (pdfjs refuses a Buffer: a plain view of the same memory is handed over). A Buffer's slice() would even
      // share memory with others.
      data: options.owned && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes),
      isEvalSupported: false,
      // Images are never decoded: reading text needs none of them, and a small file can hold huge ones.
      maxImageSize: 0,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: VerbosityLevel.ERRORS,
      ...pdfjsCMapOptions(),
    }),
  );
  return { pdf: task.then((loading) => loading.promise), destroy: () => task.then((loading) => loading.destroy()) };
}

/**
 * Opens the PDF, runs `read` on it and always releases it, also when the deadline passes while it is
 * still opening. Failures of pdfjs become PdfUnreadableError.
 */
async function withPdf<T>(
  bytes: Uint8Array,
  options: { deadlineMs?: number; owned?: boolean; budget?: PdfWorkBudget },
  read: (pdf: PDFDocumentProxy) => Promise<T>,
): Promise<T> {
  const { budget = new PdfWorkBudget() } = options;
  let opened: ReturnType<typeof openPdfDocument> | undefined;
  // Past a limit, the document is closed at once: pdfjs stops its work on it, and every read of it fails.
  budget.stop = () => void opened?.destroy();
  return withWorkBudget(budget, async () => {
    opened = openPdfDocument(bytes, options);
    try {
      let pdf: PDFDocumentProxy;
      try {
        pdf = await budget.within(beforeDeadline(opened.pdf, options.deadlineMs));
      } catch (cause) {
        if (cause instanceof PdfTextTimeoutError) throw cause;
        budget.check();
        // An empty user password is tried by pdfjs itself: asked for one, the file needs a password nobody gave.
        if ((cause as Error | undefined)?.name === 'PasswordException') throw new PdfUnreadableError('the PDF is encrypted and opens only with a password; save it without one', { cause });
        throw new PdfUnreadableError(`not a readable PDF: ${errorMessage(cause)}`, { cause });
      }
      if (pdf.numPages > PDF_WORK_LIMITS.pages) budget.refuse('pages');
      budget.check();
      const result = await budget.within(read(pdf));
      // pdfjs reads on past most errors, a stopped stream included: what it gave is not the document's.
      budget.check();
      return result;
    } catch (cause) {
      budget.check();
      if (cause instanceof PdfTextTimeoutError || cause instanceof PdfUnreadableError) throw cause;
      throw new PdfUnreadableError(`the PDF could not be read: ${errorMessage(cause)}`, { cause });
    } finally {
      await opened.destroy();
    }
  });
}

function pageInfo(page: PDFPageProxy): PageInfo {
  const viewport = page.getViewport({ scale: 1 });
  return {
    page: page.pageNumber,
    width: viewport.width,
    height: viewport.height,
    rotate: page.rotate as PageInfo['rotate'],
  };
}

/** `read` for pages from..to, a few in flight at a time, in page order. */
async function mapPages<T>(
  from: number,
  to: number,
  deadlineMs: number | undefined,
  read: (pageNumber: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (let first = from; first <= to; first += PAGES_IN_FLIGHT) {
    const batch: Promise<T>[] = [];
    for (let pageNumber = first; pageNumber < first + PAGES_IN_FLIGHT && pageNumber <= to; pageNumber++) {
      batch.push(read(pageNumber));
    }
    results.push(...(await beforeDeadline(Promise.all(batch), deadlineMs)));
  }
  return results;
}

/** Below this many pages a second reader costs more (its own pdfjs document) than it saves. */
const PARALLEL_MIN_PAGES = 24;
/**
 * From this size on, a document is sent to the worker threads before this thread has opened it (about 80 dense pages):
 * starting a thread and loading pdfjs into it takes as long as this thread's own loading and opening, which it then
 * overlaps.
 */
const EARLY_SHARE_BYTES = 256 * 1024;
/** Pages each thread reads at a time: pdfjs answers faster when requests are queued, and a worker's answers travel back. */
const PAGES_IN_FLIGHT_PER_THREAD = 2;

/**
 * What is kept of a page read: its size, whether it has a visible character, and its text, or with searches only
 * where they are found on it (pageMatches): the lines are then dropped as soon as they are searched.
 */
export interface PageRead {
  info: PageInfo;
  hasText: boolean;
  text?: PageText;
  matches?: AnchorMatch[][];
}

/** A worker's answer: one page read, or the sizes of a range of pages (`page` is then the range's first). */
interface PageAnswer extends Partial<PageRead> {
  job: number;
  page: number;
  pages?: PageInfo[];
  error?: string;
  /** The work limit the worker's reading passed, when that is why it failed. */
  limit?: PdfWorkLimit;
}

/** Worker threads reading page text, started on first need and kept for the life of the process. */
let workers: Worker[] | undefined;
let nextJob = 1;
const waiting = new Map<number, { answer: (answer: PageAnswer) => void; fail: (cause: Error) => void }>();

/**
 * The bundled worker script next to this module's chunk; absent when running from sources (tests), where pages are
 * read in this thread only.
 */
function startWorkers(): Worker[] {
  if (workers) return workers;
  workers = [];
  // The single executable has no worker script beside it: it reads every page in this thread.
  if (isSea()) return workers;
  const script = new URL('../pdf-text-worker.js', import.meta.url);
  const threads = Math.min(os.availableParallelism(), MAX_READERS) - 1;
  if (threads < 1 || !existsSync(script)) return workers;
  for (let index = 0; index < threads; index++) {
    const worker = new Worker(script);
    // The process ends when its work does; an idle worker must not keep it alive.
    worker.unref();
    worker.on('message', (answer: PageAnswer) => waiting.get(answer.job)?.answer(answer));
    // A worker that dies fails the reads it had (the pool then starts afresh); it never leaves them waiting.
    worker.on('error', (cause) => {
      workers = undefined;
      for (const job of waiting.values()) job.fail(cause);
    });
    workers.push(worker);
  }
  return workers;
}

/** A document open in the worker threads under one job number. */
interface SharedDocument {
  helpers: Worker[];
  /** Asks a worker; the answer comes back under `key`: the page asked for, or the first of a range. */
  ask(worker: Worker, request: { type: 'page'; page: number } | { type: 'pageInfo'; from: number; to: number }, key: number): Promise<PageAnswer>;
  close(): void;
}

/** Sends the document (and the searches, if any) to the worker threads, which open it; undefined when there are none. */
function shareWithWorkers(bytes: Uint8Array, searches: readonly AnchorSearch[] | undefined, budget: PdfWorkBudget): SharedDocument | undefined {
  const helpers = startWorkers();
  if (helpers.length === 0) return undefined;
  const job = nextJob++;
  const answers = new Map<number, (answer: PageAnswer) => void>();
  waiting.set(job, {
    answer: (answer) => answers.get(answer.page)?.(answer),
    fail: (cause) => {
      for (const [page, settle] of answers) settle({ job, page, error: cause.message });
    },
  });
  for (const worker of helpers) worker.postMessage({ type: 'open', job, bytes, searches, spent: budget.spent });
  return {
    helpers,
    ask: (worker, request, key) =>
      new Promise<PageAnswer>((resolve, reject) => {
        answers.set(key, (answer) => {
          answers.delete(key);
          if (answer.limit !== undefined) reject(pdfLimitError(answer.limit));
          else if (answer.error !== undefined) reject(new Error(answer.error));
          else resolve(answer);
        });
        worker.postMessage({ ...request, job });
      }),
    close: () => {
      waiting.delete(job);
      for (const worker of helpers) worker.postMessage({ type: 'close', job });
    },
  };
}

/** pdfjs's in-thread worker answers through promises alone: the workers' answers wait for a turn of the event loop. */
const eventLoopTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The size of every page and pages 1..count read, in page order, by this thread and the worker threads together:
 * each takes the next unread page when it is free, so a slow page does not hold the others back. The sizes of pages
 * past `count` are read by a worker meanwhile: pdfjs finds each page by walking the page tree from its root, which
 * costs a long document more than the text of its first pages.
 */
async function readPagesShared(
  pdf: PDFDocumentProxy,
  shared: SharedDocument,
  count: number,
  searches: readonly AnchorSearch[] | undefined,
  deadlineMs: number | undefined,
): Promise<{ pages: PageInfo[]; reads: PageRead[] }> {
  const reads = new Array<PageRead>(count);
  let next = 1;
  const workerLoop = async (worker: Worker): Promise<void> => {
    while (next <= count) {
      const page = next++;
      reads[page - 1] = (await shared.ask(worker, { type: 'page', page }, page)) as PageRead;
    }
  };
  const ownLoop = async (): Promise<void> => {
    while (next <= count) {
      const page = next++;
      reads[page - 1] = await readPage(pdf, page, searches);
      await eventLoopTurn();
    }
  };
  const laterPages = async (): Promise<PageInfo[]> =>
    count === pdf.numPages ? [] : (await shared.ask(shared.helpers[0]!, { type: 'pageInfo', from: count + 1, to: pdf.numPages }, count + 1)).pages!;
  const loops = Array.from({ length: PAGES_IN_FLIGHT_PER_THREAD }, () => [ownLoop(), ...shared.helpers.map(workerLoop)]).flat();
  try {
    const [later] = await beforeDeadline(Promise.all([laterPages(), ...loops]), deadlineMs);
    return { pages: reads.map((read) => read.info).concat(later), reads };
  } finally {
    next = count + 1;
  }
}

/** Sizes of pages from..to. */
export async function readPageInfos(pdf: PDFDocumentProxy, from: number, to: number, deadlineMs?: number): Promise<PageInfo[]> {
  return mapPages(from, to, deadlineMs, async (pageNumber) => pageInfo(await pdf.getPage(pageNumber)));
}

/**
 * Page count and page sizes without reading any text: what document processing needs. With `owned`, the caller hands
 * its bytes over (they are detached) instead of having them copied: a large document is then held once, not twice.
 */
export async function readPdfPages(bytes: Uint8Array, options: { owned?: boolean } = {}): Promise<{ pageCount: number; pages: PageInfo[] }> {
  return withPdf(bytes, options, async (pdf) => ({ pageCount: pdf.numPages, pages: await readPageInfos(pdf, 1, pdf.numPages) }));
}

/** A document read: the size of every page, and what is kept of the first `maxPages` pages (PageRead). */
interface PdfRead extends Omit<PdfText, 'pageTexts'> {
  reads: PageRead[];
}

async function readPdf(bytes: Uint8Array, searches: readonly AnchorSearch[] | undefined, options: LoadPdfTextOptions): Promise<PdfRead> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_TEXT_PAGES;
  const { deadlineMs } = options;
  // One budget for this thread's reading and the worker threads'.
  const budget = new PdfWorkBudget();
  let shared = bytes.length >= EARLY_SHARE_BYTES ? shareWithWorkers(bytes, searches, budget) : undefined;
  try {
    return await withPdf(bytes, { deadlineMs, budget }, async (pdf) => {
      const count = Math.min(pdf.numPages, maxPages);
      if (!shared && (count >= PARALLEL_MIN_PAGES || pdf.numPages - count >= PARALLEL_MIN_PAGES)) shared = shareWithWorkers(bytes, searches, budget);
      const { pages, reads } = shared
        ? await readPagesShared(pdf, shared, count, searches, deadlineMs)
        : { pages: await readPageInfos(pdf, 1, pdf.numPages, deadlineMs), reads: await mapPages(1, count, deadlineMs, (pageNumber) => readPage(pdf, pageNumber, searches)) };
      return { pageCount: pdf.numPages, pages, truncated: pdf.numPages > maxPages, hasText: reads.some((read) => read.hasText), reads };
    });
  } finally {
    shared?.close();
  }
}

/** Reads page geometry for all pages and the text of the first `maxPages` pages. */
export async function loadPdfText(bytes: Uint8Array, options: LoadPdfTextOptions = {}): Promise<PdfText> {
  const { reads, ...read } = await readPdf(bytes, undefined, options);
  return { ...read, pageTexts: reads.map((page) => page.text!) };
}

/** What loadPdfText and findAnchors together give, without keeping the text of every page: one search of a document. */
export interface PdfSearch extends Omit<PdfText, 'pageTexts'> {
  matches: AnchorMatch[];
}

/** Searches the first `maxPages` pages as findAnchors does, each page's lines searched as soon as they are read. */
export async function searchPdf(bytes: Uint8Array, searches: readonly AnchorSearch[], options: LoadPdfTextOptions = {}): Promise<PdfSearch> {
  const { reads, ...read } = await readPdf(bytes, searches, options);
  return { ...read, matches: selectOccurrences(searches, reads.map((page) => page.matches!)) };
}

/** Refilled page after page: a page's glyphs are read and made into lines at once, with no wait in between. */
const glyphTable = new GlyphTable();

/** Reads one page: its lines, or with `searches` where they are found on it. */
export async function readPage(pdf: PDFDocumentProxy, pageNumber: number, searches?: readonly AnchorSearch[]): Promise<PageRead> {
  const { OPS, AnnotationMode } = await loadPdfjs();
  const page = await pdf.getPage(pageNumber);
  const info = pageInfo(page);
  // Annotation appearances (filled form fields, stamps) are drawn as they would be shown: they are document text.
  const operatorList = await page.getOperatorList({ annotationMode: AnnotationMode.ENABLE });
  currentWorkBudget().check();
  const viewport = page.getViewport({ scale: 1 });
  const fontOf = (name: string): FontMetrics | undefined => (page.commonObjs.has(name) ? (page.commonObjs.get(name) as FontMetrics) : undefined);
  pageGlyphs(OPS, operatorList, viewport.transform as Matrix, viewport, fontOf, glyphTable);
  page.cleanup();
  const text = { page: pageNumber, lines: buildLines(glyphTable) };
  const hasText = text.lines.some((line) => /\S/u.test(line.text));
  return searches ? { info, hasText, matches: pageMatches(text, searches) } : { info, hasText, text };
}
