/**
 * send-now from an envelope spec: the offline preflight (so an anchor the service would not find is caught before it
 * voids the envelope), the one POST, the uploads to the addresses it answers, and, when asked, following the envelope
 * until it is SENT or VOIDED.
 */
import { crypto } from '../shared/crypto.js';
import type { ApiClient } from '../api/client.js';
import { ApiError, ExitCode, isEsignError, UnexpectedAnswerError, WaitError } from '../core/errors.js';
import type { Context } from '../cli/command.js';
import { interruption, interruptionOf, InterruptedError } from '../core/interrupt.js';
import { sendNowBody, type LoadedEnvelopeSpec } from './envelope-spec.js';
import { envelopeSpecIdempotencyKey } from './spec-key.js';
import { FIELD_ID_NAMESPACE } from '../input/fields.js';
import { envelopeIdOf, type EnvelopeBody } from '../output/envelope-view.js';
import { checkFieldsForPeople, type FieldInput, type FieldWarning, type PlacedField } from '../pdf/placement.js';
import { uuidV5 } from '../shared/uuid.js';
import {
  PDF_CONTENT_TYPE,
  listAllDocuments,
  readDocumentInfo,
  uploadAddressOf,
  uploadFile,
  UploadProgress,
  waitForDocuments,
  type DocumentInfo,
} from './upload.js';
import { LOCAL_PLACEMENT_MAX_BYTES, localPdfOf, placeOnLocalPdf, problemFindings, warningFindings, type FieldLocations, type Finding } from './preflight.js';
import { waitForEnvelope, warnOnOutage } from './wait.js';
import { settleRelativeDeadline } from './deadline.js';
import { visible } from '../output/sanitize.js';

export interface SpecPreflight {
  problems: Finding[];
  warnings: Finding[];
  /** Documents with fields that are not checked offline, and why (a .docx is converted by the service). */
  unchecked: { ref: string; reason: string }[];
}

/** Runs the service's placement rules over every PDF of the spec, as the service will once the uploads are processed. */
export async function preflightEnvelopeSpec(loaded: LoadedEnvelopeSpec): Promise<SpecPreflight> {
  const { input, spec, files } = loaded;
  const problems: Finding[] = [];
  const unchecked: SpecPreflight['unchecked'] = [];
  /** Documents whose fields the placement rules refused. */
  const refused = new Set<string>();
  const placedByDocument: { documentId: string; fields: PlacedField[] }[] = [];
  const specIndexOf = new Map<string, number>();
  const byId = (id: string) => (specIndexOf.has(id) ? input.locate(['fields', specIndexOf.get(id)!]) : undefined);

  for (const [documentIndex, file] of files.entries()) {
    const specIndexes = spec.fields.flatMap((field, index) => (field.documentRef === file.ref ? [index] : []));
    if (specIndexes.length === 0) continue;
    if (file.contentType !== PDF_CONTENT_TYPE) {
      unchecked.push({ ref: file.ref, reason: 'a .docx is converted by the service; it checks the fields after conversion' });
      continue;
    }
    if (file.file.size > LOCAL_PLACEMENT_MAX_BYTES) {
      unchecked.push({
        ref: file.ref,
        reason: `${file.fileName} is over ${LOCAL_PLACEMENT_MAX_BYTES / 1024 / 1024} MiB, too large to read whole here; the service checks the fields once it is processed`,
      });
      continue;
    }
    const fields: FieldInput[] = specIndexes.map((specIndex) => {
      const { pageNumber, participantRef, documentRef: _documentRef, ...field } = spec.fields[specIndex]!;
      return {
        ...field,
        id: uuidV5(`spec:${specIndex}`, FIELD_ID_NAMESPACE),
        participantId: participantRef,
        ...(pageNumber === undefined ? {} : { pages: [pageNumber] }),
      };
    });
    const placement = await placeOnLocalPdf(file.file.path, await localPdfOf(file.file), fields);
    for (const [id, index] of placement.fieldIndexOf) specIndexOf.set(id, specIndexes[index]!);
    const locations: FieldLocations = {
      byIndex: (index) => input.locate(['fields', specIndexes[index]!]),
      byId,
      document: file.fileName,
      documentWhere: () => input.locate(['documents', documentIndex]),
    };
    // Fields placed beside refused ones are checked for people too: every warning is shown with every problem.
    placedByDocument.push({ documentId: file.ref, fields: placement.placed });
    if (!placement.ok) {
      problems.push(...problemFindings(placement.problems, locations));
      refused.add(file.ref);
    }
  }

  const participants = spec.participants.map((participant) => ({ id: participant.ref, role: participant.role, name: participant.name }));
  // A signature on a document that could not be placed offline, or whose fields are refused (reported above), still counts.
  const notPlaced = new Set([...unchecked.map((document) => document.ref), ...refused]);
  const signsElsewhere = new Set(spec.fields.filter((field) => field.type === 'SIGNATURE' && notPlaced.has(field.documentRef)).map((field) => field.participantRef));
  const warnings: FieldWarning[] = checkFieldsForPeople(placedByDocument, participants).filter(
    (warning) => !(warning.code === 'SIGNER_WITHOUT_SIGNATURE' && warning.participantId && signsElsewhere.has(warning.participantId)),
  );
  return { problems, warnings: warningFindings(warnings, { byIndex: () => undefined, byId, document: input.name }), unchecked };
}

