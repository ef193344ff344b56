/**
 * PUT fields on the emulator: the contract's placement rules (src/pdf/placement.ts) plus what only the service knows —
 * the envelope's participants, the ids used elsewhere in the account, the document's readiness and the anchor
 * search's switch, size limit, time limit and one-search-per-document gate.
 */
import { isUuid, uuidV5 } from '../shared/uuid.js';
import { placeFields, type FieldInput, type PlacedField, type PlacementProblem, type PlacementResult } from '../pdf/placement.js';
import type { PageInfo as PdfPageInfo } from '../pdf/page-text.js';
import { assertAnchorSearchPossible, assertDocumentReady, loadDocumentText, withSearchSlot } from './anchor-gate.js';
import { ApiFailure, fail } from './errors.js';
import type { LifecycleDeps } from './context.js';
import type { DocumentRecord, StoredField } from './records.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Placement problems of one stage as one answer: the first problem's status and code, every message. */
function placementFailure(problems: readonly PlacementProblem[]): ApiFailure {
  const first = problems[0]!;
  const message = problems.map((problem) => problem.message).join('; ');
  if (first.code === 'VALIDATION_ERROR') {
    return fail.validation(`Invalid fields: ${message}.`, {
      issues: problems.map((problem) => ({ path: problem.fieldIndex === undefined ? 'fields' : `fields[${problem.fieldIndex}]`, message: problem.message })),
    });
  }
  const details =
    problems.length > 1
      ? { ...first.details, problems: problems.map(({ code, message: text, details: each }) => ({ code, message: text, ...(each ? { details: each } : {}) })) }
      : first.details;
  return new ApiFailure(first.status, first.code, message, details);
}

/** Fields for participants the envelope does not have: 400 FIELD_PARTICIPANT_UNKNOWN. */
function assertKnownParticipants(deps: LifecycleDeps, document: DocumentRecord, fields: readonly unknown[]): void {
  const envelope = document.envelopeId ? deps.store.state.envelopes.get(document.envelopeId) : undefined;
  const known = new Set(envelope?.participants.map((participant) => participant.id) ?? []);
  const unknown = fields.flatMap((field, index) =>
    isRecord(field) && typeof field.participantId === 'string' && !known.has(field.participantId)
      ? [{ index, fieldId: field.id, participantId: field.participantId }]
      : [],
  );
  if (unknown.length === 0) return;
  throw fail.badRequest(
    'FIELD_PARTICIPANT_UNKNOWN',
    `${unknown.map((entry) => `fields[${entry.index}].participantId ${entry.participantId}`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a participant of the envelope; define the participants first.`,
    { envelopeId: document.envelopeId, fields: unknown },
  );
}

/** Ids are unique in a document and not reusable in another document of the account: 409 FIELD_ID_IN_USE. */
function assertIdsFree(deps: LifecycleDeps, document: DocumentRecord, fields: readonly unknown[]): void {
  const elsewhere = new Map<string, string>();
  for (const other of [...deps.store.state.documents.values()]) {
    if (other.documentId === document.documentId) continue;
    for (const field of other.fields) elsewhere.set(field.id, other.documentId);
  }
  for (const template of Object.values(deps.store.state.templates)) {
    for (const field of template.fields) if (field.documentId !== document.documentId) elsewhere.set(field.id, field.documentId);
  }
  const taken = fields.flatMap((field, index) => {
    const documentId = isRecord(field) && typeof field.id === 'string' ? elsewhere.get(field.id) : undefined;
    return documentId ? [{ index, fieldId: (field as { id: string }).id, documentId }] : [];
  });
  if (taken.length === 0) return;
  throw fail.conflict(
    'FIELD_ID_IN_USE',
    `${taken.map((entry) => `fields[${entry.index}].id ${entry.fieldId} is already used in document ${entry.documentId}`).join('; ')}; a field id is not reusable in another document.`,
    { fields: taken },
  );
}

/** Namespace of legacy document ids, which the client chooses and need not be UUIDs. */
const LEGACY_DOCUMENT_NAMESPACE = 'a3b5f0c2-7d41-5e8a-9c6b-2f1e0d9c8b7a';

/** Derived ids must repeat on every PUT to a document and differ from any other document's. */
function idNamespaceOf(documentId: string): string {
  return isUuid(documentId) ? documentId : uuidV5(documentId, LEGACY_DOCUMENT_NAMESPACE);
}

/** Per-page placements back into stored fields: one per id, with every page it is on. */
function toStoredFields(placed: readonly PlacedField[]): StoredField[] {
  const byId = new Map<string, StoredField>();
  for (const field of placed) {
    const existing = byId.get(field.id);
    if (existing) {
      existing.pages.push(field.page);
      continue;
    }
    byId.set(field.id, {
      id: field.id,
      participantId: field.participantId,
      type: field.type,
      pages: [field.page],
      position: { x: field.x, y: field.y },
      size: { width: field.width, height: field.height },
      ...(field.properties !== undefined ? { properties: field.properties } : {}),
    });
  }
  return [...byId.values()];
}

/**
 * Resolves the body's `fields` for the document or throws the answer that refuses them; stores nothing. Fields on a
 * document that is not READY are refused with 409 DOCUMENT_NOT_READY even without anchors, because page count and
 * sizes are what coordinates are checked against; an empty list (remove all) is accepted in any status. The service's
 * own placements (send-now) pass `waitForSearchSlot` so that a client's search on the document delays them rather than
 * failing them.
 */
export async function placeFieldsOnDocument(
  deps: LifecycleDeps,
  document: DocumentRecord,
  fields: readonly unknown[],
  options: { waitForSearchSlot?: boolean } = {},
): Promise<StoredField[]> {
  if (fields.length === 0) return [];
  // As in placement, null stands for an anchor left out.
  const usesAnchors = fields.some((field) => isRecord(field) && field.anchor !== undefined && field.anchor !== null);
  let result: PlacementResult;
  let pages: DocumentRecord['pages'];
  do {
    // Processing replaces `pages` whenever the content changes (an upload deletes them): a search that ran on other
    // pages than the document has now is done again, or refused if the new content is not READY.
    pages = document.pages;
    if (usesAnchors) assertAnchorSearchPossible(deps.options, document);
    else assertDocumentReady(document, 'given fields');
    assertKnownParticipants(deps, document, fields);
    assertIdsFree(deps, document, fields);
    const place = () =>
      placeFields({
        documentId: document.documentId,
        idNamespace: idNamespaceOf(document.documentId),
        // Stored pages were read by readPdfPages, so their rotation is one of the four the pdf module names.
        pages: (pages ?? []) as PdfPageInfo[],
        loadText: () => loadDocumentText(deps.store, deps.options, document),
        fields: fields as readonly FieldInput[],
      });
    result = usesAnchors ? await withSearchSlot(document.documentId, place, { wait: options.waitForSearchSlot }) : await place();
  } while (document.pages !== pages);
  if (usesAnchors) {
    // The search let other requests in: the document (with its envelope) may be gone, and participants and field ids
    // are checked again against what is stored now.
    if (deps.store.state.documents.get(document.documentId) !== document) throw fail.notFound('Document', document.documentId);
    assertKnownParticipants(deps, document, fields);
    assertIdsFree(deps, document, fields);
  }
  if (!result.ok) throw placementFailure(result.problems);
  return toStoredFields(result.fields);
}
