/**
 * Envelope and participant state changes shared by the envelope, participant, template and control routes and by
 * document processing (send-now). Every change writes history; notifications go through Events (the outbox).
 */
import { e164Pattern } from '../shared/phone.js';
import { EMAIL_MAX_LENGTH, emailPattern } from '../shared/email.js';
import { deliveryMethods, participantRoles } from '../shared/values.js';
import { Derived } from './derived.js';
import { ApiFailure, fail } from './errors.js';
import type { Events } from './events.js';
import { placeFieldsOnDocument } from './field-placement.js';
import type { LifecycleDeps } from './context.js';
import { newId, nowIso, type State } from './store.js';
import type { DeliveryMethod, EnvelopeRecord, FolderRecord, HistoryEntry, Named, ParticipantRecord, StoredField } from './records.js';
import type { Zod } from './validate.js';
import { envelopeDocuments, envelopeView, isTurn, isWaiting } from './views.js';

export type Actor = Record<string, unknown>;

/** History actor for what the service does by itself (turns, completion, send-now's deferred send). */
export const serviceActor: Actor = { type: 'SERVICE', name: 'Signature service' };

export function participantActor(participant: ParticipantRecord): Actor {
  return { type: 'PARTICIPANT', participantId: participant.id, name: participant.name, email: participant.email };
}

export const ENVELOPE_TITLE_MAX = 255;
/** v4 states no message limit (500 is the legacy route's); this only keeps a runaway body out of the state. */
export const ENVELOPE_MESSAGE_MAX = 10_000;
export const REASON_MAX = 1_000;

/** Settings fields shared by create, settings, send-now and template creation. */
export function settingsShape(z: Zod) {
  return {
    title: z.string().trim().min(1).max(ENVELOPE_TITLE_MAX),
    message: z.string().max(ENVELOPE_MESSAGE_MAX),
    deadline: z
      .iso.datetime({ offset: true })
      .transform((value) => new Date(value).toISOString())
      .refine((value) => Date.parse(value) > Date.now(), 'must be in the future')
      .nullable(),
    folderId: z.string().min(1),
  };
}

/** How a participant is reached, shared by sync, correction, send-now and template creation. */
export function deliveryShape(z: Zod) {
  return {
    name: z.string().trim().min(1).max(255),
    email: z.string().max(EMAIL_MAX_LENGTH).regex(emailPattern, 'must be an e-mail address'),
    phoneNumber: z.string().nullish(),
    deliveryMethod: z.enum(deliveryMethods),
  };
}

export function participantRoleShape(z: Zod) {
  return {
    role: z.enum(participantRoles),
    signingOrder: z.number().int().min(1).max(1000),
  };
}

export interface DeliveryInput {
  deliveryMethod: DeliveryMethod;
  phoneNumber?: string | null | undefined;
}

/** SMS and WhatsApp need an E.164 number: 400 PHONE_NUMBER_REQUIRED (pins.md); a malformed number on EMAIL is a plain validation error. */
export function checkDeliveryAddress(input: DeliveryInput, path: string): void {
  const phone = input.phoneNumber ?? undefined;
  if (input.deliveryMethod !== 'EMAIL' && !(phone && e164Pattern.test(phone))) {
    throw new ApiFailure(
      400,
      'PHONE_NUMBER_REQUIRED',
      `${path}: delivery method ${input.deliveryMethod} needs \`phoneNumber\` in E.164 form, e.g. +14155550123.`,
      { path: `${path}.phoneNumber`, deliveryMethod: input.deliveryMethod },
    );
  }
  if (phone !== undefined && !e164Pattern.test(phone)) {
    throw fail.validation(`${path}.phoneNumber must be in E.164 form, e.g. +14155550123.`, {
      issues: [{ path: `${path}.phoneNumber`, message: 'must be in E.164 form, e.g. +14155550123' }],
    });
  }
}

export interface NewParticipant extends DeliveryInput {
  name: string;
  email: string;
  role?: 'SIGNER' | 'APPROVER' | undefined;
  signingOrder?: number | undefined;
  templateParticipantId?: string | undefined;
}

