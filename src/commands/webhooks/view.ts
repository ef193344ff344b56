import { UsageError } from '../../core/errors.js';
import { isLoopbackUrl } from '../../shared/loopback.js';
import { webhookEventTypes } from '../../shared/values.js';
import type { Context } from '../../cli/command.js';
import { absoluteTime } from '../../output/envelope-view.js';
import { cell, renderRecord } from '../../output/record.js';
import { terminalJson, visible } from '../../output/sanitize.js';
import type { Column } from '../../output/table.js';

export interface WebhookBody {
  id: string;
  url?: string;
  events?: string[];
  isActive?: boolean;
  createdAt?: string;
  updatedAt?: string;
}

export interface DeliveryAttempt {
  at?: string;
  status?: number | null;
  error?: string;
  durationMs?: number;
  responseBody?: string;
}

export interface DeliveryBody {
  id: string;
  eventId?: string;
  eventType?: string;
  status?: string;
  attempts?: DeliveryAttempt[];
  nextAttemptAt?: string | null;
  createdAt?: string;
  payload?: unknown;
}

/**
 * `--events`: kinds of the one shared list (the emulator accepts the same), checked here so that a typo is not sent
 * to the service for a 400 (create, update), or made into a listener that skips every delivery (listen).
 */
export function parseEvents(value: string): string[] {
  const events = [...new Set(value.split(',').map((event) => event.trim().toUpperCase()).filter(Boolean))];
  if (events.length === 0) throw new Error(`expected a comma-separated list, e.g. ENVELOPE_COMPLETED,ENVELOPE_VOIDED.`);
  const unknown = events.filter((event) => !(webhookEventTypes as readonly string[]).includes(event));
  if (unknown.length) throw new Error(`${unknown.join(', ')} ${unknown.length === 1 ? 'is not an event kind' : 'are not event kinds'} (known: ${webhookEventTypes.join(', ')}).`);
  return events;
}

/** An http(s) URL without credentials, or a usage error that says which flag and what to give. */
export function parseHttpUrl(raw: string, flag: string, example: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${flag} ${JSON.stringify(raw)} is not a URL.`, `Give the full address, e.g. ${example}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${flag} must be an http:// or https:// URL.`, `For example ${example}.`);
  if (url.username || url.password) throw new UsageError(`${flag} must not carry a user name or password.`);
  return url;
}

/** HTTPS, or plain http to this machine (a local receiver such as `esign webhooks listen`). */
export function checkEndpointUrl(raw: string, flag: string): string {
  const url = parseHttpUrl(raw, flag, 'https://hooks.example.com/esign');
  if (url.protocol !== 'https:' && !isLoopbackUrl(url.href)) {
    throw new UsageError(`${flag} must be an https:// URL (plain http:// only to localhost).`, 'Deliveries carry envelope data: the contract requires HTTPS.');
  }
  return url.href;
}

export const webhookColumns: readonly Column<WebhookBody>[] = [
  { header: 'ID', value: (webhook) => webhook.id },
  { header: 'URL', value: (webhook) => cell(webhook.url), freeText: true, wrap: true },
  { header: 'EVENTS', value: (webhook) => cell(webhook.events), freeText: true, wrap: true },
  { header: 'ACTIVE', value: (webhook) => cell(webhook.isActive) },
];

export const renderWebhook = (webhook: WebhookBody): string => renderRecord({ ...webhook }, { isActive: 'Active' });

export const deliveryColumns: readonly Column<DeliveryBody>[] = [
  { header: 'ID', value: (delivery) => delivery.id },
  { header: 'EVENT', value: (delivery) => cell(delivery.eventType) },
  { header: 'STATUS', value: (delivery) => cell(delivery.status) },
  { header: 'ATTEMPTS', value: (delivery) => String(delivery.attempts?.length ?? 0), dropOrder: 2 },
  { header: 'LAST ANSWER', value: (delivery) => lastAnswer(delivery), freeText: true },
  { header: 'CREATED', value: (delivery) => (delivery.createdAt ? absoluteTime(delivery.createdAt) : '-'), dropOrder: 1 },
];

