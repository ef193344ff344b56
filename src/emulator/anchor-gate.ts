/**
 * What every anchor search (PUT fields with anchors, anchors:find) goes through: the environment's switch, the
 * document's readiness and size, one search per document at a time, the time limit, and a cache of the text read.
 */
import type { PdfText } from '../pdf/page-text.js';
import { readDocumentBytes } from './document-bytes.js';
import { ApiFailure, fail } from './errors.js';
import type { EmulatorOptions } from './options.js';
import type { Store } from './store.js';
import type { DocumentRecord } from './records.js';

/** Larger documents are not searched (422 DOCUMENT_TOO_LARGE_FOR_ANCHOR): their text would not be read in time. */
export const MAX_ANCHOR_DOCUMENT_BYTES = 50 * 1024 * 1024;

/** Seconds a client should wait before repeating a search refused as busy. */
const BUSY_RETRY_AFTER_SECONDS = 1;
/** Anchor search is off for the environment; asking again soon will not help. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 3600;

/** Texts kept for repeated searches, least recently used dropped first. */
const CACHED_TEXTS = 16;

/** The search running on each document, settled (never rejected) when it ends. */
const searching = new Map<string, Promise<void>>();
const textCache = new Map<string, PdfText>();

/** 503 ANCHOR_SEARCH_UNAVAILABLE, 409 DOCUMENT_NOT_READY or 422 DOCUMENT_TOO_LARGE_FOR_ANCHOR, in that order. */
export function assertAnchorSearchPossible(options: EmulatorOptions, document: DocumentRecord): void {
  if (!options.anchorSearch) {
    throw fail.unavailable('ANCHOR_SEARCH_UNAVAILABLE', 'Anchor search is not enabled in this environment; place the fields with pages and position.', UNAVAILABLE_RETRY_AFTER_SECONDS);
  }
  assertDocumentReady(document, 'searched for anchors');
  if ((document.byteLength ?? 0) > MAX_ANCHOR_DOCUMENT_BYTES) {
    throw fail.unprocessable(
      'DOCUMENT_TOO_LARGE_FOR_ANCHOR',
      `Document ${document.documentId} is ${document.byteLength} bytes; anchor search reads documents of at most ${MAX_ANCHOR_DOCUMENT_BYTES} bytes. Place the fields with pages and position.`,
      { documentId: document.documentId, byteLength: document.byteLength, maxBytes: MAX_ANCHOR_DOCUMENT_BYTES },
    );
  }
}

export function assertDocumentReady(document: DocumentRecord, purpose: string): void {
  if (document.status === 'READY') return;
  const hint =
    document.status === 'AWAITING_CONVERSION_CONFIRMATION'
      ? ' Confirm the converted PDF first (confirm-conversion).'
      : document.status === 'FAILED'
        ? ` Processing failed: ${document.failureReason ?? 'unknown reason'}.`
        : document.status === 'AWAITING_UPLOAD'
          ? ' Its content was never uploaded; it becomes READY only once its bytes arrive at its upload address.'
          : ' Wait until it is READY and repeat the request.';
  throw fail.conflict('DOCUMENT_NOT_READY', `Document ${document.documentId} is ${document.status} and cannot be ${purpose} yet.${hint}`, {
    documentId: document.documentId,
    status: document.status,
  });
}

/**
 * Runs `search` holding the document's one search slot. A request arriving meanwhile gets 503 ANCHOR_SEARCH_BUSY;
 * the service's own searches (`wait`, e.g. send-now's deferred anchors) queue for the slot instead of failing.
 */
export async function withSearchSlot<T>(documentId: string, search: () => Promise<T>, options: { wait?: boolean } = {}): Promise<T> {
  while (searching.has(documentId)) {
    if (!options.wait) {
      throw fail.unavailable('ANCHOR_SEARCH_BUSY', `Another anchor search is running on document ${documentId}; searches run one per document.`, BUSY_RETRY_AFTER_SECONDS);
    }
    await searching.get(documentId);
  }
  const running = search();
  searching.set(
    documentId,
    running.then(
      () => undefined,
      () => undefined,
    ),
  );
  try {
    return await running;
  } finally {
    searching.delete(documentId);
  }
}

/**
 * The document's text, read once per content (the cache key includes the bytes' SHA-256) and within the environment's
 * time limit. Reading errors are the pdf module's (PdfUnreadableError, PdfTextTimeoutError).
 */
export async function loadDocumentText(store: Store, options: EmulatorOptions, document: DocumentRecord): Promise<PdfText> {
  const cacheKey = `${document.documentId}:${document.sha256 ?? ''}`;
  const cached = textCache.get(cacheKey);
  if (cached) {
    textCache.delete(cacheKey);
    textCache.set(cacheKey, cached);
    return cached;
  }
  const bytes = await readDocumentBytes(store, document.documentId);
  if (!bytes) throw new ApiFailure(409, 'DOCUMENT_NOT_READY', `Document ${document.documentId} has no content.`, { documentId: document.documentId });
  const { loadPdfText } = await import('../pdf/text.js');
  const text = await loadPdfText(bytes, { deadlineMs: Date.now() + options.anchorTimeLimitMs });
  textCache.set(cacheKey, text);
  if (textCache.size > CACHED_TEXTS) textCache.delete(textCache.keys().next().value!);
  return text;
}

/** loadDocumentText for a search that answers by itself: reading failures and a missing text layer become 422s. */
export async function loadSearchableText(store: Store, options: EmulatorOptions, document: DocumentRecord): Promise<PdfText> {
  const { PdfLimitError, PdfTextTimeoutError, PdfUnreadableError } = await import('../pdf/errors.js');
  let text: PdfText;
  try {
    text = await loadDocumentText(store, options, document);
  } catch (cause) {
    if (cause instanceof PdfTextTimeoutError) {
      throw fail.unprocessable('DOCUMENT_TEXT_UNREADABLE', `Reading the text of document ${document.documentId} did not finish within the anchor search time limit of ${options.anchorTimeLimitMs} ms.`, {
        documentId: document.documentId,
        timeLimitMs: options.anchorTimeLimitMs,
      });
    }
    if (cause instanceof PdfLimitError) {
      throw fail.unprocessable('DOCUMENT_TEXT_UNREADABLE', `The text of document ${document.documentId} is not read: ${cause.message}.`, { documentId: document.documentId, limit: cause.limit });
    }
    if (cause instanceof PdfUnreadableError) {
      throw fail.unprocessable('DOCUMENT_TEXT_UNREADABLE', `The text of document ${document.documentId} could not be read: ${cause.message}.`, { documentId: document.documentId });
    }
    throw cause;
  }
  if (!text.hasText) {
    throw fail.unprocessable('DOCUMENT_HAS_NO_TEXT', `Document ${document.documentId} has no text layer, so anchors cannot be searched (a scan needs OCR).`, {
      documentId: document.documentId,
    });
  }
  return text;
}
