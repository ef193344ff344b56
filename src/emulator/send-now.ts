/**
 * POST /v4/api/envelopes/send-now: an envelope, its participants, documents (upload addresses) and fields in one call.
 * The answer comes before any PDF exists, so coordinates and anchors are checked against the documents only once they
 * are processed (lifecycle.onDocumentsProcessed), which then sends the envelope or voids it with the cause.
 */
import type { z as zod } from 'zod';
import { ANCHOR_TEXT_MAX_LENGTH } from '../pdf/anchors.js';
import { FIELD_TYPES } from '../pdf/placement.js';
import type { RouteContext, RouteResult } from './context.js';
import { ApiFailure, fail } from './errors.js';
import {
  assertEnvelopeQuota,
  assertMessagesLeft,
  checkDeliveryAddress,
  createEnvelopeRecord,
  deliveryShape,
  newParticipant,
  participantRoleShape,
  resolveFolder,
  settingsShape,
} from './lifecycle.js';
import { createDocumentRecord, DOCUMENT_CONTENT_TYPES } from './processing.js';
import { newId } from './store.js';
import type { PendingAnchorField } from './records.js';
import { lazySchema, parseBody, type RequestBody } from './validate.js';
import { envelopeView } from './views.js';

/** Contract: at most 20 fields with anchor per send-now call. */
export const MAX_ANCHOR_FIELDS = 20;
const MAX_PARTICIPANTS = 100;
const MAX_DOCUMENTS = 50;
const MAX_FIELDS = 1000;
/** Anchor search is off for the environment: asking again soon will not help. */
const ANCHOR_UNAVAILABLE_RETRY_AFTER_SECONDS = 3600;

/** A coordinate field without `size` gets one by type. */
const DEFAULT_SIZES: Record<(typeof FIELD_TYPES)[number], { width: number; height: number }> = {
  SIGNATURE: { width: 150, height: 50 },
  INITIALS: { width: 60, height: 30 },
  TEXT: { width: 150, height: 20 },
  CHECKBOX_GROUP: { width: 15, height: 15 },
  RADIO_GROUP: { width: 15, height: 15 },
};

