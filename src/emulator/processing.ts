/**
 * A document's life from registration to READY: the signed upload address, the upload, then PROCESSING for at least
 * `options.processingDelayMs` while the bytes are read (page sizes from the PDF; a `.docx` converted to a PDF preview
 * that waits for confirmation), and the envelope told when it ends.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { onDocumentsProcessed, serviceActor } from './lifecycle.js';
import type { LifecycleDeps } from './context.js';
import { PdfUnreadableError } from '../pdf/errors.js';
import { convertDocxToPdf, DocxUnreadableError } from './docx.js';
import { documentSha256, readDocumentBytes, readDocumentHead, replaceDocumentBytes } from './document-bytes.js';
import { signAddress } from './signing.js';
import { newId, nowIso } from './store.js';
import type { DocumentRecord, DocumentStatus, PageInfo } from './records.js';

export const PDF_CONTENT_TYPE = 'application/pdf';
export const DOCX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const DOCUMENT_CONTENT_TYPES = [PDF_CONTENT_TYPE, DOCX_CONTENT_TYPE] as const;

export function uploadPath(documentId: string): string {
  return `/_files/documents/${encodeURIComponent(documentId)}`;
}

export function contentPath(documentId: string): string {
  return `${uploadPath(documentId)}/content`;
}

/** A new AWAITING_UPLOAD document of an envelope or a template, and its upload address. */
export function createDocumentRecord(
  deps: Pick<LifecycleDeps, 'store' | 'options'>,
  owner: { envelopeId: string } | { templateId: string },
  file: { fileName: string; contentType: string; documentId?: string },
  origin: string,
  signedHeaders: readonly string[] = [],
): { document: DocumentRecord; upload: { url: string; expiresAt: string } } {
  // The legacy /v2 create names its documents itself.
  const documentId = file.documentId ?? newId();
  const upload = signAddress(origin, uploadPath(documentId), deps.options.signedAddressTtlMs, signedHeaders);
  const document: DocumentRecord = {
    documentId,
    ...owner,
    fileName: file.fileName,
    contentType: file.contentType,
    status: 'AWAITING_UPLOAD',
    uploadExpiresAt: upload.expiresAt,
    fields: [],
    createdAt: nowIso(),
  };
  deps.store.state.documents.set(documentId, document);
  deps.store.changed();
  return { document, upload };
}

/** The document as listed: pinned shape, plus `failureReason` for a FAILED one. */
export function documentView(document: DocumentRecord): Record<string, unknown> {
  return {
    documentId: document.documentId,
    fileName: document.fileName,
    contentType: document.contentType,
    status: document.status,
    pageCount: document.pageCount ?? null,
    pages: document.pages ?? null,
    ...(document.status === 'FAILED' ? { failureReason: document.failureReason ?? 'unknown' } : {}),
  };
}

interface Outcome {
  status: DocumentStatus;
  pageCount?: number;
  pages?: PageInfo[];
  failureReason?: string;
  /** The converted preview of a .docx, which becomes the document's content. */
  convertedPdf?: Uint8Array;
  /** Of the content the document keeps (the preview, for a .docx), when it was read whole. */
  sha256?: string;
}

const failed = (failureReason: string): Outcome => ({ status: 'FAILED', failureReason });

async function readPages(pdf: Uint8Array, options: { owned?: boolean } = {}): Promise<Pick<Outcome, 'pageCount' | 'pages'> | { failureReason: string }> {
  const { readPdfPages } = await import('../pdf/text.js');
  try {
    const { pageCount, pages } = await readPdfPages(pdf, options);
    if (pageCount === 0) return { failureReason: 'the PDF has no pages' };
    return { pageCount, pages };
  } catch (cause) {
    if (cause instanceof PdfUnreadableError) return { failureReason: cause.message };
    throw cause;
  }
}