/** Without `signingOrder` a participant gets order 1: everyone in the same order is invited at once. */
export function newParticipant(input: NewParticipant): ParticipantRecord {
  return {
    id: newId(),
    name: input.name,
    email: input.email,
    ...(input.phoneNumber ? { phoneNumber: input.phoneNumber } : {}),
    deliveryMethod: input.deliveryMethod,
    role: input.role ?? 'SIGNER',
    signingOrder: input.signingOrder ?? 1,
    status: 'PENDING',
    ...(input.templateParticipantId ? { templateParticipantId: input.templateParticipantId } : {}),
    linkVersion: 1,
  };
}

/** A SENT envelope whose deadline passed is EXPIRED; the clock is read whenever the envelope is. */
function expireIfDue(deps: LifecycleDeps, envelope: EnvelopeRecord): void {
  if (envelope.status !== 'SENT' || !envelope.deadline || Date.parse(envelope.deadline) > Date.now()) return;
  deps.store.state.envelopes.setStatus(envelope, 'EXPIRED');
  deps.events.history(envelope, 'ENVELOPE_EXPIRED', serviceActor, { deadline: envelope.deadline });
}

export function findEnvelope(deps: LifecycleDeps, envelopeId: string): EnvelopeRecord {
  const envelope = deps.store.state.envelopes.get(envelopeId);
  if (!envelope) throw fail.notFound('Envelope', envelopeId);
  expireIfDue(deps, envelope);
  return envelope;
}

/** Expires every SENT envelope whose deadline passed, so that a list shows each with the status a read would. */
export function expireDueEnvelopes(deps: LifecycleDeps): void {
  for (const envelope of deps.store.state.envelopes.due(Date.now())) expireIfDue(deps, envelope);
}

export function findParticipant(envelope: EnvelopeRecord, participantId: string): ParticipantRecord {
  const participant = envelope.participants.find((candidate) => candidate.id === participantId);
  if (!participant) throw fail.notFound('Participant', participantId);
  return participant;
}

/** An explicit folder must exist; otherwise the first top-level folder, or a "Drafts" folder made for the purpose. */
export function resolveFolder(state: State, folderId: string | undefined): FolderRecord {
  if (folderId !== undefined) {
    const folder = state.folders[folderId];
    if (!folder) throw fail.notFound('Folder', folderId);
    return folder;
  }
  const first = Object.values(state.folders).find((folder) => folder.parentId === null);
  if (first) return first;
  const drafts: FolderRecord = { id: newId(), name: 'Drafts', parentId: null, createdAt: nowIso() };
  state.folders[drafts.id] = drafts;
  return drafts;
}

export function assertEnvelopeQuota(deps: LifecycleDeps): void {
  const quota = deps.options.envelopeQuota;
  const used = deps.store.state.envelopesCreated;
  if (quota !== undefined && used >= quota) {
    throw new ApiFailure(403, 'ENVELOPES_QUOTA_EXCEEDED', `The account reached its envelope limit (${quota}).`, { quota, used });
  }
}

export function assertMessagesLeft(deps: LifecycleDeps, needed: number): void {
  if (needed > 0 && deps.events.messagesLeft() < needed) {
    throw new ApiFailure(403, 'MESSAGE_LIMIT_REACHED', `The account reached its message limit (${deps.options.messageLimit}).`, {
      messageLimit: deps.options.messageLimit,
      messagesSent: deps.store.state.messagesSent,
      needed,
    });
  }
}

export interface EnvelopeSettings {
  title?: string | undefined;
  message?: string | undefined;
  deadline?: string | null | undefined;
  folderId?: string | undefined;
}

/** The sender every envelope names: one frozen copy of the responsible user, shared by all of them. */
const senders = new Derived((user: Named): Named => Object.freeze({ id: user.id, name: user.name }));

/**
 * What a new draft starts with: one frozen empty list for all of them (a million drafts would otherwise hold two
 * million empty arrays). Participants are replaced through `EnvelopeTable.setParticipants`, documents through
 * `addDocumentId`, never changed in place.
 */
const NO_PARTICIPANTS: readonly ParticipantRecord[] = Object.freeze([]);
const NO_DOCUMENTS: readonly string[] = Object.freeze([]);
const NO_HISTORY: readonly HistoryEntry[] = Object.freeze([]);

export function addDocumentId(envelope: EnvelopeRecord, documentId: string): void {
  envelope.documentIds = [...envelope.documentIds, documentId];
}