export interface SendNowOptions {
  /** `--run-id`: part of the derived Idempotency-Key, so that a new run id creates a new envelope. */
  runId?: string;
  wait: boolean;
  timeoutMs: number;
  confirmConversion: boolean;
}

export interface SendNowOutcome {
  envelope: EnvelopeBody;
  documents: DocumentInfo[];
  /** An earlier run of the same spec had created the envelope: this run only finished its uploads. */
  resumed: boolean;
}

/** The registered document of each spec document: by ref, else by file name, else in order. */
function registeredDocuments(body: Record<string, unknown>, loaded: LoadedEnvelopeSpec, answer: { origin: string; status: number }): { raw: Record<string, unknown>; info: DocumentInfo }[] {
  const listed = ((Array.isArray(body.documents) ? body.documents : Array.isArray(body.uploadDetails) ? body.uploadDetails : []) as unknown[]).filter(
    (entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null,
  );
  return loaded.files.map((file, index) => {
    const raw = listed.find((entry) => entry.ref === file.ref) ?? listed.find((entry) => entry.fileName === file.fileName) ?? listed[index];
    const info = readDocumentInfo(raw);
    if (!raw || !info.documentId || !uploadAddressOf(raw)) {
      throw new UnexpectedAnswerError(
        `The server at ${answer.origin} answered send-now with no document id or upload address for ${file.fileName} (ref ${file.ref}), which esign does not understand.`,
        'UNEXPECTED_RESPONSE',
        { operation: 'sendNow', status: answer.status },
        `Nothing was uploaded; the envelope ${envelopeIdOf(body as EnvelopeBody)} may exist without its documents: look at it with \`esign envelopes get ${envelopeIdOf(body as EnvelopeBody)}\`.`,
      );
    }
    return { raw, info: { ...info, fileName: info.fileName || file.fileName } };
  });
}

/** `of this spec`, `of this spec with run id 42`: what made the key the service answered again. */
export function earlierRunOf(runId: string | undefined): string {
  return runId === undefined ? 'of this spec' : `of this spec with run id ${visible(runId)}`;
}

/** Another run of the same spec can only make a new envelope with another key; one made up here is as good as any. */
function createAgainHint(envelopeId: string): string {
  return (
    `The API has no operation to replace or remove a document, so envelope ${envelopeId} cannot be completed. ` +
    `Delete it (esign envelopes delete ${envelopeId}) and create the envelope again with a new key: add --idempotency-key ${crypto().randomUUID()} to the same command.`
  );
}

/**
 * The current documents of an envelope an earlier run of this spec created (the answer was replayed): what is already
 * up is not sent again.
 */
async function currentDocuments(client: ApiClient, envelopeId: string): Promise<Map<string, DocumentInfo>> {
  try {
    return new Map((await listAllDocuments(client, envelopeId, interruption.signal)).map((document) => [document.documentId, document]));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      error.hint =
        `An earlier run of this same spec created envelope ${envelopeId}, which no longer exists (deleted?). The service answers that run again ` +
        `for 24 hours; to create a new envelope now, add --idempotency-key ${crypto().randomUUID()} to the same command.`;
    }
    throw error;
  }
}