async function analyse(deps: LifecycleDeps, document: DocumentRecord): Promise<Outcome> {
  const { store } = deps;
  const head = await readDocumentHead(store, document.documentId, 1024);
  if (!head) return failed('the uploaded content is missing (lost on restart?); upload the document again');
  if (document.contentType === DOCX_CONTENT_TYPE) {
    if (head.subarray(0, 2).toString('latin1') !== 'PK') return failed('not a .docx file (not a ZIP package)');
    let pdf: Uint8Array;
    try {
      pdf = await convertDocxToPdf((await readDocumentBytes(store, document.documentId))!);
    } catch (cause) {
      if (cause instanceof DocxUnreadableError) return failed(cause.message);
      throw cause;
    }
    const pages = await readPages(pdf);
    return 'failureReason' in pages ? failed(pages.failureReason) : { status: 'AWAITING_CONVERSION_CONFIRMATION', ...pages, convertedPdf: pdf, sha256: await documentSha256(pdf) };
  }
  // A PDF starts with its header within the first 1024 bytes; anything else is refused without reading it whole.
  if (!head.includes('%PDF-')) return failed('not a PDF (no %PDF- header)');
  // Bytes read back from a spill file belong to this read alone: handed to pdfjs rather than copied, a large document
  // is held once. Bytes kept in memory are the store's and are copied.
  const bytes = (await readDocumentBytes(store, document.documentId))!;
  // Taken from this one read (before pdfjs owns the bytes), not while the upload arrived, so that receiving runs at the
  // pace of the network and the disk. Only content that can be searched needs it: the anchor text cache keys on it.
  const sha256 = await documentSha256(bytes);
  const pages = await readPages(bytes, { owned: !store.blobs.has(document.documentId) });
  return 'failureReason' in pages ? failed(pages.failureReason) : { status: 'READY', ...pages, sha256 };
}

/** The processing run each document is on: a new upload starts a new run and the older one's result is dropped. */
const currentRun = new Map<string, symbol>();

async function runProcessing(deps: LifecycleDeps, document: DocumentRecord): Promise<void> {
  const run = Symbol(document.documentId);
  currentRun.set(document.documentId, run);
  const isCurrent = () => currentRun.get(document.documentId) === run && deps.store.state.documents.get(document.documentId) === document;
  // The delay first: reading a large document is heavy, and must not slow down uploads still arriving meanwhile.
  const remaining = (document.processingUntil ?? 0) - Date.now();
  if (remaining > 0) await sleep(remaining, undefined, { ref: false });
  if (!isCurrent()) return;
  let outcome: Outcome;
  try {
    outcome = await analyse(deps, document);
  } catch (cause) {
    outcome = failed(`the document could not be processed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  if (!isCurrent()) return;
  currentRun.delete(document.documentId);

  document.sha256 = outcome.sha256;
  if (outcome.convertedPdf) {
    const pdf = Buffer.from(outcome.convertedPdf);
    await replaceDocumentBytes(deps.store, document.documentId, pdf);
    document.byteLength = pdf.length;
    document.convertedFromDocx = true;
  }
  document.status = outcome.status;
  delete document.processingUntil;
  if (outcome.status === 'FAILED') {
    document.failureReason = outcome.failureReason;
  } else {
    document.pageCount = outcome.pageCount;
    document.pages = outcome.pages;
  }
  deps.store.changed();

  const envelope = document.envelopeId ? deps.store.state.envelopes.get(document.envelopeId) : undefined;
  if (!envelope) return;
  deps.events.history(envelope, 'DOCUMENT_PROCESSED', serviceActor, {
    documentId: document.documentId,
    status: document.status,
    ...(outcome.failureReason ? { failureReason: outcome.failureReason } : {}),
  });
  await onDocumentsProcessed(deps, envelope.id);
}

/** Runs processing in the background; failures of the envelope's follow-up must not take the emulator down. */
function startProcessing(deps: LifecycleDeps, document: DocumentRecord): void {
  runProcessing(deps, document).catch(() => undefined);
}

/** After an upload is kept: PROCESSING until the delay has passed and the content is read. */
export function beginProcessing(deps: LifecycleDeps, document: DocumentRecord, content: { byteLength: number }): void {
  document.status = 'PROCESSING';
  document.byteLength = content.byteLength;
  delete document.sha256;
  document.processingUntil = Date.now() + deps.options.processingDelayMs;
  delete document.failureReason;
  delete document.pageCount;
  delete document.pages;
  delete document.convertedFromDocx;
  deps.store.changed();
  startProcessing(deps, document);
}

/**
 * On start with `--state`: documents saved while PROCESSING are processed again from their saved content, with this
 * process's delay (the saved end time belonged to the previous run).
 */
export function resumeProcessing(deps: LifecycleDeps): void {
  for (const document of [...deps.store.state.documents.values()]) {
    if (document.status !== 'PROCESSING') continue;
    document.processingUntil = Date.now() + deps.options.processingDelayMs;
    startProcessing(deps, document);
  }
}

/** Moves a converted document from AWAITING_CONVERSION_CONFIRMATION to READY. */
export async function confirmConversion(deps: LifecycleDeps, document: DocumentRecord): Promise<void> {
  document.status = 'READY';
  deps.store.changed();
  if (document.envelopeId) await onDocumentsProcessed(deps, document.envelopeId);
}
