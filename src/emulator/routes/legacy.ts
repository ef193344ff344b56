import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerCredential } from '../authorization.js';
import { ApiFailure, fail } from '../errors.js';
import { addDocumentId, assertEnvelopeQuota, assertMessagesLeft, checkDeliveryAddress, createEnvelopeRecord, deliveryShape, newParticipant, resolveFolder, settingsShape, type Actor } from '../lifecycle.js';
import type { LifecycleDeps } from '../context.js';
import { createDocumentRecord, DOCUMENT_CONTENT_TYPES } from '../processing.js';
import { DOCUMENT_ID_HEADER } from '../signing.js';
import { newId, type State } from '../store.js';
import type { PendingAnchorField } from '../records.js';
import { lazySchema, parseBody, type RequestBodies } from '../validate.js';

const MESSAGE_MAX = 500;
const DEFAULT_DEADLINE_MS = 7 * 24 * 60 * 60 * 1000;
const FIELD_TYPES = ['SIGNATURE', 'INITIALS', 'TEXT'];
/** A session token as the emulator accepts it; an API key (`<prefix>_test_...`) is not one. */
const sessionTokenPattern = /^sess_\S{16,}$/;

/**
 * The body rules of the contract's "Legacy: POST /v2/envelopes/". Field `type` and the two references are plain
 * strings here: they get their own error codes (INVALID_FIELD_TYPE, INVALID_FIELD_LINKING) below.
 */
const createSchema = lazySchema((z) => {
  const settings = settingsShape(z);
  const delivery = deliveryShape(z);
  const id = z.string().min(1).max(128);
  return z.strictObject({
    title: settings.title.optional(),
    folderId: settings.folderId.optional(),
    deadline: settings.deadline.optional(),
    message: z.string().max(MESSAGE_MAX).optional(),
    documents: z
      .array(z.strictObject({ id, fileName: z.string().trim().min(1).max(255), contentType: z.enum(DOCUMENT_CONTENT_TYPES) }))
      .min(1)
      .refine((documents) => new Set(documents.map((document) => document.id)).size === documents.length, 'document ids must be unique'),
    signatories: z
      .array(
        z.strictObject({
          id,
          name: delivery.name,
          email: delivery.email,
          qualification: z.string().trim().min(1).max(100),
          authMethod: delivery.deliveryMethod,
          phoneNumber: delivery.phoneNumber,
          signingOrder: z.number().int().min(1).max(1000).optional(),
        }),
      )
      .min(1)
      .refine((signatories) => new Set(signatories.map((signatory) => signatory.id)).size === signatories.length, 'signatory ids must be unique'),
    observers: z
      .array(z.strictObject({ email: delivery.email, notifyOnSent: z.boolean().default(false), notifyOnCompletion: z.boolean().default(true) }))
      .default([]),
    fields: z
      .array(
        z.strictObject({
          type: z.string(),
          documentId: z.string(),
          signatoryId: z.string(),
          pageNumber: z.number().int().min(1),
          position: z.strictObject({ x: z.number().min(0), y: z.number().min(0), width: z.number().positive(), height: z.number().positive() }),
          properties: z.strictObject({ label: z.string().max(255).optional() }).optional(),
        }),
      )
      .default([]),
  });
});

/** A /v2 session is a user's: the emulator has one user who acts, the integration's responsible user. */
function sessionActor(state: State): Actor {
  return { type: 'USER', name: state.responsibleUser.name, userId: state.responsibleUser.id, via: 'API_V2_SESSION' };
}

/** Session token, then `x-account-id`: 401 without a session token (an API key is refused), 404 for another account. */
function authenticate(request: FastifyRequest, state: State): void {
  const token = bearerCredential(request.headers.authorization, 'session token');
  if (!sessionTokenPattern.test(token)) {
    throw new ApiFailure(401, 'INVALID_SESSION_TOKEN', 'The /v2 API takes a session token, not an API key; new integrations use /v4/api with an API key.');
  }
  const accountId = request.headers['x-account-id'];
  if (typeof accountId !== 'string' || accountId === '') throw fail.validation('The header x-account-id is required on /v2.', { header: 'x-account-id' });
  if (accountId !== state.account.id) throw fail.notFound('Account', accountId);
}

/**
 * `POST /v2/envelopes/`: creates and starts an envelope in one call. Documents keep the ids the caller gave (the
 * upload's `x-emulator-meta-documentid` header carries one), signatories become participants with their own ids, and
 * the envelope is sent by the service once every document is processed, as send-now's are.
 */
