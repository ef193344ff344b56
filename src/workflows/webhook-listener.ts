import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { isUtf8 } from 'node:buffer';
import { crypto } from '../shared/crypto.js';
import type { AddressInfo } from 'node:net';
import { drain, HttpPool } from '../api/http.js';
import { holdYoungGeneration } from '../core/young-generation.js';

export interface ListenerEvent {
  kind: 'delivery' | 'rejected' | 'skipped';
  /** When it arrived. */
  at: string;
  /** The `webhook-id` header: the event id, the same on a retry or a resend. */
  webhookId: string | null;
  type?: string;
  envelopeId?: string;
  status?: string;
  cancellationReason?: string;
  verified: boolean;
  /** What the listener answered the sender. */
  answer: number;
  /** Why it was rejected, or why the forward failed. */
  problem?: string;
  forward?: { url: string; status?: number; error?: string };
}

export interface ListenerOptions {
  port: number;
  secret: string;
  forwardTo?: URL;
  /** Only these kinds are printed and forwarded; others are acknowledged and skipped. */
  events?: readonly string[];
  onEvent(event: ListenerEvent): void | Promise<void>;
  /** A delivery that failed after (or before) it was answered, e.g. while it was being reported: never lost silently. */
  onError(error: unknown): void;
  /** `--timeout`: the forward has the deadlines of every request esign makes (src/api/attempt.ts). */
  forwardTimeoutMs: number;
}

export interface Listener {
  url: string;
  close(): Promise<void>;
}

const bodyLimitBytes = 1024 * 1024;
/**
 * Sent with every forward, with a value known only to this listener: a request that carries it came back from its own
 * forward (a --forward-to that leads to the listener, however it is spelt), and is refused instead of forwarded again.
 */
const ownForwardHeader = 'esign-listener-hop';

/**
 * Whether a forward target is this listener, on 127.0.0.1:port, by any spelling of this machine's address a request
 * would reach it by (localhost, 127.0.0.1, [::1], 0.0.0.0, [::], [::ffff:127.0.0.1]; the URL parser has already turned
 * 127.1 or 0x7f000001 into 127.0.0.1).
 */
export function reachesListener(target: URL, port: number): boolean {
  const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return targetPort === port && ['localhost', '127.0.0.1', '0.0.0.0', '::1', '::', '::ffff:7f00:1'].includes(host);
}

/** Headers that describe one hop, not the delivery: the forward makes its own. */
const hopHeaders = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade', 'proxy-connection']);

/** The library's reasons, said so a person knows what to check. */
function explain(message: string): string {
  if (/missing required headers/i.test(message)) return 'missing webhook-id, webhook-timestamp or webhook-signature header';
  if (/too old/i.test(message)) return 'stale timestamp: signed more than 5 minutes ago (a replay, or a clock out of sync)';
  if (/too new/i.test(message)) return 'timestamp more than 5 minutes in the future (a clock out of sync)';
  if (/invalid signature headers/i.test(message)) return 'webhook-timestamp is not a number of seconds';
  if (/no matching signature/i.test(message)) return 'signature does not match: a different secret, or the body was changed on the way';
  return message;
}

function singleHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > bodyLimitBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A member of a parsed body that may be anything: an array, a number, null. */
function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

