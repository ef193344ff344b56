/**
 * Putting documents into an envelope: register, stream the bytes to the signed address, wait until the service has
 * processed them (confirming a .docx conversion when allowed). Shared by `documents upload`, `envelopes send-now`
 * and batch mode.
 */
import { crypto } from '../shared/crypto.js';
import { basename, extname } from 'node:path';
import type { ApiClient, RequestOptions } from '../api/client.js';
import { ApiError, ExitCode, NetworkError, UsageError, WaitError } from '../core/errors.js';
import { decideRetry, defaultRetryPolicy, proxyStatusOf } from '../api/retry.js';
import type { Context } from '../cli/command.js';
import { interruption, InterruptedError } from '../core/interrupt.js';
import { progressReporter, showsProgress } from '../output/progress.js';
import { formatDuration } from '../input/duration.js';
import { isTransientFailure, pollUntil, warnOnOutage } from './wait.js';
import { visible } from '../output/sanitize.js';
import { fileNamed, whereText, type Where } from '../files/where.js';
import { OpenedFile } from '../files/opened-file.js';
import { allItems } from './all-items.js';

export const PDF_CONTENT_TYPE = 'application/pdf';
export const DOCX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const contentTypeByExtension: Record<string, string> = { '.pdf': PDF_CONTENT_TYPE, '.docx': DOCX_CONTENT_TYPE };

/** A file on disk, checked, ready to be registered. */
export interface LocalDocument {
  fileName: string;
  contentType: string;
  /** The file, opened once when it was checked (its path and size): its digest and its upload read from that open file. */
  file: OpenedFile;
}

/** A document as the service lists it, read tolerantly (pins.md: an id may come as `id` or `documentId`). */
export interface DocumentInfo {
  documentId: string;
  fileName: string;
  contentType?: string;
  status: string;
  pageCount?: number;
  failureReason?: string;
}

export function contentTypeFor(path: string, where: Where = path): string {
  const contentType = contentTypeByExtension[extname(path).toLowerCase()];
  if (!contentType) {
    throw new UsageError(
      `${whereText(where)}: only .pdf and .docx documents can be uploaded (got ${extname(path) || 'no extension'}).`,
      'Export the document as PDF, or give a .docx to have it converted.',
      'DOCUMENT_TYPE_UNSUPPORTED',
    );
  }
  return contentType;
}


/** PDF readers accept the `%PDF-` header anywhere in the first 1024 bytes (some files carry a preamble). */
const PDF_HEADER_WINDOW = 1024;
/** A .docx is an OPC package: a ZIP file, whose first local file header starts with these four bytes. */
const ZIP_SIGNATURE = Buffer.from('PK\x03\x04', 'latin1');


/**
 * The service cannot process a file whose content is not of its type, and the draft it was registered in can then
 * never be sent (no operation replaces a document): so the content is checked here, before anything is sent.
 */
async function assertContentMatchesType(file: OpenedFile, contentType: string): Promise<void> {
  const { path, where } = file;
  const head = await file.head(PDF_HEADER_WINDOW);
  if (contentType === PDF_CONTENT_TYPE && !head.includes('%PDF-', 0, 'latin1')) {
    throw new UsageError(
      `${fileNamed(path, where)} is not a PDF: there is no %PDF- header in its first ${PDF_HEADER_WINDOW} bytes. Nothing was sent.`,
      'Give the PDF itself (a file renamed to .pdf is not converted); export other formats as PDF first.',
      'DOCUMENT_NOT_PDF',
    );
  }
  if (contentType === DOCX_CONTENT_TYPE && !head.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)) {
    throw new UsageError(
      `${fileNamed(path, where)} is not a .docx: a .docx is a ZIP package and this file does not start with the ZIP signature (PK\\x03\\x04). Nothing was sent.`,
      'Save the document from your word processor as "Word Document (.docx)", or export it as PDF.',
      'DOCUMENT_NOT_DOCX',
    );
  }
}

/**
 * Checks the file before anything is sent: it exists, is a regular non-empty file, has a type the service takes, and
 * its content is of that type; a PDF (up to the size read whole offline) opens as the service will open it, its text
 * read then too when `textWanted` (a field on it uses an anchor: the preflight reads it next). (The contract states no
 * numeric size limit; the service's 413 is reported as given.)
 */
export async function localDocument(path: string, where: Where = path, fileName = basename(path), textWanted = false): Promise<LocalDocument> {
  const contentType = contentTypeFor(path, where);
  const file = await OpenedFile.open(path, where);
  file.assertNotEmpty();
  await assertContentMatchesType(file, contentType);
  if (contentType === PDF_CONTENT_TYPE) {
    const { assertReadablePdf, LOCAL_PLACEMENT_MAX_BYTES } = await import('./preflight.js');
    if (file.size <= LOCAL_PLACEMENT_MAX_BYTES) await assertReadablePdf(file, textWanted);
  }
  return { fileName, contentType, file };
}