export function registerLegacyRoutes(app: FastifyInstance, deps: LifecycleDeps): void {
  app.post('/v2/envelopes/', async (request, reply) => {
    const { state } = deps.store;
    authenticate(request, state);
    const body = parseBody(await createSchema(), request.body);

    const documentIds = new Set(body.documents.map((document) => document.id));
    const signatoryIds = new Set(body.signatories.map((signatory) => signatory.id));
    body.signatories.forEach((signatory, index) =>
      checkDeliveryAddress({ deliveryMethod: signatory.authMethod, phoneNumber: signatory.phoneNumber }, `signatories[${index}]`),
    );
    body.fields.forEach((field, index) => {
      if (!FIELD_TYPES.includes(field.type)) {
        throw fail.badRequest('INVALID_FIELD_TYPE', `fields[${index}].type ${JSON.stringify(field.type)} is not one of ${FIELD_TYPES.join(', ')}.`, {
          path: `fields[${index}].type`,
          allowed: FIELD_TYPES,
        });
      }
      for (const [name, known] of [['documentId', documentIds], ['signatoryId', signatoryIds]] as const) {
        if (!known.has(field[name])) {
          throw fail.badRequest('INVALID_FIELD_LINKING', `fields[${index}].${name} ${JSON.stringify(field[name])} is not among the request's ${name === 'documentId' ? 'documents' : 'signatories'}.`, {
            path: `fields[${index}].${name}`,
            value: field[name],
          });
        }
      }
    });
    if (body.folderId !== undefined) resolveFolder(state, body.folderId);
    assertEnvelopeQuota(deps);
    const firstOrder = Math.min(...body.signatories.map((signatory) => signatory.signingOrder ?? 1));
    assertMessagesLeft(deps, body.signatories.filter((signatory) => (signatory.signingOrder ?? 1) === firstOrder).length);
    const taken = body.documents.find((document) => state.documents.get(document.id));
    if (taken) throw fail.conflict('DOCUMENT_ID_TAKEN', `Document id ${JSON.stringify(taken.id)} is already used by another document; send a fresh id (a UUID).`, { documentId: taken.id });

    const actor = sessionActor(state);
    const envelope = createEnvelopeRecord(
      deps,
      {
        ...(body.title ? { title: body.title } : { title: body.documents[0]!.fileName }),
        message: body.message ?? '',
        deadline: body.deadline ?? new Date(Date.now() + DEFAULT_DEADLINE_MS).toISOString(),
        ...(body.folderId ? { folderId: body.folderId } : {}),
      },
      actor,
      { api: 'v2' },
    );
    state.envelopes.setParticipants(
      envelope,
      body.signatories.map((signatory) => ({
        ...newParticipant({ ...signatory, deliveryMethod: signatory.authMethod }),
        id: signatory.id,
      })),
    );
    envelope.observers = body.observers;
    envelope.sendWhenReady = true;

    // Placed and checked against the documents once they are processed, as send-now's fields are.
    envelope.pendingAnchors = body.fields.map(
      (field): PendingAnchorField => ({
        id: newId(),
        documentId: field.documentId,
        participantId: field.signatoryId,
        type: field.type,
        pages: [field.pageNumber],
        position: { x: field.position.x, y: field.position.y },
        size: { width: field.position.width, height: field.position.height },
        ...(field.properties ? { properties: field.properties } : {}),
      }),
    );
    const origin = `${request.protocol}://${request.headers.host}`;
    const uploadDetails = body.documents.map((requested) => {
      // Contract: the file goes to uploadUrl "with header x-<storage>-meta-documentid carrying the document id".
      const { document, upload } = createDocumentRecord(deps, { envelopeId: envelope.id }, { ...requested, documentId: requested.id }, origin, [DOCUMENT_ID_HEADER]);
      addDocumentId(envelope, document.documentId);
      return { documentId: document.documentId, fileName: document.fileName, uploadUrl: upload.url };
    });
    deps.events.history(envelope, 'PARTICIPANTS_SYNCED', actor, {
      participantIds: envelope.participants.map((participant) => participant.id),
      qualifications: Object.fromEntries(body.signatories.map((signatory) => [signatory.id, signatory.qualification])),
    });
    deps.store.changed();
    return reply.code(201).send({ envelopeId: envelope.id, uploadDetails });
  });
}

export const requestBodies: RequestBodies = {
  createEnvelopeV2: { schema: createSchema },
};