/** A delivery's field as the event's text: a string as it is, any other value present as its JSON, so a line shows it. */
function shown<Name extends string>(name: Name, value: unknown): Partial<Record<Name, string>> {
  if (value === undefined || value === null || value === '') return {};
  return { [name]: typeof value === 'string' ? value : JSON.stringify(value) } as Partial<Record<Name, string>>;
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * A local receiver of Standard Webhooks deliveries, like `stripe listen`: each delivery's signature and timestamp are
 * checked before anything else; a verified one is forwarded with its original headers and body bytes, and the sender
 * gets 2xx only once the forward target said 2xx (else 502, so the sender retries).
 */
export async function startWebhookListener(options: ListenerOptions): Promise<Listener> {
  const { Webhook } = await import('standardwebhooks');
  const verifier = new Webhook(options.secret);
  const ownForwardToken = crypto().randomUUID();
  // The pool honours the proxy variables as every other request does; a loopback target stays direct.
  const forwards = new HttpPool(options.forwardTimeoutMs);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const at = new Date().toISOString();
    const headers = singleHeaders(request.headers);
    const base = { at, webhookId: headers['webhook-id'] ?? null, verified: false };
    const reject = async (status: number, problem: string, code = status === 400 ? 'WEBHOOK_SIGNATURE_INVALID' : 'DELIVERY_REFUSED') => {
      answer(response, status, { error: { code, message: problem } });
      await options.onEvent({ ...base, kind: 'rejected', answer: status, problem });
    };
    if (request.method !== 'POST') return reject(405, `method ${request.method ?? '?'} (deliveries are POSTs)`);
    if (headers[ownForwardHeader] === ownForwardToken) return reject(508, 'this request is the listener\'s own forward: --forward-to leads back to the listener');
    const body = await readBody(request);
    if (!body) return reject(413, `body larger than ${bodyLimitBytes} bytes`);
    // A delivery is JSON, which is UTF-8; the library reads the body as UTF-8 text before it signs, so over other
    // bytes it can only say the signature does not match, which would send the person after the wrong secret.
    if (!isUtf8(body)) return reject(400, 'the body is not UTF-8 text, as a JSON delivery is; its signature was not checked', 'DELIVERY_NOT_UTF8');
    try {
      verifier.verify(body, headers, { jsonParse: false });
    } catch (error) {
      return reject(400, explain((error as Error).message));
    }
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch (error) {
      const problem = `the signature is valid, but the body is not JSON (${(error as Error).message})`;
      answer(response, 400, { error: { code: 'DELIVERY_NOT_JSON', message: problem } });
      await options.onEvent({ ...base, verified: true, kind: 'rejected', answer: 400, problem });
      return;
    }
    const envelope = field(field(payload, 'data'), 'envelope');
    const event = {
      ...base,
      verified: true,
      ...shown('type', field(payload, 'type')),
      ...shown('envelopeId', field(envelope, 'id')),
      ...shown('status', field(envelope, 'status')),
      ...shown('cancellationReason', field(envelope, 'cancellationReason')),
    };
    if (options.events && !options.events.includes(event.type ?? '')) {
      answer(response, 200, { received: true, skipped: true });
      await options.onEvent({ ...event, kind: 'skipped', answer: 200 });
      return;
    }
    if (!options.forwardTo) {
      answer(response, 200, { received: true });
      await options.onEvent({ ...event, kind: 'delivery', answer: 200 });
      return;
    }
    const forward: NonNullable<ListenerEvent['forward']> = { url: options.forwardTo.href };
    try {
      const forwarded = await forwards.request(options.forwardTo, {
        method: 'POST',
        headers: {
          ...Object.fromEntries(Object.entries(headers).filter(([name]) => !hopHeaders.has(name))),
          [ownForwardHeader]: ownForwardToken,
          'content-length': String(body.length),
        },
        body,
      });
      // Only the status decides; the rest is read (so far) to keep the connection, and never followed if a redirect.
      await drain(forwarded.body);
      forward.status = forwarded.statusCode;
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      forward.error = code?.endsWith('TIMEOUT') || code === 'BODY_TOO_SLOW' ? 'no answer in time' : (code ?? message);
    }
    const ok = forward.status !== undefined && forward.status >= 200 && forward.status < 300;
    if (ok) answer(response, 200, { received: true, forwarded: forward.status });
    else answer(response, 502, { error: { code: 'FORWARD_FAILED', message: `the forward target answered ${forward.status ?? forward.error}` } });
    await options.onEvent({
      ...event,
      kind: 'delivery',
      answer: ok ? 200 : 502,
      forward,
      ...(ok ? {} : { problem: `forward to ${forward.url} failed: ${forward.status ?? forward.error}` }),
    });
  }

  const server = createServer((request, response) => {
    handle(request, response)
      .catch((error: unknown) => {
        if (!response.headersSent) answer(response, 500, { error: { code: 'LISTENER_ERROR', message: (error as Error).message } });
        options.onError(error);
      })
      .finally(holdYoungGeneration);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        forwards.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