/** Creates a DRAFT, counted toward the envelope quota (403 ENVELOPES_QUOTA_EXCEEDED past it). */
export function createEnvelopeRecord(deps: LifecycleDeps, settings: EnvelopeSettings, actor: Actor, details?: Record<string, unknown>): EnvelopeRecord {
  assertEnvelopeQuota(deps);
  const { state } = deps.store;
  const folder = resolveFolder(state, settings.folderId);
  const now = nowIso();
  const title = settings.title ?? 'Untitled envelope';
  const envelope: EnvelopeRecord = {
    id: newId(),
    seq: state.envelopesCreated,
    title,
    message: settings.message ?? '',
    status: 'DRAFT',
    deadline: settings.deadline ?? null,
    createdAt: now,
    updatedAt: now,
    folderId: folder.id,
    sender: senders.of(state.responsibleUser),
    participants: NO_PARTICIPANTS,
    documentIds: NO_DOCUMENTS,
    history: NO_HISTORY,
    createdBy: actor,
    createdTitle: title,
    createdFolderId: folder.id,
    createdDetails: details,
  };
  state.envelopes.add(envelope);
  state.envelopesCreated++;
  deps.store.changed();
  return envelope;
}

/** `count` drafts made as createEnvelope makes them, without requests: how the bench fills a store to a million. */
export function preloadDrafts(deps: LifecycleDeps, count: number): void {
  for (let index = 0; index < count; index++) createEnvelopeRecord(deps, { title: 'Preloaded draft' }, serviceActor);
}

export function assertStatus(envelope: EnvelopeRecord, allowed: readonly EnvelopeRecord['status'][], code: string, doing: string): void {
  if (!allowed.includes(envelope.status)) {
    throw fail.conflict(code, `Cannot ${doing}: envelope ${envelope.id} is ${envelope.status} (allowed: ${allowed.join(', ')}).`, {
      envelopeId: envelope.id,
      status: envelope.status,
    });
  }
}

/** Participants who would be invited if the envelope were sent now: the lowest signing order. */
function firstTurn(envelope: EnvelopeRecord): ParticipantRecord[] {
  const lowest = Math.min(...envelope.participants.map((participant) => participant.signingOrder));
  return envelope.participants.filter((participant) => participant.signingOrder === lowest);
}

/**
 * What send checks, in order: DRAFT (409 ENVELOPE_NOT_DRAFT), not already waiting on send-now (409
 * ENVELOPE_SEND_PENDING), participants (422 ENVELOPE_HAS_NO_PARTICIPANTS), documents (422 ENVELOPE_HAS_NO_DOCUMENTS),
 * no FAILED document (422 DOCUMENT_FAILED: waiting cannot help), every document READY (409
 * ENVELOPE_DOCUMENTS_NOT_READY), enough messages left for the first invitations (403 MESSAGE_LIMIT_REACHED).
 */
export function assertSendable(deps: LifecycleDeps, envelope: EnvelopeRecord): void {
  assertStatus(envelope, ['DRAFT'], 'ENVELOPE_NOT_DRAFT', 'send the envelope');
  if (envelope.sendWhenReady) {
    throw fail.conflict('ENVELOPE_SEND_PENDING', 'This envelope was created by send-now: it is sent by the service once its documents are processed.', {
      envelopeId: envelope.id,
    });
  }
  if (envelope.participants.length === 0) {
    throw fail.unprocessable('ENVELOPE_HAS_NO_PARTICIPANTS', 'Add participants before sending.', { envelopeId: envelope.id });
  }
  const documents = envelopeDocuments(deps.store.state, envelope);
  if (documents.length === 0) {
    throw fail.unprocessable('ENVELOPE_HAS_NO_DOCUMENTS', 'Add at least one document before sending.', { envelopeId: envelope.id });
  }
  const describe = documents.map((document) => ({ documentId: document.documentId, fileName: document.fileName, status: document.status }));
  const failed = documents.filter((document) => document.status === 'FAILED');
  if (failed.length) {
    throw fail.unprocessable('DOCUMENT_FAILED', `Document processing failed for ${failed.map((document) => document.fileName).join(', ')}. No operation replaces or removes a document: delete the draft envelope and create it again.`, {
      documents: describe,
    });
  }
  const waiting = documents.filter((document) => document.status !== 'READY');
  if (waiting.length) {
    throw fail.conflict(
      'ENVELOPE_DOCUMENTS_NOT_READY',
      `Documents not ready: ${waiting.map((document) => `${document.fileName} (${document.status})`).join(', ')}.`,
      { documents: describe },
    );
  }
  assertMessagesLeft(deps, firstTurn(envelope).length);
}

