import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { createSentEnvelope, signAll, voidEnvelope } from '../support/envelope-flow.js';
import { useEmulator } from '../support/emulator.js';

// Two retries 100 ms and 200 ms apart: a delivery is given up after three attempts.
const emulator = useEmulator(['--webhook-retry-delays', '100,200']);
const receivers: Receiver[] = [];

afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  /** Statuses to answer, in order; after the last one, 200. */
  answers: number[];
  responseBody: string;
  waitFor(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** A real HTTP endpoint on loopback, as a customer's webhook receiver would be. */
async function startReceiver(answers: number[] = []): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(receiver.answers.shift() ?? 200, { 'content-type': 'text/plain' }).end(receiver.responseBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answers,
    responseBody: 'ok',
    async waitFor(count) {
      for (let tries = 0; tries < 200 && received.length < count; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(received.length).toBeGreaterThanOrEqual(count);
      return received;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  receivers.push(receiver);
  return receiver;
}

async function createWebhook(body: Record<string, unknown>) {
  return expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { idempotent: true, body }), 201).body;
}

async function waitForDelivery(webhookId: string, done: (delivery: any) => boolean) {
  for (let tries = 0; tries < 200; tries++) {
    const deliveries = expectStatus(await call(emulator, 'GET', `/v4/api/webhooks/${webhookId}/deliveries`), 200).body.data;
    if (deliveries.length && done(deliveries[0])) return deliveries[0];
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the delivery never reached the expected state');
}

function verify(secret: string, message: Received): any {
  return new Webhook(secret).verify(message.body, message.headers as Record<string, string>);
}

describe('webhook endpoints', () => {
  it('creates an endpoint (201) with the resource and its secret (whsec_ + 24 random bytes), shown once', async () => {
    const webhook = await createWebhook({ url: 'https://hooks.example.test/esign', events: ['ENVELOPE_COMPLETED'], isActive: true });
    expect(webhook).toMatchObject({ url: 'https://hooks.example.test/esign', events: ['ENVELOPE_COMPLETED'], isActive: true });
    expect(webhook.createdAt).toEqual(expect.any(String));
    expect(webhook.updatedAt).toEqual(expect.any(String));
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(webhook.secret.slice('whsec_'.length), 'base64')).toHaveLength(24);

    const listed = expectStatus(await call(emulator, 'GET', '/v4/api/webhooks/?limit=100'), 200).body;
    const again = listed.data.find((item: { id: string }) => item.id === webhook.id);
    expect(again).toBeDefined();
    expect(again).not.toHaveProperty('secret');
    expect(JSON.stringify(listed)).not.toContain(webhook.secret);
  });

  it('requires an Idempotency-Key, and a repeat with the same key creates no second endpoint', async () => {
    const body = { url: 'https://hooks.example.test/idem', events: ['ENVELOPE_VOIDED'], isActive: true };
    const without = await call(emulator, 'POST', '/v4/api/webhooks/', { body });
    expect(without.status).toBe(400);
    expect(without.body.error.code).toBe('IDEMPOTENCY_KEY_INVALID');
    const headers = { 'idempotency-key': 'webhook-create-once-1' };
    const first = expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { body, headers }), 201);
    const second = expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { body, headers }), 201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const listed = expectStatus(await call(emulator, 'GET', '/v4/api/webhooks/?limit=100'), 200).body;
    expect(listed.data.filter((item: { url: string }) => item.url === body.url)).toHaveLength(1);
  });

  it('a replay shows the secret only while it is the endpoint\'s current one: never after a rotation or a delete', async () => {
    const body = { url: 'https://hooks.example.test/replayed', events: ['ENVELOPE_VOIDED'], isActive: true };
    const headers = { 'idempotency-key': 'webhook-replay-secret-1' };
    const created = expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { body, headers }), 201).body;
    expect(expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { body, headers }), 201).body.secret).toBe(created.secret);
    const rotateHeaders = { 'idempotency-key': 'webhook-replay-rotate-1' };
    const rotated = expectStatus(await call(emulator, 'POST', `/v4/api/webhooks/${created.id}/rotate-secret`, { body: {}, headers: rotateHeaders }), 200).body;
    const afterRotation = expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { body, headers }), 201);
    expect(afterRotation.headers.get('idempotent-replayed')).toBe('true');
    expect(afterRotation.body).toEqual({ ...created, secret: undefined });
    expect(JSON.stringify(afterRotation.body)).not.toContain(created.secret);
    expectStatus(await call(emulator, 'DELETE', `/v4/api/webhooks/${created.id}`), 204);
    for (const [path, replayHeaders] of [['/v4/api/webhooks/', headers], [`/v4/api/webhooks/${created.id}/rotate-secret`, rotateHeaders]] as const) {
      const replay = await call(emulator, 'POST', path, { body: path.endsWith('/') ? body : {}, headers: replayHeaders });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(JSON.stringify(replay.body)).not.toMatch(/whsec_/);
    }
    expect(rotated.secret).toMatch(/^whsec_/);
  });

  it.each([
    ['url missing', { events: ['ENVELOPE_SENT'], isActive: true }, 'url'],
    ['events missing', { url: 'https://h.example.test', isActive: true }, 'events'],
    ['isActive missing', { url: 'https://h.example.test', events: ['ENVELOPE_SENT'] }, 'isActive'],
    ['events empty', { url: 'https://h.example.test', events: [], isActive: true }, 'events'],
    ['an unknown event kind', { url: 'https://h.example.test', events: ['ENVELOPE_EXPLODED'], isActive: true }, 'events[0]'],
    ['plain http to a public host', { url: 'http://hooks.example.test/x', events: ['ENVELOPE_SENT'], isActive: true }, 'url'],
    ['not a URL', { url: 'hooks', events: ['ENVELOPE_SENT'], isActive: true }, 'url'],
  ])('refuses an endpoint with %s: 400 VALIDATION_ERROR', async (_label, body, path) => {
    const answer = await call(emulator, 'POST', '/v4/api/webhooks/', { idempotent: true, body });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(answer.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain(path);
  });

  it('updates url, events and isActive with PATCH; an empty PATCH is 400, an unknown endpoint 404', async () => {
    const webhook = await createWebhook({ url: 'https://hooks.example.test/a', events: ['ENVELOPE_SENT'], isActive: true });
    const updated = expectStatus(
      await call(emulator, 'PATCH', `/v4/api/webhooks/${webhook.id}`, { body: { events: ['ENVELOPE_VOIDED', 'ENVELOPE_DECLINED'], isActive: false } }),
      200,
    ).body;
    expect(updated).toMatchObject({ id: webhook.id, url: 'https://hooks.example.test/a', events: ['ENVELOPE_VOIDED', 'ENVELOPE_DECLINED'], isActive: false });
    expect(updated).not.toHaveProperty('secret');
    expect((await call(emulator, 'PATCH', `/v4/api/webhooks/${webhook.id}`, { body: {} })).status).toBe(400);
    expect((await call(emulator, 'PATCH', `/v4/api/webhooks/${webhook.id}`, { body: { url: 'ftp://x.example.test' } })).status).toBe(400);
    const unknown = await call(emulator, 'PATCH', '/v4/api/webhooks/no-such-webhook', { body: { isActive: true } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('deletes an endpoint (204); its deliveries are gone with it', async () => {
    const webhook = await createWebhook({ url: 'https://hooks.example.test/delete', events: ['ENVELOPE_SENT'], isActive: true });
    expect((await call(emulator, 'DELETE', `/v4/api/webhooks/${webhook.id}`)).status).toBe(204);
    expect((await call(emulator, 'GET', `/v4/api/webhooks/${webhook.id}/deliveries`)).status).toBe(404);
  });
});

describe('webhook deliveries', () => {
  it('POSTs {id, type, createdAt, data: {envelope}} signed with Standard Webhooks when an envelope is voided', async () => {
    const receiver = await startReceiver();
    const webhook = await createWebhook({ url: receiver.url, events: ['ENVELOPE_VOIDED'], isActive: true });
    const envelope = await createSentEnvelope(emulator);
    await voidEnvelope(emulator, envelope.id, 'Wrong recipient');
    const [message] = await receiver.waitFor(1);
    expect(message!.headers['content-type']).toBe('application/json');
    expect(message!.headers['webhook-id']).toEqual(expect.any(String));
    expect(message!.headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(message!.headers['webhook-signature']).toMatch(/^v1,/);
    const payload = verify(webhook.secret, message!);
    expect(payload).toEqual({
      id: message!.headers['webhook-id'],
      type: 'ENVELOPE_VOIDED',
      createdAt: expect.any(String),
      data: { envelope: expect.objectContaining({ id: envelope.id, status: 'VOIDED', cancellationReason: 'Wrong recipient' }) },
    });
    // Only the subscribed kind: sending the envelope earlier delivered nothing.
    expect(receiver.received).toHaveLength(1);

    const delivery = await waitForDelivery(webhook.id, (item) => item.status === 'SUCCEEDED');
    expect(delivery).toMatchObject({ webhookId: webhook.id, eventType: 'ENVELOPE_VOIDED', eventId: payload.id, nextAttemptAt: null });
    expect(delivery.attempts).toEqual([{ at: expect.any(String), status: 200, durationMs: expect.any(Number), responseBody: 'ok' }]);
    const read = expectStatus(await call(emulator, 'GET', `/v4/api/webhooks/${webhook.id}/deliveries/${delivery.id}`), 200).body;
    expect(read).toEqual(delivery);
    const control = (await (await emulator.fetch('/_emulator/webhook-deliveries')).json()) as { data: { id: string }[] };
    expect(control.data.map((item) => item.id)).toContain(delivery.id);
  });

  it('delivers ENVELOPE_COMPLETED when the last participant signs; an inactive endpoint receives nothing', async () => {
    const receiver = await startReceiver();
    const quiet = await startReceiver();
    const webhook = await createWebhook({ url: receiver.url, events: ['ENVELOPE_COMPLETED'], isActive: true });
    await createWebhook({ url: quiet.url, events: ['ENVELOPE_COMPLETED'], isActive: false });
    const envelope = await createSentEnvelope(emulator);
    await signAll(emulator, envelope);
    const [message] = await receiver.waitFor(1);
    const payload = verify(webhook.secret, message!);
    expect(payload).toMatchObject({ type: 'ENVELOPE_COMPLETED', data: { envelope: { id: envelope.id, status: 'COMPLETED' } } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(quiet.received).toEqual([]);
  });

  it('retries a refused delivery after the configured delays with the same webhook-id (500, then 200: SUCCEEDED)', async () => {
    const receiver = await startReceiver([500]);
    receiver.responseBody = 'try again';
    const webhook = await createWebhook({ url: receiver.url, events: ['ENVELOPE_VOIDED'], isActive: true });
    await voidEnvelope(emulator, (await createSentEnvelope(emulator)).id);
    const messages = await receiver.waitFor(2);
    expect(messages[1]!.headers['webhook-id']).toBe(messages[0]!.headers['webhook-id']);
    verify(webhook.secret, messages[1]!);
    const delivery = await waitForDelivery(webhook.id, (item) => item.status === 'SUCCEEDED');
    expect(delivery.attempts.map((attempt: { status: number }) => attempt.status)).toEqual([500, 200]);
    expect(delivery.attempts[0].responseBody).toBe('try again');
    expect(Date.parse(delivery.attempts[1].at) - Date.parse(delivery.attempts[0].at)).toBeGreaterThanOrEqual(90);
  });

  it('gives a delivery up as FAILED after the last retry, recording every attempt and a truncated response body', async () => {
    const receiver = await startReceiver([500, 502, 503, 500]);
    receiver.responseBody = 'x'.repeat(5000);
    const webhook = await createWebhook({ url: receiver.url, events: ['ENVELOPE_VOIDED'], isActive: true });
    await voidEnvelope(emulator, (await createSentEnvelope(emulator)).id);
    const delivery = await waitForDelivery(webhook.id, (item) => item.status === 'FAILED');
    expect(delivery.attempts.map((attempt: { status: number }) => attempt.status)).toEqual([500, 502, 503]);
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.attempts[0].responseBody.length).toBeLessThan(1100);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(3);
  });

  it('records a connection failure as an attempt with no status and an error', async () => {
    const receiver = await startReceiver();
    const url = receiver.url;
    await receiver.close();
    receivers.splice(receivers.indexOf(receiver), 1);
    const webhook = await createWebhook({ url, events: ['ENVELOPE_VOIDED'], isActive: true });
    await voidEnvelope(emulator, (await createSentEnvelope(emulator)).id);
    const delivery = await waitForDelivery(webhook.id, (item) => item.status === 'FAILED');
    expect(delivery.attempts).toHaveLength(3);
    expect(delivery.attempts[0]).toMatchObject({ status: null, error: expect.any(String) });
  });

  it('resends a delivery: a new attempt now, answered 200 with the delivery and that attempt recorded', async () => {
    const receiver = await startReceiver([500, 500, 500]);
    const webhook = await createWebhook({ url: receiver.url, events: ['ENVELOPE_VOIDED'], isActive: true });
    await voidEnvelope(emulator, (await createSentEnvelope(emulator)).id);
    const failed = await waitForDelivery(webhook.id, (item) => item.status === 'FAILED');
    const resent = expectStatus(await call(emulator, 'POST', `/v4/api/webhooks/${webhook.id}/deliveries/${failed.id}/resend`), 200).body;
    expect(resent).toMatchObject({ id: failed.id, status: 'SUCCEEDED' });
    expect(resent.attempts.map((attempt: { status: number }) => attempt.status)).toEqual([500, 500, 500, 200]);
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received[3]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id']);
    const unknown = await call(emulator, 'POST', `/v4/api/webhooks/${webhook.id}/deliveries/no-such-delivery/resend`);
    expect(unknown.status).toBe(404);
  });

  it('rotates the signing secret: the next delivery is signed with the new secret only', async () => {
    const receiver = await startReceiver();
    const webhook = await createWebhook({ url: receiver.url, events: ['ENVELOPE_VOIDED'], isActive: true });
    const rotated = expectStatus(await call(emulator, 'POST', `/v4/api/webhooks/${webhook.id}/rotate-secret`), 200).body;
    expect(Object.keys(rotated)).toEqual(['secret']);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(webhook.secret);
    await voidEnvelope(emulator, (await createSentEnvelope(emulator)).id);
    const [message] = await receiver.waitFor(1);
    expect(verify(rotated.secret, message!)).toMatchObject({ type: 'ENVELOPE_VOIDED' });
    expect(() => verify(webhook.secret, message!)).toThrow();
  });

  it('lists the deliveries of an endpoint newest first, paginated', async () => {
    const receiver = await startReceiver();
    const webhook = await createWebhook({ url: receiver.url, events: ['ENVELOPE_VOIDED'], isActive: true });
    const first = await createSentEnvelope(emulator, { title: 'First voided' });
    const second = await createSentEnvelope(emulator, { title: 'Second voided' });
    await voidEnvelope(emulator, first.id);
    await receiver.waitFor(1);
    await voidEnvelope(emulator, second.id);
    await receiver.waitFor(2);
    const page = expectStatus(await call(emulator, 'GET', `/v4/api/webhooks/${webhook.id}/deliveries?limit=1`), 200).body;
    expect(page.data).toHaveLength(1);
    expect(page.data[0].payload.data.envelope.id).toBe(second.id);
    const next = expectStatus(await call(emulator, 'GET', `/v4/api/webhooks/${webhook.id}/deliveries?limit=1&cursor=${page.nextCursor}`), 200).body;
    expect(next.data[0].payload.data.envelope.id).toBe(first.id);
    expect(next.nextCursor).toBeNull();
  });
});
