import { randomBytes } from 'node:crypto';
import { isLoopbackUrl } from '../../shared/loopback.js';
import type { RouteContext, RouteTable } from '../context.js';
import { fail } from '../errors.js';
import { deliveriesOf, dropDeliveriesOf } from '../delivery-index.js';
import { webhookEventTypes as eventTypes } from '../../shared/values.js';
import { paginate, paginateNewestFirst } from '../pagination.js';
import { newId, nowIso, type State } from '../store.js';
import type { DeliveryRecord, WebhookRecord } from '../records.js';
import { lazySchema, parseBody, type RequestBodies, type Zod } from '../validate.js';
import { dispatcherFor } from '../webhook-dispatcher.js';

/** HTTPS, as the contract says; plain http only to a loopback receiver, since the emulator itself runs locally. */
function isAllowedUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackUrl(raw));
}

const fields = (z: Zod) => ({
  url: z.string().max(2048).refine(isAllowedUrl, 'must be an https:// URL without credentials (http:// only on a loopback host)'),
  events: z
    .array(z.enum(eventTypes))
    .min(1)
    .transform((events) => [...new Set(events)]),
  isActive: z.boolean(),
});

/** All three are required on creation (contract, POST /v4/api/webhooks/). */
const createSchema = lazySchema((z) => z.strictObject(fields(z)));
const updateSchema = lazySchema((z) =>
  z
    .strictObject(fields(z))
    .partial()
    .refine((patch) => Object.values(patch).some((value) => value !== undefined), 'send at least one of url, events, isActive'),
);

function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Reads never carry the secret: only creation and rotation show it. */
function webhookView(webhook: WebhookRecord) {
  return { id: webhook.id, url: webhook.url, events: webhook.events, isActive: webhook.isActive, createdAt: webhook.createdAt, updatedAt: webhook.updatedAt };
}

function deliveryView(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt,
    createdAt: delivery.createdAt,
    payload: delivery.payload,
  };
}

function findWebhook({ store, params }: RouteContext): WebhookRecord {
  const webhook = store.state.webhooks[params.webhookId!];
  if (!webhook) throw fail.notFound('Webhook', params.webhookId!);
  return webhook;
}

function findDelivery(ctx: RouteContext): DeliveryRecord {
  const webhook = findWebhook(ctx);
  const delivery = ctx.store.state.deliveries[ctx.params.deliveryId!];
  if (!delivery || delivery.webhookId !== webhook.id) throw fail.notFound('Delivery', ctx.params.deliveryId!);
  return delivery;
}

/**
 * The stored answer of a webhook creation or secret rotation, as a replay (the same Idempotency-Key) shows it: with its
 * `secret` only while that is still the endpoint's current one. Once the endpoint is deleted or its secret rotated, a
 * replay never shows that secret again: it signs nothing any more, and an answer kept for retries is no place to
 * keep a secret that outlived its endpoint.
 */
export function replayedWebhookAnswer(state: State, operationId: string, params: Record<string, string>, body: string): string {
  if (operationId !== 'createWebhook' && operationId !== 'rotateWebhookSecret') return body;
  const answer = JSON.parse(body) as { id?: string; secret?: string };
  const webhookId = operationId === 'createWebhook' ? answer.id : params.webhookId;
  const current = webhookId === undefined ? undefined : state.webhooks[webhookId]?.secret;
  if (answer.secret === undefined || answer.secret === current) return body;
  const { secret: _outlived, ...rest } = answer;
  return JSON.stringify(rest);
}

export const routes: RouteTable = {
  createWebhook: async ({ store, body }) => {
    const input = parseBody(await createSchema(), body);
    const now = nowIso();
    const webhook: WebhookRecord = {
      id: newId(),
      ...input,
      secret: newSecret(),
      createdAt: now,
      updatedAt: now,
    };
    store.state.webhooks[webhook.id] = webhook;
    store.changed();
    return { status: 201, body: { ...webhookView(webhook), secret: webhook.secret } };
  },

  listWebhooks: ({ store, query }) => {
    const page = paginate(Object.values(store.state.webhooks), query);
    return { status: 200, body: { data: page.data.map(webhookView), nextCursor: page.nextCursor } };
  },

  updateWebhook: async (ctx) => {
    const webhook = findWebhook(ctx);
    const patch = parseBody(await updateSchema(), ctx.body);
    if (patch.url !== undefined) webhook.url = patch.url;
    if (patch.events !== undefined) webhook.events = patch.events;
    if (patch.isActive !== undefined) webhook.isActive = patch.isActive;
    webhook.updatedAt = nowIso();
    ctx.store.changed();
    return { status: 200, body: webhookView(webhook) };
  },

  deleteWebhook: (ctx) => {
    const webhook = findWebhook(ctx);
    const { state } = ctx.store;
    delete state.webhooks[webhook.id];
    dropDeliveriesOf(state, webhook.id);
    ctx.store.changed();
    return { status: 204 };
  },

  listWebhookDeliveries: (ctx) => {
    const webhook = findWebhook(ctx);
    const page = paginateNewestFirst(deliveriesOf(ctx.store.state, webhook.id), ctx.query);
    return { status: 200, body: { data: page.data.map(deliveryView), nextCursor: page.nextCursor } };
  },

  getWebhookDelivery: (ctx) => ({ status: 200, body: deliveryView(findDelivery(ctx)) }),

  /** Synchronous: the answer (200) carries the delivery with the new attempt already recorded. */
  resendWebhookDelivery: async (ctx) => {
    const delivery = findDelivery(ctx);
    await dispatcherFor(ctx.store).resend(delivery.id);
    return { status: 200, body: deliveryView(delivery) };
  },

  rotateWebhookSecret: (ctx) => {
    const webhook = findWebhook(ctx);
    webhook.secret = newSecret();
    webhook.updatedAt = nowIso();
    ctx.store.changed();
    return { status: 200, body: { secret: webhook.secret } };
  },
};

export const requestBodies: RequestBodies = {
  createWebhook: { schema: createSchema },
  updateWebhook: { schema: updateSchema },
};
