import type { RouteContext, RouteTable } from '../context.js';
import { fail } from '../errors.js';
import {
  assertSendable,
  assertStatus,
  createEnvelopeRecord,
  expireDueEnvelopes,
  findEnvelope,
  markSent,
  REASON_MAX,
  resolveFolder,
  settingsShape,
  voidEnvelopeRecord,
} from '../lifecycle.js';
import { cursorPosition, pageLimit, paginate, positionCursor } from '../pagination.js';
import { discardDocumentBytes } from '../document-bytes.js';
import { signAddress } from '../signing.js';
import { envelopeStatuses, type EnvelopeStatus } from '../../shared/values.js';
import { lazySchema, parseBody, type RequestBodies, type RequestBody } from '../validate.js';
import { envelopeView } from '../views.js';
import { sendNow, sendNowBody } from '../send-now.js';
import { historyOf } from '../events.js';

const createSchema = lazySchema((z) => {
  const settings = settingsShape(z);
  return z.strictObject({ title: settings.title.optional(), message: settings.message.optional(), deadline: settings.deadline.optional(), folderId: settings.folderId.optional() });
});

const settingsSchema = lazySchema((z) => {
  const settings = settingsShape(z);
  return z
    .strictObject({ title: settings.title.optional(), message: settings.message.optional(), deadline: settings.deadline.optional() })
    .refine((body) => Object.keys(body).length > 0, 'give at least one of title, message, deadline');
});

/** A create that would otherwise make something out of nothing: a request without a body is refused. */
const createBody = { schema: createSchema, required: true } satisfies RequestBody;
const emptySchema = lazySchema((z) => z.strictObject({}));
const voidSchema = lazySchema((z) => z.strictObject({ reason: z.string().trim().min(1).max(REASON_MAX) }));
const moveSchema = lazySchema((z) => z.strictObject({ folderId: z.string().min(1) }));

function view(ctx: RouteContext, envelopeId: string) {
  return envelopeView(ctx.store.state, findEnvelope(ctx, envelopeId));
}

export const routes: RouteTable = {
  createEnvelope: async (ctx) => {
    const body = parseBody(await createBody.schema(), ctx.body, createBody);
    const envelope = createEnvelopeRecord(ctx, body, ctx.events.apiActor(ctx.principal));
    return { status: 201, body: envelopeView(ctx.store.state, envelope) };
  },

  listEnvelopes: (ctx) => {
    const { status, folderId } = ctx.query;
    if (status !== undefined && !(envelopeStatuses as readonly string[]).includes(status)) {
      throw fail.validation(`\`status\` must be one of ${envelopeStatuses.join(', ')}.`, { parameter: 'status' });
    }
    const limit = pageLimit(ctx.query);
    const after = cursorPosition(ctx.query);
    expireDueEnvelopes(ctx);
    const { envelopes } = ctx.store.state;
    const page = envelopes.page({ status: status as EnvelopeStatus | undefined, folderId }, after, limit);
    const last = page.items.at(-1);
    return {
      status: 200,
      body: { data: page.items.map((envelope) => envelopeView(ctx.store.state, envelope)), nextCursor: page.more && last ? positionCursor(envelopes.positionOf(last)) : null },
    };
  },

  getEnvelope: (ctx) => ({ status: 200, body: view(ctx, ctx.params.envelopeId!) }),

  /** Title, message and deadline can change while the envelope is DRAFT or SENT; an ended envelope is frozen. */
  updateEnvelopeSettings: async (ctx) => {
    const body = parseBody(await settingsSchema(), ctx.body);
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    assertStatus(envelope, ['DRAFT', 'SENT'], 'ENVELOPE_NOT_EDITABLE', 'change the settings');
    if (body.title !== undefined) envelope.title = body.title;
    if (body.message !== undefined) envelope.message = body.message;
    if (body.deadline !== undefined) {
      envelope.deadline = body.deadline;
      ctx.store.state.envelopes.deadlineChanged(envelope);
    }
    ctx.events.history(envelope, 'SETTINGS_UPDATED', ctx.events.apiActor(ctx.principal), { changed: Object.keys(body) });
    return { status: 200, body: envelopeView(ctx.store.state, envelope) };
  },

  deleteEnvelope: async (ctx) => {
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    assertStatus(envelope, ['DRAFT'], 'ENVELOPE_NOT_DRAFT', 'delete the envelope (only a draft can be deleted; void a sent one)');
    const { state } = ctx.store;
    // Records first, in one turn: requests arriving while the bytes are removed find no half-deleted envelope.
    for (const documentId of envelope.documentIds) state.documents.delete(documentId);
    state.envelopes.delete(envelope);
    ctx.store.changed();
    for (const documentId of envelope.documentIds) await discardDocumentBytes(ctx.store, documentId);
    return { status: 204 };
  },

  sendEnvelope: async (ctx) => {
    parseBody(await emptySchema(), ctx.body);
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    assertSendable(ctx, envelope);
    markSent(ctx, envelope, ctx.events.apiActor(ctx.principal));
    return { status: 200, body: envelopeView(ctx.store.state, envelope) };
  },

  sendNow,

  /** Only a SENT envelope is voided: a draft is deleted instead, an ended envelope stays as it ended. */
  voidEnvelope: async (ctx) => {
    const { reason } = parseBody(await voidSchema(), ctx.body);
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    assertStatus(envelope, ['SENT'], 'ENVELOPE_NOT_SENT', 'void the envelope (delete a draft instead)');
    voidEnvelopeRecord(ctx, envelope, reason, ctx.events.apiActor(ctx.principal));
    return { status: 200, body: envelopeView(ctx.store.state, envelope) };
  },

  getEnvelopeHistory: (ctx) => ({ status: 200, body: paginate(historyOf(findEnvelope(ctx, ctx.params.envelopeId!)), ctx.query) }),

  getEnvelopeDownload: (ctx) => {
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    return { status: 200, body: signAddress(ctx.origin, `/_files/envelopes/${envelope.id}.zip`, ctx.options.signedAddressTtlMs) };
  },

  moveEnvelope: async (ctx) => {
    const { folderId } = parseBody(await moveSchema(), ctx.body);
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    const folder = resolveFolder(ctx.store.state, folderId);
    const from = envelope.folderId;
    ctx.store.state.envelopes.setFolder(envelope, folder.id);
    ctx.events.history(envelope, 'ENVELOPE_MOVED', ctx.events.apiActor(ctx.principal), { fromFolderId: from, toFolderId: folder.id });
    return { status: 200, body: envelopeView(ctx.store.state, envelope) };
  },
};

export const requestBodies: RequestBodies = {
  createEnvelope: createBody,
  sendNow: sendNowBody,
  updateEnvelopeSettings: { schema: settingsSchema },
  sendEnvelope: { schema: emptySchema },
  voidEnvelope: { schema: voidSchema },
  moveEnvelope: { schema: moveSchema },
};