/** Invites the participants whose turn it is and who have not been invited yet. */
function inviteTurn(deps: LifecycleDeps, envelope: EnvelopeRecord): void {
  for (const participant of envelope.participants) {
    if (participant.status !== 'PENDING' || !isTurn(envelope, participant)) continue;
    participant.status = 'NOTIFIED';
    deps.events.notify(envelope, participant, 'INVITATION');
    deps.events.history(envelope, 'PARTICIPANT_INVITED', serviceActor, {
      participantId: participant.id,
      channel: participant.deliveryMethod,
      linkVersion: participant.linkVersion,
    });
  }
}

function emitEnvelopeEvent(deps: LifecycleDeps, type: Parameters<Events['emit']>[0], envelope: EnvelopeRecord): void {
  deps.events.emit(type, { envelope: envelopeView(deps.store.state, envelope) });
}

/** DRAFT → SENT: the first signing order is invited (callers check assertSendable first). */
export function markSent(deps: LifecycleDeps, envelope: EnvelopeRecord, actor: Actor): void {
  envelope.sentAt = nowIso();
  deps.store.state.envelopes.setStatus(envelope, 'SENT');
  delete envelope.sendWhenReady;
  delete envelope.pendingAnchors;
  deps.events.history(envelope, 'ENVELOPE_SENT', actor);
  inviteTurn(deps, envelope);
  deps.events.notifyObservers(envelope, 'SENT');
  emitEnvelopeEvent(deps, 'ENVELOPE_SENT', envelope);
}

export function assertInTurn(envelope: EnvelopeRecord, participant: ParticipantRecord): void {
  assertStatus(envelope, ['SENT'], 'ENVELOPE_NOT_SENT', `act for participant ${participant.id}`);
  if (!isTurn(envelope, participant)) {
    throw fail.conflict('PARTICIPANT_NOT_IN_TURN', `Participant ${participant.id} is ${participant.status} and it is not their turn.`, {
      participantId: participant.id,
      status: participant.status,
    });
  }
}

export function assertRole(participant: ParticipantRecord, role: ParticipantRecord['role'], doing: string): void {
  if (participant.role !== role) {
    throw fail.conflict('PARTICIPANT_ROLE_MISMATCH', `Only a${role === 'APPROVER' ? 'n' : ''} ${role} can ${doing}; participant ${participant.id} is ${participant.role}.`, {
      participantId: participant.id,
      role: participant.role,
    });
  }
}

/** A signer signs or an approver approves; the next order is invited, or the envelope completes. */
export function finishParticipant(deps: LifecycleDeps, envelope: EnvelopeRecord, participant: ParticipantRecord, outcome: 'SIGNED' | 'APPROVED', actor: Actor): void {
  assertInTurn(envelope, participant);
  assertRole(participant, outcome === 'SIGNED' ? 'SIGNER' : 'APPROVER', outcome === 'SIGNED' ? 'sign' : 'approve');
  participant.status = outcome;
  participant.completedAt = nowIso();
  deps.events.history(envelope, outcome === 'SIGNED' ? 'PARTICIPANT_SIGNED' : 'PARTICIPANT_APPROVED', actor, { participantId: participant.id });
  if (envelope.participants.some(isWaiting)) {
    inviteTurn(deps, envelope);
    return;
  }
  deps.store.state.envelopes.setStatus(envelope, 'COMPLETED');
  envelope.completedAt = nowIso();
  deps.events.history(envelope, 'ENVELOPE_COMPLETED', serviceActor);
  for (const each of envelope.participants) deps.events.notify(envelope, each, 'COMPLETED');
  deps.events.notifyObservers(envelope, 'COMPLETED');
  emitEnvelopeEvent(deps, 'ENVELOPE_COMPLETED', envelope);
}

/** A refusal ends the envelope as DECLINED. */
export function refuseForParticipant(deps: LifecycleDeps, envelope: EnvelopeRecord, participant: ParticipantRecord, reason: string, actor: Actor): void {
  assertInTurn(envelope, participant);
  participant.status = 'REFUSED';
  participant.refusalReason = reason;
  participant.completedAt = nowIso();
  deps.events.history(envelope, 'PARTICIPANT_REFUSED', actor, { participantId: participant.id, reason });
  deps.store.state.envelopes.setStatus(envelope, 'DECLINED');
  deps.events.history(envelope, 'ENVELOPE_DECLINED', serviceActor, { participantId: participant.id, reason });
  emitEnvelopeEvent(deps, 'ENVELOPE_DECLINED', envelope);
}