function lastAnswer(delivery: DeliveryBody): string {
  const last = delivery.attempts?.at(-1);
  if (!last) return '-';
  return last.status === null || last.status === undefined ? (last.error ?? 'no answer') : String(last.status);
}

/** The payload's envelope, in the pinned delivery body `{id, type, createdAt, data: {envelope}}`. */
export function deliveredEnvelope(payload: unknown): { id?: string; status?: string; cancellationReason?: string } | undefined {
  const data = (payload as { data?: { envelope?: unknown } } | undefined)?.data;
  return data?.envelope as { id?: string; status?: string; cancellationReason?: string } | undefined;
}

export function renderDelivery(delivery: DeliveryBody): string {
  const envelope = deliveredEnvelope(delivery.payload);
  const head = renderRecord({
    id: delivery.id,
    event: `${delivery.eventType ?? '?'} (webhook-id ${delivery.eventId ?? '?'})`,
    envelope: envelope ? `${envelope.id ?? '?'} · ${envelope.status ?? '?'}${envelope.cancellationReason ? ` · ${envelope.cancellationReason}` : ''}` : '-',
    status: delivery.status,
    nextAttemptAt: delivery.nextAttemptAt,
    createdAt: delivery.createdAt,
  });
  // A receiver's answer is a stranger's text: each part is shown with its control characters made visible.
  const attempts = (delivery.attempts ?? []).map(
    (attempt, index) =>
      `  ${index + 1}. ${visible(`${attempt.at ?? '?'}  ${attempt.status ?? 'no answer'}  ${attempt.durationMs ?? '?'} ms${attempt.error ? `  ${attempt.error}` : ''}`)}${attempt.responseBody ? `\n     response: ${visible(attempt.responseBody)}` : ''}`,
  );
  return `${head}\nAttempts:\n${attempts.length ? attempts.join('\n') : '  none yet'}\nRequest body:\n${terminalJson(delivery.payload ?? null, 2)}`;
}

export interface StoredSecret {
  /** Where it is kept, as a sentence for the warning beside the secret. */
  stored: string;
  /** Why it could not be stored: thrown once the secret is shown, which the service will not give again. */
  failure?: Error;
}

/**
 * Stores a new signing secret where `webhooks listen --endpoint` finds it. The service has already made it: a secret
 * that cannot be stored (a full disk) is still shown once, said to be unstored, and the command then fails.
 */
export async function storeWebhookSecret(ctx: Context, webhookId: string, secret: string): Promise<StoredSecret> {
  const { credentialStore } = await import('../../auth/credential-store.js');
  try {
    const saved = await credentialStore.save({ webhookId }, secret);
    const where = saved.storage === 'keychain' ? 'the system keychain' : `${saved.path} (mode 0600)`;
    if (saved.keychainError) ctx.output.debug(`keychain not used for the webhook secret: ${saved.keychainError}`);
    return { stored: `it is stored in ${where} for \`esign webhooks listen --endpoint ${webhookId}\`.` };
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    error.message = `The new signing secret of webhook endpoint ${webhookId} (shown above) is not stored: ${error.message}`;
    return { stored: `it could NOT be stored (see below): keep it now, and give it to \`esign webhooks listen --secret-stdin\`.`, failure: error };
  }
}

/**
 * Forgets the stored secret of an endpoint the service has deleted; a failure says the endpoint is gone all the same.
 */
export async function forgetWebhookSecret(webhookId: string): Promise<void> {
  const { credentialStore } = await import('../../auth/credential-store.js');
  try {
    await credentialStore.forget({ webhookId });
  } catch (error) {
    if (error instanceof Error) error.message = `Webhook endpoint ${webhookId} was deleted, but its stored signing secret could not be removed: ${error.message}`;
    throw error;
  }
}