const bodySchema = lazySchema((z) => {
  const settings = settingsShape(z);
  const ref = z.string().min(1).max(100);
  const size = z.strictObject({ width: z.number().positive(), height: z.number().positive() });
  return z.strictObject({
    title: settings.title,
    message: settings.message.optional(),
    deadline: settings.deadline.optional(),
    folderId: settings.folderId.optional(),
    participants: z
      .array(z.strictObject({ ref, ...deliveryShape(z), role: participantRoleShape(z).role.optional(), signingOrder: participantRoleShape(z).signingOrder.optional() }))
      .min(1)
      .max(MAX_PARTICIPANTS),
    documents: z.array(z.strictObject({ ref, fileName: z.string().trim().min(1).max(255), contentType: z.string().min(1) })).min(1).max(MAX_DOCUMENTS),
    fields: z
      .array(
        z.strictObject({
          type: z.enum(FIELD_TYPES),
          documentRef: ref,
          signatoryRef: ref,
          pageNumber: z.number().int().min(1).optional(),
          position: z.strictObject({ x: z.number(), y: z.number(), width: z.number().positive().optional(), height: z.number().positive().optional() }).optional(),
          anchor: z
            .strictObject({
              text: z.string().refine((text) => [...text].length >= 1 && [...text].length <= ANCHOR_TEXT_MAX_LENGTH, `must be 1 to ${ANCHOR_TEXT_MAX_LENGTH} characters`),
              // null is "not given", as in PUT fields and anchors:find (the anchor module reads it so).
              occurrence: z.union([z.literal('first'), z.literal('all'), z.number().int().min(1)]).nullish(),
              caseSensitive: z.boolean().nullish(),
              matchWholeWord: z.boolean().nullish(),
              offset: z.strictObject({ x: z.number(), y: z.number() }).nullish(),
              ifNotFound: z.enum(['error', 'ignore']).nullish(),
            })
            .optional(),
          size: size.optional(),
          properties: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .max(MAX_FIELDS)
      .default([]),
  });
});

type SendNowBody = zod.output<Awaited<ReturnType<typeof bodySchema>>>;

function placementInvalid(index: number, message: string): ApiFailure {
  return fail.badRequest('FIELD_PLACEMENT_INVALID', `fields[${index}]: ${message}.`, { fieldIndex: index });
}

function uniqueRefs(items: readonly { ref: string }[], list: string): Set<string> {
  const refs = new Set<string>();
  items.forEach(({ ref }, index) => {
    if (refs.has(ref)) throw fail.validation(`${list}[${index}].ref ${JSON.stringify(ref)} is used twice.`, { issues: [{ path: `${list}[${index}].ref`, message: 'used twice' }] });
    refs.add(ref);
  });
  return refs;
}

/** Everything the body can be refused for, before anything is created. */
function checkBody(body: SendNowBody): void {
  body.participants.forEach((participant, index) => checkDeliveryAddress(participant, `participants[${index}]`));
  const participantRefs = uniqueRefs(body.participants, 'participants');
  const documentRefs = uniqueRefs(body.documents, 'documents');
  body.documents.forEach(({ contentType }, index) => {
    if (!(DOCUMENT_CONTENT_TYPES as readonly string[]).includes(contentType)) {
      throw fail.badRequest('UNSUPPORTED_CONTENT_TYPE', `documents[${index}].contentType ${JSON.stringify(contentType)} is not accepted; use ${DOCUMENT_CONTENT_TYPES.join(' or ')}.`, {
        contentType,
        accepted: DOCUMENT_CONTENT_TYPES,
      });
    }
  });
  body.fields.forEach((field, index) => {
    const hasCoordinates = field.pageNumber !== undefined || field.position !== undefined;
    const hasAnchor = field.anchor !== undefined;
    if (hasCoordinates && hasAnchor) throw placementInvalid(index, 'carries both pageNumber+position and anchor; send exactly one');
    if (!hasCoordinates && !hasAnchor) throw placementInvalid(index, 'carries neither pageNumber+position nor anchor; send exactly one');
    if (hasCoordinates && (field.pageNumber === undefined || field.position === undefined)) throw placementInvalid(index, 'pageNumber and position go together; one of them is missing');
    if (hasAnchor && (field.type === 'CHECKBOX_GROUP' || field.type === 'RADIO_GROUP')) throw placementInvalid(index, `${field.type} fields take pageNumber+position, not anchor`);
    if (hasAnchor && field.size === undefined) throw placementInvalid(index, 'size is required with anchor');
    const unlinked = [
      ...(documentRefs.has(field.documentRef) ? [] : [`documentRef ${JSON.stringify(field.documentRef)}`]),
      ...(participantRefs.has(field.signatoryRef) ? [] : [`signatoryRef ${JSON.stringify(field.signatoryRef)}`]),
    ];
    if (unlinked.length) {
      throw fail.badRequest('INVALID_FIELD_LINKING', `fields[${index}]: ${unlinked.join(' and ')} names no entry of the request.`, { fieldIndex: index });
    }
  });
  const anchored = body.fields.filter((field) => field.anchor !== undefined).length;
  if (anchored > MAX_ANCHOR_FIELDS) {
    throw fail.badRequest('TOO_MANY_ANCHOR_FIELDS', `${anchored} fields use an anchor; at most ${MAX_ANCHOR_FIELDS} are allowed in one send-now call.`, {
      anchorFields: anchored,
      limit: MAX_ANCHOR_FIELDS,
    });
  }
}

export async function sendNow(ctx: RouteContext): Promise<RouteResult> {
  const body = parseBody(await bodySchema(), ctx.body);
  checkBody(body);
  if (!ctx.options.anchorSearch && body.fields.some((field) => field.anchor !== undefined)) {
    throw fail.unavailable('ANCHOR_SEARCH_UNAVAILABLE', 'Anchor search is not enabled in this environment; no envelope was created. Place the fields with pageNumber and position.', ANCHOR_UNAVAILABLE_RETRY_AFTER_SECONDS);
  }
  assertEnvelopeQuota(ctx);
  if (body.folderId !== undefined) resolveFolder(ctx.store.state, body.folderId);
  const lowest = Math.min(...body.participants.map((participant) => participant.signingOrder ?? 1));
  assertMessagesLeft(ctx, body.participants.filter((participant) => (participant.signingOrder ?? 1) === lowest).length);

  const envelope = createEnvelopeRecord(ctx, body, ctx.events.apiActor(ctx.principal), { via: 'send-now' });
  ctx.store.state.envelopes.setParticipants(envelope, body.participants.map((participant) => newParticipant(participant)));
  const participantIdByRef = new Map(body.participants.map((participant, index) => [participant.ref, envelope.participants[index]!.id]));
  const registered = body.documents.map((file) => ({ ref: file.ref, ...createDocumentRecord(ctx, { envelopeId: envelope.id }, file, ctx.origin) }));
  const documentByRef = new Map(registered.map((entry) => [entry.ref, entry.document]));
  envelope.documentIds = registered.map((entry) => entry.document.documentId);

  // Kept aside, not on the documents: an upload clears a document's fields, and nothing can be checked before it.
  const pendingFields: PendingAnchorField[] = body.fields.map((field) => {
    const common = {
      id: newId(),
      documentId: documentByRef.get(field.documentRef)!.documentId,
      participantId: participantIdByRef.get(field.signatoryRef)!,
      type: field.type,
      ...(field.properties ? { properties: field.properties } : {}),
    };
    if (field.anchor) return { ...common, anchor: field.anchor, size: field.size! };
    const { x, y, width, height } = field.position!;
    return {
      ...common,
      pages: [field.pageNumber!],
      position: { x, y },
      size: field.size ?? (width !== undefined && height !== undefined ? { width, height } : DEFAULT_SIZES[field.type]),
    };
  });
  envelope.pendingAnchors = pendingFields;
  envelope.sendWhenReady = true;
  ctx.store.changed();

  const view = envelopeView(ctx.store.state, envelope);
  const participants = (view.participants as Record<string, unknown>[]).map((participant, index) => ({ ref: body.participants[index]!.ref, ...participant }));
  const documents = registered.map(({ ref, document, upload }) => ({
    ref,
    documentId: document.documentId,
    fileName: document.fileName,
    contentType: document.contentType,
    status: document.status,
    uploadUrl: upload.url,
    uploadExpiresAt: upload.expiresAt,
  }));
  return { status: 201, body: { ...view, participants, documents } };
}

export const sendNowBody = { schema: bodySchema } satisfies RequestBody;