/**
 * → VOIDED with `cancellationReason`, a history entry and ENVELOPE_VOIDED. Participants already invited are told
 * (outbox VOIDED); a send-now envelope voided before sending has told no one and tells no one.
 */
export function voidEnvelopeRecord(deps: LifecycleDeps, envelope: EnvelopeRecord, reason: string, actor: Actor, details?: Record<string, unknown>): void {
  deps.store.state.envelopes.setStatus(envelope, 'VOIDED');
  envelope.cancellationReason = reason;
  delete envelope.sendWhenReady;
  delete envelope.pendingAnchors;
  deps.events.history(envelope, 'ENVELOPE_VOIDED', actor, { reason, ...details });
  for (const participant of envelope.participants) {
    if (participant.status !== 'PENDING') deps.events.notify(envelope, participant, 'VOIDED');
  }
  emitEnvelopeEvent(deps, 'ENVELOPE_VOIDED', envelope);
}

/** Envelopes whose deferred send is running: a second "documents processed" meanwhile must not send twice. */
const settling = new Set<string>();

/**
 * Called by document processing whenever a document of the envelope ends processing (or a conversion is confirmed).
 * A send-now envelope is sent once every document is READY, after its pending anchors are resolved; a FAILED document
 * or a placement failure voids it instead (contract, States: `cancellationReason` set and in history, ENVELOPE_VOIDED,
 * no message to participants).
 */
export async function onDocumentsProcessed(deps: LifecycleDeps, envelopeId: string): Promise<void> {
  const envelope = deps.store.state.envelopes.get(envelopeId);
  if (!envelope || envelope.status !== 'DRAFT' || !envelope.sendWhenReady || settling.has(envelopeId)) return;
  const documents = envelopeDocuments(deps.store.state, envelope);
  const failed = documents.find((document) => document.status === 'FAILED');
  if (failed) {
    voidEnvelopeRecord(
      deps,
      envelope,
      `DOCUMENT_FAILED: document ${failed.fileName} (${failed.documentId}) could not be processed: ${failed.failureReason ?? 'unknown cause'}`,
      serviceActor,
      { code: 'DOCUMENT_FAILED', documentId: failed.documentId },
    );
    return;
  }
  if (documents.some((document) => document.status !== 'READY')) return;
  settling.add(envelopeId);
  try {
    const placed = new Map<string, StoredField[]>();
    for (const document of documents) {
      const all = envelope.pendingAnchors ?? [];
      const pending = all.filter((field) => field.documentId === document.documentId);
      try {
        // A client's search on the same document delays the send instead of voiding it with ANCHOR_SEARCH_BUSY.
        const fields = pending.map(({ documentId: _documentId, ...field }) => field);
        placed.set(document.documentId, await placeFieldsOnDocument(deps, document, fields, { waitForSearchSlot: true }));
      } catch (error) {
        if (!(error instanceof ApiFailure)) throw error;
        if (envelope.status !== 'DRAFT' || deps.store.state.envelopes.get(envelopeId) !== envelope) return;
        // Placement speaks of this document's fields; the caller knows them by their place in the request.
        const message = error.message.replace(/fields\[(\d+)\]/g, (text, index: string) => {
          const field = pending[Number(index)];
          return field ? `fields[${all.indexOf(field)}]` : text;
        });
        voidEnvelopeRecord(deps, envelope, `${error.code}: ${message} (document ${document.fileName})`, serviceActor, {
          code: error.code,
          documentId: document.documentId,
          ...(error.details !== undefined ? { cause: error.details } : {}),
        });
        return;
      }
    }
    // The envelope may have been deleted while the text was searched.
    if (envelope.status !== 'DRAFT' || !envelope.sendWhenReady || deps.store.state.envelopes.get(envelopeId) !== envelope) return;
    for (const [documentId, fields] of placed) {
      const document = deps.store.state.documents.get(documentId);
      if (document) document.fields = fields;
    }
    markSent(deps, envelope, serviceActor);
  } finally {
    settling.delete(envelopeId);
  }
}