/**
 * The way out of a draft whose document will never be READY (its upload never finished, or processing failed): the
 * contract has no operation that replaces or removes a document or gives it a new upload address.
 */
export function stuckDraftWayOut(envelopeId: string): string {
  return (
    `The API has no operation to replace or remove a document, so this draft cannot be repaired. ` +
    `Delete it (esign envelopes delete ${envelopeId}) and create it again; an envelope made by send-now is resumed by running the same send-now again.`
  );
}

function record(raw: unknown): Record<string, unknown> {
  return typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function readDocumentInfo(raw: unknown): DocumentInfo {
  const body = record(raw);
  const error = record(body.error);
  const pageCount = typeof body.pageCount === 'number' ? body.pageCount : Array.isArray(body.pages) ? body.pages.length : undefined;
  const failureReason = text(body.failureReason) ?? text(body.reason) ?? text(error.message);
  return {
    documentId: text(body.documentId) ?? text(body.id) ?? '',
    fileName: text(body.fileName) ?? text(body.name) ?? '',
    ...(text(body.contentType) ? { contentType: text(body.contentType)! } : {}),
    status: text(body.status) ?? 'UNKNOWN',
    ...(pageCount === undefined ? {} : { pageCount }),
    ...(failureReason ? { failureReason } : {}),
  };
}

/** The signed upload address: `uploadUrl`, or `upload.url`. */
export function uploadAddressOf(raw: unknown): string | undefined {
  const body = record(raw);
  return text(body.uploadUrl) ?? text(record(body.upload).url);
}

/**
 * Sends the file to its signed address straight from disk (never read whole into memory, never Base64, never with the
 * key), with a progress bar for big files on a terminal. A dropped connection or a 5xx is retried from the start.
 */
export async function uploadFile(ctx: Context, client: ApiClient, address: string, document: LocalDocument): Promise<void> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const body = {
      source: document.file,
      length: document.file.size,
      ...(showsProgress(ctx.output, document.file.size) ? { onProgress: progressReporter(ctx.output, document.fileName, document.file.size) } : {}),
    };
    try {
      await client.upload(address, body, { contentType: document.contentType, contentLength: document.file.size, signal: interruption.signal });
      return;
    } catch (error) {
      if (!(error instanceof ApiError || error instanceof NetworkError)) throw error;
      const decision = decideRetry(
        {
          outcome:
            error instanceof ApiError
              ? { kind: 'response', status: error.status, code: error.code, retryAfter: error.retryAfterSeconds === undefined ? null : String(error.retryAfterSeconds) }
              : { kind: 'network', ...proxyStatusOf(error) },
          method: 'PUT',
          hasIdempotencyKey: false,
          attempt,
          elapsedMs: Date.now() - started,
          random: Math.random(),
          nowMs: Date.now(),
        },
        defaultRetryPolicy,
      );
      if (!decision.retry) {
        throw error;
      }
      ctx.output.debug(`upload of ${document.fileName} failed (${decision.reason}); retrying in ${decision.delayMs} ms`);
      await interruption.sleep(decision.delayMs);
    }
  }
}

/** Where each document of a job stands, so that an interruption or a failure can say what was done and what was not. */
export class UploadProgress {
  private readonly documents: { fileName: string; documentId: string | null; status: string }[];

  constructor(
    readonly envelopeId: string,
    files: readonly { fileName: string }[],
  ) {
    this.documents = files.map((file) => ({ fileName: file.fileName, documentId: null, status: 'NOT_REGISTERED' }));
  }

  /**
   * The last status known of the document at `index`: the service's, `REGISTERING` while its registration is under
   * way (no id yet), or `UPLOADED` once its bytes are up.
   */
  record(index: number, documentId: string | null, status: string): void {
    this.documents[index] = { ...this.documents[index]!, documentId, status };
  }

  update(latest: readonly DocumentInfo[]): void {
    for (const document of this.documents) {
      const listed = latest.find((info) => info.documentId === document.documentId);
      if (listed) document.status = listed.status;
    }
  }

  /** Registered (or perhaps registered), but its bytes never arrived: a document that will never be processed. */
  get stranded(): { fileName: string; documentId: string | null }[] {
    return this.documents.filter((document) => document.status === 'AWAITING_UPLOAD' || document.status === 'REGISTERING');
  }

  get summary(): { envelopeId: string; documents: { fileName: string; documentId: string | null; status: string }[] } {
    return { envelopeId: this.envelopeId, documents: this.documents.map((document) => ({ ...document })) };
  }

