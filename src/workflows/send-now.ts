/**
 * send-now from an envelope spec: the offline preflight (so an anchor the service would not find is caught before it
 * voids the envelope), the one POST, the uploads to the addresses it answers, and, when asked, following the envelope
 * until it is SENT or VOIDED.
 */
import type { ApiClient } from '../api/client.js';
import { ExitCode, UnexpectedAnswerError, WaitError } from '../api/errors.js';
import type { Context } from '../cli/command.js';
import { sendNowBody, type LoadedEnvelopeSpec } from '../batch/envelope-spec.js';
import { FIELD_ID_NAMESPACE } from '../input/fields.js';
import { envelopeIdOf, type EnvelopeBody } from '../output/envelope-view.js';
import { checkFieldsForPeople, type FieldInput, type FieldWarning, type PlacedField } from '../pdf/placement.js';
import { uuidV5 } from '../shared/uuid.js';
import { PDF_CONTENT_TYPE, listAllDocuments, readDocumentInfo, uploadAddressOf, uploadFile, waitForDocuments, type DocumentInfo } from './upload.js';
import { placeOnLocalPdf, problemFindings, readLocalPdf, warningFindings, type FieldLocations, type Finding } from './preflight.js';
import { waitForEnvelope } from './wait.js';
import { visible } from '../output/sanitize.js';

export interface SpecPreflight {
  problems: Finding[];
  warnings: Finding[];
  /** Refs of documents with fields that could not be checked offline (a .docx is converted by the service). */
  unchecked: string[];
}

/** Runs the service's placement rules over every PDF of the spec, as the service will once the uploads are processed. */
export async function preflightEnvelopeSpec(loaded: LoadedEnvelopeSpec): Promise<SpecPreflight> {
  const { input, spec, files } = loaded;
  const problems: Finding[] = [];
  const unchecked: string[] = [];
  const placedByDocument: { documentId: string; fields: PlacedField[] }[] = [];
  const specIndexOf = new Map<string, number>();
  const byId = (id: string) => (specIndexOf.has(id) ? input.locate(['fields', specIndexOf.get(id)!]) : undefined);

  for (const [documentIndex, file] of files.entries()) {
    const specIndexes = spec.fields.flatMap((field, index) => (field.documentRef === file.ref ? [index] : []));
    if (specIndexes.length === 0) continue;
    if (file.contentType !== PDF_CONTENT_TYPE) {
      unchecked.push(file.ref);
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
    const placement = await placeOnLocalPdf(file.path, await readLocalPdf(file.path, input.locate(['documents', documentIndex, 'file'])), fields);
    for (const [id, index] of placement.fieldIndexOf) specIndexOf.set(id, specIndexes[index]!);
    const locations: FieldLocations = {
      byIndex: (index) => input.locate(['fields', specIndexes[index]!]),
      byId,
      document: file.fileName,
      documentWhere: input.locate(['documents', documentIndex]),
    };
    if (placement.ok) placedByDocument.push({ documentId: file.ref, fields: placement.placed });
    else problems.push(...problemFindings(placement.problems, locations));
  }

  const participants = spec.participants.map((participant) => ({ id: participant.ref, role: participant.role, name: participant.name }));
  // A signature on a document that could not be placed offline still counts.
  const signsElsewhere = new Set(spec.fields.filter((field) => field.type === 'SIGNATURE' && unchecked.includes(field.documentRef)).map((field) => field.participantRef));
  const warnings: FieldWarning[] = checkFieldsForPeople(placedByDocument, participants).filter(
    (warning) => !(warning.code === 'SIGNER_WITHOUT_SIGNATURE' && warning.participantId && signsElsewhere.has(warning.participantId)),
  );
  return { problems, warnings: warningFindings(warnings, { byIndex: () => undefined, byId, document: input.name }), unchecked };
}

export interface SendNowOptions {
  wait: boolean;
  timeoutMs: number;
  confirmConversion: boolean;
}

export interface SendNowOutcome {
  envelope: EnvelopeBody;
  documents: DocumentInfo[];
}

/** The registered document of each spec document: by ref, else by file name, else in order. */
function registeredDocuments(body: Record<string, unknown>, loaded: LoadedEnvelopeSpec, answer: { origin: string; status: number }): { raw: unknown; info: DocumentInfo }[] {
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

export async function sendNow(ctx: Context, client: ApiClient, loaded: LoadedEnvelopeSpec, options: SendNowOptions): Promise<SendNowOutcome> {
  const started = Date.now();
  const { body, status } = await client.call<Record<string, unknown>>('sendNow', { body: sendNowBody(loaded) });
  const envelopeId = envelopeIdOf(body as EnvelopeBody);
  ctx.output.info(`Envelope ${visible(envelopeId)} created; uploading ${loaded.files.length} document${loaded.files.length === 1 ? '' : 's'}`);
  const registered = registeredDocuments(body, loaded, { origin: client.origin, status });
  for (const [index, file] of loaded.files.entries()) {
    await uploadFile(ctx, client, uploadAddressOf(registered[index]!.raw)!, file);
    ctx.output.info(visible(`Uploaded ${file.fileName} (${registered[index]!.info.documentId})`));
  }
  // Upload addresses are capabilities: they are not printed.
  const { documents: _documents, ...envelope } = body;
  let documents = registered.map((entry) => entry.info);
  if (!options.wait) {
    // The statuses answered by send-now (AWAITING_UPLOAD) are stale once the bytes are up.
    const listed = new Map((await listAllDocuments(client, envelopeId)).map((document) => [document.documentId, document]));
    documents = documents.map((document) => listed.get(document.documentId) ?? document);
    return { envelope: { ...envelope, documents } as EnvelopeBody, documents };
  }

  const remaining = () => Math.max(1, options.timeoutMs - (Date.now() - started));
  documents = await waitForDocuments(ctx, client, envelopeId, documents, { timeoutMs: remaining(), confirmConversion: options.confirmConversion });
  const spinner = await ctx.output.spinner(`Waiting for envelope ${envelopeId} to be sent`);
  try {
    const sent = await waitForEnvelope(client, envelopeId, { until: 'SENT', timeoutMs: remaining(), onStatus: (status) => spinner.update(`Waiting for envelope ${envelopeId} to be sent (${status ?? '?'})`) });
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