function uploadExpired(raw: Record<string, unknown>): string | undefined {
  const expiresAt = typeof raw.uploadExpiresAt === 'string' ? raw.uploadExpiresAt : undefined;
  return expiresAt && Date.parse(expiresAt) <= Date.now() ? expiresAt : undefined;
}

/**
 * The one POST, then the uploads. The POST's Idempotency-Key comes from the spec's content (or --idempotency-key):
 * when an earlier run of the same spec created the envelope, the service answers that envelope again, and only the
 * documents still awaiting their upload are uploaded, to the addresses it answered, while those are valid.
 */
export async function sendNow(ctx: Context, client: ApiClient, loaded: LoadedEnvelopeSpec, options: SendNowOptions): Promise<SendNowOutcome> {
  const started = Date.now();
  // --idempotency-key wins (the client sends it instead); only without it are the files read for their digests.
  const idempotencyKey = ctx.globals.idempotencyKey ?? (await envelopeSpecIdempotencyKey(loaded, options.runId));
  let response;
  try {
    response = await client.call<Record<string, unknown>>('sendNow', { body: sendNowBody(loaded), idempotencyKey, signal: interruption.signal });
  } catch (error) {
    const stopped = interruptionOf(error);
    if (stopped) {
      throw new InterruptedError(
        stopped.signal,
        `Stopped by ${stopped.signal} while the envelope was being created; it may or may not exist.`,
        'Run the same command again: it finds the envelope if it was created (the same spec gives the same Idempotency-Key), or creates it.',
        { idempotencyKey },
      );
    }
    if (error instanceof ApiError && error.code === 'IDEMPOTENCY_KEY_REUSED') {
      error.hint = ctx.globals.idempotencyKey
        ? `This key was used for a different request. To create a new envelope, use another key: --idempotency-key ${crypto().randomUUID()}`
        : `An earlier run of this spec sent a different request with the same key (esign put relative deadlines in it before run ids). To create a new envelope, give this run an id of its own: --run-id ${crypto().randomUUID()}`;
    }
    throw error;
  }
  const { body } = response;
  const envelopeId = envelopeIdOf(body as EnvelopeBody);
  const replayed = response.headers['idempotent-replayed'] === 'true';
  const registered = registeredDocuments(body, loaded, { origin: client.origin, status: response.status });
  const progress = new UploadProgress(envelopeId, loaded.files);
  registered.forEach((entry, index) => progress.record(index, entry.info.documentId, 'AWAITING_UPLOAD'));
  const current = replayed ? await currentDocuments(client, envelopeId) : undefined;
  if (current) progress.update([...current.values()]);
  ctx.output.info(
    replayed
      ? `Envelope ${visible(envelopeId)} was created by an earlier run ${earlierRunOf(options.runId)}; resuming its uploads`
      : `Envelope ${visible(envelopeId)} created; uploading ${loaded.files.length} document${loaded.files.length === 1 ? '' : 's'}`,
  );
  // Before the uploads: the service sends the envelope once its documents are processed, and not without its deadline.
  if (loaded.deadline && 'afterMs' in loaded.deadline) {
    const now = replayed ? (await client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId }, signal: interruption.signal })).body : (body as EnvelopeBody);
    await settleRelativeDeadline(client, now, loaded.deadline.afterMs, interruption.signal);
  }
  try {
    for (const [index, file] of loaded.files.entries()) {
      const { raw, info } = registered[index]!;
      const status = current?.get(info.documentId)?.status ?? 'AWAITING_UPLOAD';
      if (status !== 'AWAITING_UPLOAD') {
        ctx.output.info(visible(`${file.fileName} (${info.documentId}) is already uploaded (${status})`));
        continue;
      }
      const expiredAt = uploadExpired(raw);
      if (expiredAt) {
        const error = new WaitError(
          `The upload address of ${file.fileName} (${info.documentId}) in envelope ${envelopeId} expired at ${expiredAt}; its content was never uploaded.`,
          ExitCode.conflict,
          'UPLOAD_ADDRESS_EXPIRED',
          progress.summary,
        );
        error.hint = createAgainHint(envelopeId);
        throw error;
      }
      await uploadFile(ctx, client, uploadAddressOf(raw)!, file);
      progress.record(index, info.documentId, 'UPLOADED');
      ctx.output.info(visible(`Uploaded ${file.fileName} (${info.documentId})`));
    }
  } catch (error) {
    const stopped = interruptionOf(error);
    const expires = registered.map((entry) => entry.raw.uploadExpiresAt).find((at): at is string => typeof at === 'string');
    if (stopped) {
      throw progress.interrupted(
        stopped,
        `Resume: run the same command again${expires ? ` before ${expires}` : ''}; it finds envelope ${envelopeId} and uploads what is missing. ` +
          `Or clean up: esign envelopes delete ${envelopeId}`,
      );
    }
    if (isEsignError(error) && !error.hint && progress.stranded.length > 0) {
      error.hint = `${progress.describe()} Run the same command again to retry the uploads${expires ? ` (before ${expires}, while their addresses are valid)` : ''}, or clean up: esign envelopes delete ${envelopeId}`;
    }
    throw error;
  }
  let documents = registered.map((entry) => entry.info);
  try {
    if (!options.wait) {
      // The statuses answered by send-now (AWAITING_UPLOAD) are stale once the bytes are up, and so is a replayed
      // envelope (the service may have sent it since).
      const listed = new Map((await listAllDocuments(client, envelopeId, interruption.signal)).map((document) => [document.documentId, document]));
      documents = documents.map((document) => listed.get(document.documentId) ?? document);
      const latest = replayed ? (await client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId }, signal: interruption.signal })).body : body;
      // Upload addresses are capabilities: they are not printed.
      const { documents: _documents, ...envelope } = latest;
      return { envelope: { ...envelope, documents } as EnvelopeBody, documents, resumed: replayed };
    }
    return { ...(await followUntilSent(ctx, client, envelopeId, documents, progress, options, started)), resumed: replayed };
  } catch (error) {
    const stopped = interruptionOf(error);
    if (stopped) {
      throw progress.interrupted(
        stopped,
        `Every document was uploaded; only the wait was stopped. The service sends the envelope once they are processed. Follow it: esign envelopes wait ${envelopeId} --until SENT`,
      );
    }
    throw error;
  }
}