  /** `Envelope E: a.pdf (d1) UPLOADED; b.pdf (d2) AWAITING_UPLOAD, upload not finished; c.pdf not registered.` */
  describe(): string {
    const parts = this.documents.map((document) => {
      if (document.status === 'REGISTERING') return `${document.fileName} was being registered (it may exist without content)`;
      if (!document.documentId) return `${document.fileName} not registered`;
      const note = document.status === 'AWAITING_UPLOAD' ? ', upload not finished' : '';
      return `${document.fileName} (${document.documentId}) ${document.status}${note}`;
    });
    return `Envelope ${this.envelopeId}: ${parts.join('; ')}.`;
  }

  interrupted(stopped: InterruptedError, hint: string): InterruptedError {
    return new InterruptedError(stopped.signal, `Stopped by ${stopped.signal}. ${this.describe()}`, hint, this.summary);
  }
}

/**
 * Registers one document in a draft envelope and uploads its bytes; answers the registered document. The
 * registration carries an Idempotency-Key made once for it, so a dropped connection is retried without registering
 * the document twice.
 */
export async function registerAndUpload(
  ctx: Context,
  client: ApiClient,
  envelopeId: string,
  document: LocalDocument,
  onStep: (documentId: string | null, status: string) => void = () => {},
): Promise<DocumentInfo> {
  onStep(null, 'REGISTERING');
  const { body } = await client
    .call('registerDocument', {
      params: { envelopeId },
      body: { fileName: document.fileName, contentType: document.contentType },
      idempotencyKey: crypto().randomUUID(),
      signal: interruption.signal,
    })
    .catch((error: unknown) => {
      // A refusal (4xx) registered nothing: the draft is as it was, not stuck. Only a lost answer may have left one.
      if (error instanceof ApiError && error.status < 500) {
        onStep(null, 'NOT_REGISTERED');
        error.hint ??= registrationRefusedHint(error, envelopeId);
      }
      throw error;
    });
  const registered = readDocumentInfo(body);
  // The client checked the answer (answers.ts, registeredDocument): it carries an id and an upload address.
  onStep(registered.documentId, registered.status === 'UNKNOWN' ? 'AWAITING_UPLOAD' : registered.status);
  await uploadFile(ctx, client, uploadAddressOf(body)!, document);
  onStep(registered.documentId, 'UPLOADED');
  ctx.output.info(visible(`Uploaded ${document.fileName} (${registered.documentId})`));
  return { ...registered, fileName: registered.fileName || document.fileName };
}

/** What to do when the service refuses to register a document, for the refusals that have one way out. */
function registrationRefusedHint(error: ApiError, envelopeId: string): string | undefined {
  if (error.status === 404) return `There is no envelope ${envelopeId} (or this key cannot see it): check the id with esign envelopes find <text>, or create a draft with esign envelopes create.`;
  if (error.code === 'ENVELOPE_NOT_DRAFT') return `Documents are added only to a draft, and this envelope is no longer one (esign envelopes get ${envelopeId}). Create a new draft for them: esign envelopes create.`;
  return undefined;
}

export interface WaitForDocumentsOptions {
  timeoutMs: number;
  /** `--confirm-conversion` (or `--yes`): accept converted .docx previews without asking. */
  confirmConversion: boolean;
  /** After every read of the list, e.g. to keep an UploadProgress current. */
  onStatuses?: (latest: readonly DocumentInfo[]) => void;
}

export async function listAllDocuments(client: ApiClient, envelopeId: string, signal?: AbortSignal): Promise<DocumentInfo[]> {
  return (await allItems<unknown>(client, 'listDocuments', { params: { envelopeId }, ...(signal ? { signal } : {}) })).map(readDocumentInfo);
}

/**
 * Polls the envelope's documents until every one asked for is READY. FAILED ends the wait with the file and reason;
 * a converted .docx is confirmed when allowed, asked about on a terminal, or ends the wait (exit 5) with the command
 * that confirms it.
 */
