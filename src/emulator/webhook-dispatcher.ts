import { addDelivery } from './delivery-index.js';
import type { WebhookEventType } from './events.js';
import type { EmulatorOptions } from './options.js';
import { newId, nowIso, type Store } from './store.js';
import type { DeliveryAttempt, DeliveryRecord } from './records.js';

export interface WebhookDispatcher {
  emit(type: WebhookEventType, data: Record<string, unknown>): void;
  /** One more attempt now, whatever the delivery's status; resolves once it is recorded. */
  resend(deliveryId: string): Promise<DeliveryRecord>;
  stop(): void;
}

const attemptTimeoutMs = 5_000;
const responseBodyLimit = 1_024;

/** Route handlers reach the dispatcher of their emulator through its store (RouteContext carries no dispatcher). */
const dispatchers = new WeakMap<Store, WebhookDispatcher>();

export function dispatcherFor(store: Store): WebhookDispatcher {
  const dispatcher = dispatchers.get(store);
  if (!dispatcher) throw new Error('no webhook dispatcher for this store');
  return dispatcher;
}

/**
 * Real HTTP deliveries, signed the Standard Webhooks way. The `webhook-id` is the event id, the same on every retry
 * and resend, so a receiver can drop duplicates. The secret is read at each attempt, so a rotation applies to the next
 * attempt. Retries follow `options.webhookRetryDelaysMs`; after the last one the delivery is FAILED.
 */
export function createWebhookDispatcher(store: Store, options: EmulatorOptions): WebhookDispatcher {
  const timers = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<AbortController>();
  let stopped = false;

  function findDelivery(deliveryId: string): DeliveryRecord | undefined {
    return store.state.deliveries[deliveryId];
  }

  async function attempt(delivery: DeliveryRecord): Promise<boolean> {
    const webhook = store.state.webhooks[delivery.webhookId];
    const started = Date.now();
    const record: DeliveryAttempt = { at: new Date(started).toISOString(), status: null, durationMs: 0 };
    if (!webhook) {
      record.error = 'The webhook endpoint was deleted.';
      delivery.attempts.push(record);
      return false;
    }
    const payload = JSON.stringify(delivery.payload);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error(`no answer within ${attemptTimeoutMs} ms`)), attemptTimeoutMs);
    inFlight.add(controller);
    try {
      const { Webhook } = await import('standardwebhooks');
      const signedAt = new Date();
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'esign-emulator-webhooks',
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
          'webhook-signature': new Webhook(webhook.secret).sign(delivery.eventId, signedAt, payload),
        },
        body: payload,
        redirect: 'manual',
        signal: controller.signal,
      });
      record.status = response.status;
      const text = await response.text();
      record.responseBody = text.length > responseBodyLimit ? `${text.slice(0, responseBodyLimit)}…` : text;
      return response.status >= 200 && response.status < 300;
    } catch (error) {
      const cause = (error as { cause?: Error }).cause;
      record.error = controller.signal.aborted ? String((controller.signal.reason as Error).message) : (cause?.message ?? (error as Error).message);
      return false;
    } finally {
      clearTimeout(timer);
      inFlight.delete(controller);
      record.durationMs = Date.now() - started;
      delivery.attempts.push(record);
      store.changed();
    }
  }

  /** An automatic attempt: on failure the next retry is scheduled, or the delivery is given up. */
  async function run(deliveryId: string): Promise<void> {
    timers.delete(deliveryId);
    const delivery = findDelivery(deliveryId);
    if (!delivery || stopped) return;
    const succeeded = await attempt(delivery);
    if (stopped || findDelivery(deliveryId) !== delivery) return;
    if (succeeded) {
      delivery.status = 'SUCCEEDED';
      delivery.nextAttemptAt = null;
    } else {
      const delay = options.webhookRetryDelaysMs[delivery.attempts.length - 1];
      if (delay === undefined) {
        delivery.status = 'FAILED';
        delivery.nextAttemptAt = null;
      } else {
        delivery.nextAttemptAt = new Date(Date.now() + delay).toISOString();
        schedule(deliveryId, delay);
      }
    }
    store.changed();
  }

  function schedule(deliveryId: string, delayMs: number): void {
    clearTimeout(timers.get(deliveryId));
    const timer = setTimeout(() => void run(deliveryId), Math.max(0, delayMs));
    timer.unref();
    timers.set(deliveryId, timer);
  }

  // Deliveries still pending in a restored state pick up their schedule where it stopped.
  for (const delivery of Object.values(store.state.deliveries)) {
    if (delivery.status === 'PENDING') schedule(delivery.id, delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) - Date.now() : 0);
  }

  const dispatcher: WebhookDispatcher = {
    emit(type, data) {
      const eventId = newId();
      const createdAt = nowIso();
      for (const webhook of Object.values(store.state.webhooks)) {
        if (!webhook.isActive || !webhook.events.includes(type)) continue;
        const delivery: DeliveryRecord = {
          id: newId(),
          webhookId: webhook.id,
          eventId,
          eventType: type,
          payload: { id: eventId, type, createdAt, data },
          status: 'PENDING',
          attempts: [],
          nextAttemptAt: createdAt,
          createdAt,
        };
        addDelivery(store.state, delivery);
        schedule(delivery.id, 0);
      }
      store.changed();
    },

    async resend(deliveryId) {
      const delivery = findDelivery(deliveryId);
      if (!delivery) throw new Error(`no delivery ${deliveryId}`);
      if (delivery.status === 'PENDING') {
        // A retry was due anyway: this is it, brought forward, and the schedule goes on from there.
        clearTimeout(timers.get(deliveryId));
        await run(deliveryId);
        return delivery;
      }
      const succeeded = await attempt(delivery);
      delivery.status = succeeded ? 'SUCCEEDED' : 'FAILED';
      store.changed();
      return delivery;
    },

    stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      for (const controller of inFlight) controller.abort(new Error('the emulator stopped'));
    },
  };
  dispatchers.set(store, dispatcher);
  return dispatcher;
}
