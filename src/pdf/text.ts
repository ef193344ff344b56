/**
 * Reads page geometry and the text layer of a PDF with pdfjs, and expresses every text position the way
 * the contract speaks about the page: PDF points, origin at the top-left of the page as displayed
 * (rotation applied), relative to the visible page box (CropBox, else MediaBox).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import { isSea } from 'node:sea';
import type { Worker } from 'node:worker_threads';
import type {
  PDFDocumentProxy,
  PDFPageProxy,
} from 'pdfjs-dist/types/src/display/api.js';
import { pageMatches, selectOccurrences, type AnchorMatch, type AnchorSearch } from './anchors.js';
import { InterruptedError, interruption } from '../core/interrupt.js';
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
  /** Read a small document (SMALL_DOCUMENT) in this thread: see readsHere. */
  smallHere?: boolean;
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
 * `work`, or the signal's InterruptedError as soon as SIGINT or SIGTERM arrives (main.ts), `stop` called then: pdfjs
 * yields to the event loop between slices of its work (scripts/pdfjs-for-text.mjs), so the handler runs meanwhile.
 */
async function unlessInterrupted<T>(work: Promise<T>, stop: () => void): Promise<T> {
  const { signal } = interruption;
  let onAbort = () => undefined as void;
  const interrupted = new Promise<never>((_, reject) => {
    onAbort = () => {
      stop();
      reject(signal.reason as Error);
    };
  });
  // The work is abandoned once interrupted: its failure must not surface as unhandled.
  work.catch(() => undefined);
  interruption.throwIfInterrupted();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.race([work, interrupted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Opens the PDF in this thread (a small document, or where there are no reader threads), runs `read` on it under the
 * document's work budget and always releases it, also when the deadline passes or a signal arrives while it is still
 * opening. Failures of pdfjs become PdfUnreadableError; a passed limit, PdfLimitError.
 */
async function withPdf<T>(
  bytes: Uint8Array,
  options: { deadlineMs?: number; owned?: boolean },
  read: (pdf: PDFDocumentProxy) => Promise<T>,
): Promise<T> {
  const budget = new PdfWorkBudget();
  let opened: ReturnType<typeof openPdfDocument> | undefined;
  // Past a limit, the document is closed at once: pdfjs stops its work on it, and every read of it fails.
  budget.stop = () => void opened?.destroy();
  return withWorkBudget(budget, async () => {
    opened = openPdfDocument(bytes, options);
    try {
      let pdf: PDFDocumentProxy;
      try {
        pdf = await budget.within(beforeDeadline(unlessInterrupted(opened.pdf, budget.stop), options.deadlineMs));
      } catch (cause) {
        budget.check();
        throw cause instanceof PdfTextTimeoutError || cause instanceof InterruptedError ? cause : openFailure(cause);
      }
      return await unlessInterrupted(readWithinBudget(budget, pdf, read), budget.stop);
    } catch (cause) {
      budget.check();
      throw readFailure(cause);
    } finally {
      await opened.destroy();
    }
  });
}

/**
 * `read` of an open document under its work budget, in this thread or a reader thread: the pages limit is checked
 * first, and a limit passed meanwhile fails the read (pdfjs reads on past most errors, a stopped stream included:
 * what it gave is not the document's).
 */
export async function readWithinBudget<T>(budget: PdfWorkBudget, pdf: PDFDocumentProxy, read: (pdf: PDFDocumentProxy) => Promise<T>): Promise<T> {
  if (pdf.numPages > PDF_WORK_LIMITS.pages) budget.refuse('pages');
  budget.check();
  const result = await budget.within(read(pdf));
  budget.check();
  return result;
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

/**
 * A document this small is read in the thread that asks, when it asks (`smallHere`): a one-shot command's reading of
 * it costs less than starting a reader thread (its own Node and pdfjs: about 60 ms of CPU, half of such a command).
 * The thread stays free for signals: pdfjs yields between slices of its work (unlessInterrupted).
 */
const SMALL_DOCUMENT = { bytes: 1_000_000, pages: 3 };

/**
 * Whether to read the document in this thread: asked to, and at most SMALL_DOCUMENT's size, with at most its pages
 * counted from the file's page objects. Page objects kept in compressed object streams are not counted: such a
 * document is opened here, and handed to the readers if pdfjs counts more pages (readHereIfSmall).
 */
function readsHere(bytes: Uint8Array, smallHere: boolean | undefined): boolean {
  if (!smallHere || bytes.length > SMALL_DOCUMENT.bytes) return false;
  const pageObjects = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1').match(/\/Type\s*\/Page(?![A-Za-z])/g);
  return (pageObjects?.length ?? 0) <= SMALL_DOCUMENT.pages;
}

/** `read` of the document in this thread when it is small (readsHere); undefined when it is not, or has more pages. */
async function readHereIfSmall<T>(bytes: Uint8Array, smallHere: boolean | undefined, deadlineMs: number | undefined, read: (pdf: PDFDocumentProxy) => Promise<T>): Promise<T | undefined> {
  if (!readsHere(bytes, smallHere)) return undefined;
  return withPdf(bytes, { deadlineMs }, async (pdf) => (pdf.numPages <= SMALL_DOCUMENT.pages ? read(pdf) : undefined));
}

/** Below this many pages a second reader costs more (its own pdfjs document) than it saves. */
const PARALLEL_MIN_PAGES = 24;
/**
 * From this size on, a document is opened by every reader at once, before its page count is known (about 80 dense
 * pages): opening it in a second reader once the first has counted its pages would add that opening to the wait.
 */
const EARLY_SHARE_BYTES = 256 * 1024;
/** Pages each reader is asked for at a time: pdfjs answers faster when requests are queued, and answers travel back. */
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

/**
 * A reader's answer: the page count (`page` 0), one page read, or the sizes of a range of pages (`page` is then the
 * range's first); on a failure the message, and the name pdfjs gave it when the document did not open.
 */
export interface PageAnswer extends Partial<PageRead> {
  job: number;
  page: number;
  pageCount?: number;
  pages?: PageInfo[];
  error?: string;
  errorName?: string;
  /** The work limit the reader's reading passed, when that is why it failed. */
  limit?: PdfWorkLimit;
}

/**
 * What readers are asked: open a document (answering its page count if `answer`), read a page or page sizes, close it.
 * `spent` holds the counters of the document's work budget (budget.ts), shared by all the readers it is open in.
 */
export type ReaderRequest =
  | { type: 'open'; job: number; bytes: Uint8Array; searches?: readonly AnchorSearch[]; answer: boolean; spent: Int32Array }
  | { type: 'page'; job: number; page: number }
  | { type: 'pageInfo'; job: number; from: number; to: number }
  | { type: 'close'; job: number };

/**
 * Worker threads that read PDFs, started on first need and kept for the life of the process. Where they can run, this
 * thread runs pdfjs only for a small document a command asks it to read (SMALL_DOCUMENT): pdfjs can be busy for
 * seconds on one page, and a busy thread runs the SIGINT and SIGTERM handler (main.ts) only between pdfjs's slices of
 * work. The first signal terminates the readers, which fails every read under way with the signal's InterruptedError.
 */
let readers: Worker[] = [];
let nextJob = 1;
const waiting = new Map<number, { fail: (cause: Error) => void; answer: (answer: PageAnswer) => void }>();

/**
 * The bundled worker script beside the program (null where there is none): absent when running from sources (unit
 * tests), where this thread reads; the single executable has none beside it either.
 */
let readerScript: URL | null | undefined;

function findReaderScript(): URL | null {
  if (isSea()) return null;
  const script = new URL('pdf-text-worker.js', import.meta.url);
  return existsSync(script) ? script : null;
}

/** A reader keeps the process alive only while a document is open in it: an idle one must not. */
function holdReadersWhileBusy(): void {
  for (const reader of readers) {
    if (waiting.size > 0) reader.ref();
    else reader.unref();
  }
}

function startReader(script: URL): Worker {
  // node:worker_threads is loaded by the first reader: a small document, read in this thread, never pays for it.
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  const reader = new Worker(script);
  let failure: Error | undefined;
  reader.on('message', (answer: PageAnswer) => waiting.get(answer.job)?.answer(answer));
  reader.on('error', (cause) => (failure = cause));
  // A reader that ends (terminated by a signal, or dead) fails the reads under way; the next read starts another.
  reader.on('exit', (code) => {
    readers = readers.filter((other) => other !== reader);
    const { signal } = interruption;
    const cause = signal.aborted ? (signal.reason as Error) : (failure ?? new Error(`the PDF reader thread stopped (exit code ${code})`));
    for (const job of waiting.values()) job.fail(cause);
  });
  interruption.signal.addEventListener('abort', () => void reader.terminate(), { once: true });
  return reader;
}

/** `count` readers (fewer where there are fewer cores than MAX_READERS), none where no worker script is found. */
function startReaders(count: number): Worker[] {
  readerScript ??= findReaderScript();
  if (readerScript === null) return [];
  interruption.throwIfInterrupted();
  const wanted = Math.min(count, MAX_READERS, os.availableParallelism());
  while (readers.length < wanted) readers.push(startReader(readerScript));
  holdReadersWhileBusy();
  return readers.slice(0, wanted);
}

/** A document open in reader threads under one job number. */
interface SharedDocument {
  /** The readers it is open in; `widen` opens it in more. */
  helpers: Worker[];
  pageCount: Promise<number>;
  widen(): void;
  /** Asks a reader; the answer comes back under `key`: the page asked for, or the first of a range. */
  ask(reader: Worker, request: { type: 'page'; page: number } | { type: 'pageInfo'; from: number; to: number }, key: number): Promise<PageAnswer>;
  close(): void;
}

/** What pdfjs's failure to open a document means for the person who gave it. */
function openFailure(cause: unknown): PdfUnreadableError {
  // An empty user password is tried by pdfjs itself: asked for one, the file needs a password nobody gave.
  if ((cause as Error | undefined)?.name === 'PasswordException') return new PdfUnreadableError('the PDF is encrypted and opens only with a password; save it without one', { cause });
  return new PdfUnreadableError(`not a readable PDF: ${errorMessage(cause)}`, { cause });
}

/**
 * Opens the document in `readerCount` reader threads (`widen` opens it in more), undefined where there are none. The
 * bytes are copied to each reader, except that with `owned` the last one is handed the buffer itself (nor can it then
 * be widened). All of them spend from one work budget: a limit passed in one fails the document's reading in all.
 */
function shareWithReaders(bytes: Uint8Array, searches: readonly AnchorSearch[] | undefined, readerCount: number, owned = false): SharedDocument | undefined {
  const helpers = startReaders(readerCount);
  if (helpers.length === 0) return undefined;
  const job = nextJob++;
  const answers = new Map<number, { resolve: (answer: PageAnswer) => void; reject: (cause: Error) => void }>();
  waiting.set(job, {
    answer: (answer) => answers.get(answer.page)?.resolve(answer),
    fail: (cause) => {
      for (const settle of answers.values()) settle.reject(cause);
      answers.clear();
    },
  });
  holdReadersWhileBusy();
  const handOver = owned && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const { spent } = new PdfWorkBudget();
  const open = (reader: Worker, answer: boolean, last: boolean) =>
    reader.postMessage({ type: 'open', job, bytes, searches, answer, spent } satisfies ReaderRequest, handOver && last ? [bytes.buffer as ArrayBuffer] : []);
  const expect = (key: number) => new Promise<PageAnswer>((resolve, reject) => answers.set(key, { resolve, reject }));
  const pageCount = expect(0).then((answer) => {
    if (answer.limit !== undefined) throw pdfLimitError(answer.limit);
    if (answer.error !== undefined) throw openFailure(Object.assign(new Error(answer.error), { name: answer.errorName ?? 'Error' }));
    return answer.pageCount!;
  });
  // A failure is the reads' to report; the count must not surface as unhandled when nobody waits for it any more.
  pageCount.catch(() => undefined);
  helpers.forEach((reader, index) => open(reader, index === 0, index === helpers.length - 1));
  return {
    helpers,
    pageCount,
    widen() {
      if (handOver) return;
      for (const reader of startReaders(MAX_READERS).slice(helpers.length)) {
        helpers.push(reader);
        open(reader, false, false);
      }
    },
    ask: (reader, request, key) => {
      const answered = expect(key).then((answer) => {
        if (answer.limit !== undefined) throw pdfLimitError(answer.limit);
        if (answer.error !== undefined) throw new Error(answer.error);
        return answer;
      });
      reader.postMessage({ ...request, job } satisfies ReaderRequest);
      return answered;
    },
    close: () => {
      waiting.delete(job);
      holdReadersWhileBusy();
      for (const reader of helpers) reader.postMessage({ type: 'close', job } satisfies ReaderRequest);
    },
  };
}

/** A failure while reading, as every reader of this module reports it. */
function readFailure(cause: unknown): Error {
  if (cause instanceof InterruptedError || cause instanceof PdfTextTimeoutError || cause instanceof PdfUnreadableError) return cause;
  return new PdfUnreadableError(`the PDF could not be read: ${errorMessage(cause)}`, { cause });
}

/**
 * The size of every page and pages 1..maxPages read, in page order, by the reader threads: each takes the next
 * unread page when it is free, so a slow page does not hold the others back. The sizes of the pages past them are read
 * meanwhile, by the first reader.
 */
async function readPdfShared(
  shared: SharedDocument,
  maxPages: number,
  deadlineMs: number | undefined,
): Promise<PdfRead> {
  try {
    const pageCount = await beforeDeadline(shared.pageCount, deadlineMs);
    const count = Math.min(pageCount, maxPages);
    if (count >= PARALLEL_MIN_PAGES || pageCount - count >= PARALLEL_MIN_PAGES) shared.widen();
    const reads = new Array<PageRead>(count);
    let next = 1;
    const readerLoop = async (reader: Worker): Promise<void> => {
      while (next <= count) {
        const page = next++;
        reads[page - 1] = (await shared.ask(reader, { type: 'page', page }, page)) as PageRead;
      }
    };
    const laterPages = async (): Promise<PageInfo[]> =>
      count === pageCount ? [] : (await shared.ask(shared.helpers[0]!, { type: 'pageInfo', from: count + 1, to: pageCount }, count + 1)).pages!;
    const loops = Array.from({ length: PAGES_IN_FLIGHT_PER_THREAD }, () => shared.helpers.map(readerLoop)).flat();
    try {
      const [later] = await beforeDeadline(Promise.all([laterPages(), ...loops]), deadlineMs);
      const pages = reads.map((read) => read.info).concat(later);
      return { pageCount, pages, truncated: pageCount > maxPages, hasText: reads.some((read) => read.hasText), reads };
    } finally {
      next = count + 1;
    }
  } catch (cause) {
    throw readFailure(cause);
  } finally {
    shared.close();
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
export async function readPdfPages(bytes: Uint8Array, options: { owned?: boolean; smallHere?: boolean } = {}): Promise<{ pageCount: number; pages: PageInfo[] }> {
  const readSizes = async (pdf: PDFDocumentProxy) => ({ pageCount: pdf.numPages, pages: await readPageInfos(pdf, 1, pdf.numPages) });
  const here = await readHereIfSmall(bytes, options.smallHere, undefined, readSizes);
  if (here) return here;
  const shared = shareWithReaders(bytes, undefined, 1, options.owned);
  if (!shared) return withPdf(bytes, options, readSizes);
  try {
    const pageCount = await shared.pageCount;
    return { pageCount, pages: (await shared.ask(shared.helpers[0]!, { type: 'pageInfo', from: 1, to: pageCount }, 1)).pages! };
  } catch (cause) {
    throw readFailure(cause);
  } finally {
    shared.close();
  }
}

/** A document read: the size of every page, and what is kept of the first `maxPages` pages (PageRead). */
interface PdfRead extends Omit<PdfText, 'pageTexts'> {
  reads: PageRead[];
}

async function readPdf(bytes: Uint8Array, searches: readonly AnchorSearch[] | undefined, options: LoadPdfTextOptions): Promise<PdfRead> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_TEXT_PAGES;
  const { deadlineMs } = options;
  const readHere = async (pdf: PDFDocumentProxy): Promise<PdfRead> => {
    const pages = await readPageInfos(pdf, 1, pdf.numPages, deadlineMs);
    const reads = await mapPages(1, Math.min(pdf.numPages, maxPages), deadlineMs, (pageNumber) => readPage(pdf, pageNumber, searches));
    return { pageCount: pdf.numPages, pages, truncated: pdf.numPages > maxPages, hasText: reads.some((read) => read.hasText), reads };
  };
  const here = await readHereIfSmall(bytes, options.smallHere, deadlineMs, readHere);
  if (here) return here;
  const shared = shareWithReaders(bytes, searches, bytes.length >= EARLY_SHARE_BYTES ? MAX_READERS : 1);
  if (shared) return readPdfShared(shared, maxPages, deadlineMs);
  return withPdf(bytes, { deadlineMs }, readHere);
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

/** Which layers (optional content groups) of a document are shown, read once per document. */
const optionalContents = new WeakMap<PDFDocumentProxy, ReturnType<PDFDocumentProxy['getOptionalContentConfig']>>();

function optionalContentOf(pdf: PDFDocumentProxy): ReturnType<PDFDocumentProxy['getOptionalContentConfig']> {
  let config = optionalContents.get(pdf);
  if (!config) {
    config = pdf.getOptionalContentConfig();
    optionalContents.set(pdf, config);
  }
  return config;
}

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
  const layers = await optionalContentOf(pdf);
  pageGlyphs(OPS, operatorList, viewport.transform as Matrix, viewport, fontOf, glyphTable, (group) => layers.isVisible(group) !== false);
  page.cleanup();
  const text = { page: pageNumber, lines: buildLines(glyphTable) };
  const hasText = text.lines.some((line) => /\S/u.test(line.text));
  return searches ? { info, hasText, matches: pageMatches(text, searches) } : { info, hasText, text };
}