export async function waitForDocuments(
  ctx: Context,
  client: ApiClient,
  envelopeId: string,
  wanted: readonly { documentId: string; fileName: string }[],
  options: WaitForDocumentsOptions,
): Promise<DocumentInfo[]> {
  const confirmed = new Set<string>();
  const spinner = await ctx.output.spinner(`Waiting for ${wanted.length === 1 ? wanted[0]!.fileName : `${wanted.length} documents`} to be processed`);
  let latest: DocumentInfo[] = [];
  try {
    const ready = await pollUntil(
      async () => {
        const answered = await listAllDocuments(client, envelopeId, interruption.signal);
        const listed = new Map(answered.map((document) => [document.documentId, document]));
        latest = wanted.map((want) => listed.get(want.documentId) ?? { ...want, status: 'UNKNOWN' });
        options.onStatuses?.(latest);
        for (const document of latest) {
          const fileName = document.fileName || wanted.find((want) => want.documentId === document.documentId)!.fileName;
          if (document.status === 'FAILED') {
            const failed = new WaitError(
              `${fileName} (${document.documentId}) could not be processed: ${document.failureReason ?? 'no reason given'}.`,
              ExitCode.conflict,
              'DOCUMENT_FAILED',
              { documentId: document.documentId, fileName, reason: document.failureReason ?? null },
            );
            failed.hint = stuckDraftWayOut(envelopeId);
            throw failed;
          }
          if (document.status === 'AWAITING_CONVERSION_CONFIRMATION' && !confirmed.has(document.documentId)) {
            spinner.stop();
            await confirmConversionOrStop(ctx, client, envelopeId, { ...document, fileName }, options);
            confirmed.add(document.documentId);
          }
        }
        return latest.every((document) => document.status === 'READY') ? latest : undefined;
      },
      {
        timeoutMs: options.timeoutMs,
        signal: interruption.signal,
        pollAgainAfter: (error) => {
          const transient = isTransientFailure(error);
          if (transient) ctx.output.debug(`reading the documents failed (${error.message}); trying again at the next poll`);
          return transient;
        },
        onOutage: warnOnOutage(ctx.output, `the documents of envelope ${envelopeId}`),
      },
    );
    if (!ready) {
      const pending = latest.filter((document) => document.status !== 'READY');
      throw new WaitError(
        `Still not ready after ${formatDuration(options.timeoutMs)}: ${pending.map((document) => `${document.fileName || document.documentId} (${document.status})`).join(', ')}.`,
        ExitCode.network,
        'WAIT_TIMEOUT',
        { documents: pending },
      );
    }
    spinner.succeed(`${ready.length === 1 ? ready[0]!.fileName || 'The document' : `${ready.length} documents`} ready`);
    return ready;
  } catch (error) {
    spinner.stop();
    throw error;
  }
}

async function confirmConversionOrStop(
  ctx: Context,
  client: ApiClient,
  envelopeId: string,
  document: DocumentInfo,
  options: WaitForDocumentsOptions,
): Promise<void> {
  const pages = document.pageCount === undefined ? '' : ` (${document.pageCount} page${document.pageCount === 1 ? '' : 's'})`;
  let accepted = options.confirmConversion || ctx.globals.yes;
  if (!accepted && ctx.prompts.canAsk) {
    accepted = await ctx.prompts.confirm(`${visible(document.fileName)} was converted to PDF${pages}. Use the converted PDF?`, '--confirm-conversion', true);
  }
  if (!accepted) {
    const error = new WaitError(
      // Named in the message, not only the hint: batch run reports each envelope's failure by its message alone.
      `${document.fileName} (${document.documentId}) was converted to PDF${pages} and waits for confirmation (--confirm-conversion gives it); the envelope cannot be sent until it is confirmed.`,
      ExitCode.conflict,
      'CONVERSION_NOT_CONFIRMED',
      { documentId: document.documentId, fileName: document.fileName },
    );
    error.hint =
      `Look at it (esign documents download-url ${envelopeId} ${document.documentId}), then accept it: ` +
      `esign documents confirm-conversion ${envelopeId} ${document.documentId}. Next time, --confirm-conversion accepts it during the wait.`;
    throw error;
  }
  await client.call('confirmConversion', { params: { envelopeId, documentId: document.documentId }, body: {} });
  ctx.output.info(`Confirmed the converted PDF of ${visible(document.fileName)}`);
}

/** How long a command that reads a document's text waits out 409 DOCUMENT_NOT_READY before reporting it. */
const DOCUMENT_READY_WAIT_MS = 30_000;

/**
 * Request options for a call that needs the document processed (anchors, fields with anchors): the client repeats it
 * while the answer is 409 DOCUMENT_NOT_READY, saying so once; `explain` gives the final 409 a next step.
 */
export function whileDocumentProcesses(ctx: Context, envelopeId: string): { options: Pick<RequestOptions, 'retry' | 'onRetry'>; explain(error: unknown): void } {
  let told = false;
  return {
    options: {
      retry: { waitTimeoutMs: DOCUMENT_READY_WAIT_MS },
      onRetry: ({ reason }) => {
        if (told || !reason.includes('DOCUMENT_NOT_READY')) return;
        told = true;
        ctx.output.info(`The document is not processed yet; trying again for up to ${formatDuration(DOCUMENT_READY_WAIT_MS)}.`);
      },
    },
    explain(error) {
      if (error instanceof ApiError && error.status === 409 && error.code === 'DOCUMENT_NOT_READY' && !error.hint) {
        error.hint = `See where it stands with \`esign documents list ${envelopeId}\`: upload it, confirm its conversion, or wait until it is READY.`;
      }
    },
  };
}