async function followUntilSent(
  ctx: Context,
  client: ApiClient,
  envelopeId: string,
  uploaded: DocumentInfo[],
  progress: UploadProgress,
  options: SendNowOptions,
  started: number,
): Promise<Omit<SendNowOutcome, 'resumed'>> {
  const remaining = () => Math.max(1, options.timeoutMs - (Date.now() - started));
  let documents: DocumentInfo[];
  try {
    documents = await waitForDocuments(ctx, client, envelopeId, uploaded, {
      timeoutMs: remaining(),
      confirmConversion: options.confirmConversion,
      onStatuses: (latest) => progress.update(latest),
    });
  } catch (error) {
    if (error instanceof WaitError && error.code === 'DOCUMENT_FAILED') {
      // The service voids a send-now envelope whose document cannot be processed: there is no draft left to repair.
      error.hint = 'The service voids this envelope; nobody was notified. Fix the file and run send-now again: a changed file gives a new envelope.';
    }
    throw error;
  }
  const spinner = await ctx.output.spinner(`Waiting for envelope ${envelopeId} to be sent`);
  try {
    const sent = await waitForEnvelope(client, envelopeId, {
      until: 'SENT',
      timeoutMs: remaining(),
      signal: interruption.signal,
      onStatus: (status) => spinner.update(`Waiting for envelope ${envelopeId} to be sent (${status ?? '?'})`),
      onOutage: warnOnOutage(ctx.output, `envelope ${envelopeId}`),
    });
    spinner.stop();
    return { envelope: sent, documents };
  } catch (error) {
    spinner.stop();
    const details = error instanceof WaitError ? (error.details as { status?: string; cancellationReason?: string } | undefined) : undefined;
    if (details?.status === 'VOIDED') {
      const voided = new WaitError(
        `The service voided envelope ${envelopeId}: ${details.cancellationReason ?? 'no reason given'}.`,
        ExitCode.conflict,
        'ENVELOPE_VOIDED',
        error instanceof WaitError ? error.details : undefined,
      );
      voided.hint = 'Nobody was notified. Fix the spec (`esign fields check --local <file.pdf>` shows where fields land), then run send-now again.';
      throw voided;
    }
    throw error;
  }
}
