import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus } from './support/api-call.js';
import { parseJson, runEsign, tempDir, type RunOptions } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { createSentEnvelope, signAll, voidEnvelope, waitUntil } from './support/envelope-flow.js';
import { spawnEsign } from './support/long-running.js';
import { simplePdf } from './support/pdfs.js';
import { terminalWith, tmuxBinary } from './support/terminal.js';

const emulator = useEmulator(['--webhook-retry-delays', '100,200']);
let configDir: string;

beforeAll(async () => {
  configDir = tempDir('esign-config-');
});

const env = () => ({ ...emulator.env, ESIGN_CONFIG_DIR: configDir });
const esign = (args: readonly string[], options: RunOptions = {}) => runEsign(args, { ...options, env: { ...env(), ...options.env } });
async function esignJson(args: readonly string[], options: RunOptions = {}): Promise<any> {
  const result = await esign(['--json', ...args], options);
  if (result.code !== 0) throw new Error(`esign ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return parseJson(result.stdout);
}

const storedSecrets = (): Record<string, string> => JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8'));

interface Forwarded {
  headers: IncomingHttpHeaders;
  body: string;
}

/** The app a developer would forward to: a second local server that records what reaches it. */
async function startForwardTarget(): Promise<{ url: string; received: Forwarded[]; answers: number[]; close(): Promise<void> }> {
  const received: Forwarded[] = [];
  const answers: number[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(answers.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/app/webhooks`, received, answers, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('webhooks create, list, get, update, rotate-secret, delete', () => {
  it('create prints the signing secret once with a warning and stores it 0600; reads never show it', async () => {
    const result = await esign(['--json', 'webhooks', 'create', '--url', 'https://hooks.example.com/esign', '--events', 'ENVELOPE_COMPLETED,ENVELOPE_VOIDED']);
    expect(result.code, result.stderr).toBe(0);
    const created = parseJson<any>(result.stdout);
    expect(created).toMatchObject({ url: 'https://hooks.example.com/esign', events: ['ENVELOPE_COMPLETED', 'ENVELOPE_VOIDED'], isActive: true, secret: expect.stringMatching(/^whsec_/) });
    expect(result.stderr).toMatch(/shown once and never again/);
    expect(storedSecrets()[`webhook:${created.id}`]).toBe(created.secret);
    expect(statSync(join(configDir, 'credentials.json')).mode & 0o777).toBe(0o600);

    const listed = await esign(['webhooks', 'list']);
    expect(listed.stdout).toContain(created.id);
    const shown = await esign(['webhooks', 'get', created.id]);
    expect(shown.stdout).toContain('https://hooks.example.com/esign');
    expect(listed.stdout + listed.stderr + shown.stdout + shown.stderr).not.toContain(created.secret);

    const updated = await esignJson(['webhooks', 'update', created.id, '--inactive', '--events', 'ENVELOPE_COMPLETED']);
    expect(updated).toMatchObject({ isActive: false, events: ['ENVELOPE_COMPLETED'] });
    expect((await esignJson(['webhooks', 'update', created.id, '--active'])).isActive).toBe(true);

    const rotated = await esignJson(['webhooks', 'rotate-secret', created.id]);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(storedSecrets()[`webhook:${created.id}`]).toBe(rotated.secret);
  });

  it('esign api createWebhook and rotateWebhookSecret store the new secret and print it once in full, as the webhooks commands do', async () => {
    const dir = tempDir();
    const input = join(dir, 'webhook.json');
    writeFileSync(input, JSON.stringify({ url: 'https://hooks.example.com/api', events: ['ENVELOPE_COMPLETED'], isActive: true }));
    const created = await esign(['--json', 'api', 'createWebhook', '--input', input]);
    expect(created.code, created.stderr).toBe(0);
    const endpoint = parseJson<any>(created.stdout);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{24,}={0,2}$/);
    expect(created.stderr).toMatch(/shown once and never again; it is stored in .*credentials\.json/);
    expect(storedSecrets()[`webhook:${endpoint.id}`]).toBe(endpoint.secret);

    const rotated = await esign(['api', 'POST', `/v4/api/webhooks/${endpoint.id}/rotate-secret`, '--include']);
    expect(rotated.code, rotated.stderr).toBe(0);
    const secret = /"secret": "(whsec_[^"]+)"/.exec(rotated.stdout)?.[1];
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{24,}={0,2}$/);
    expect(secret).not.toBe(endpoint.secret);
    expect(storedSecrets()[`webhook:${endpoint.id}`]).toBe(secret);

    // Deleted through esign api, the endpoint's stored secret goes too, as with `webhooks delete`.
    const deleted = await esign(['api', 'deleteWebhook', '-f', `webhookId=${endpoint.id}`]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(storedSecrets()[`webhook:${endpoint.id}`]).toBeUndefined();
  });

  it('delete confirms like envelopes void: without a terminal it needs --yes; then the stored secret goes too', async () => {
    const created = await esignJson(['webhooks', 'create', '--url', 'https://hooks.example.com/gone', '--events', 'ENVELOPE_COMPLETED', '--inactive']);
    expect(created.isActive).toBe(false);
    const refused = await esign(['webhooks', 'delete', created.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await esign(['webhooks', 'get', created.id])).code).toBe(0);

    expect((await esign(['--yes', 'webhooks', 'delete', created.id])).code).toBe(0);
    expect((await esign(['webhooks', 'get', created.id])).code).toBe(4);
    expect(storedSecrets()[`webhook:${created.id}`]).toBeUndefined();
  });

  it('refuses a non-HTTPS URL, a bad event name and a missing id without a terminal (exit 2, nothing created)', async () => {
    const before = (await esignJson(['webhooks', 'list', '--all'])).length;
    const insecure = await esign(['webhooks', 'create', '--url', 'http://hooks.example.com/x', '--events', 'ENVELOPE_COMPLETED']);
    expect(insecure.code).toBe(2);
    expect(insecure.stderr).toContain('https://');
    const badEvent = await esign(['webhooks', 'create', '--url', 'https://hooks.example.com/x', '--events', 'envelope completed']);
    expect(badEvent.code).toBe(2);
    expect(badEvent.stderr).toContain('ENVELOPE COMPLETED is not an event kind');
    // A kind outside the shared list is refused here, by every command that takes --events, naming the known kinds.
    const known = 'known: ENVELOPE_SENT, ENVELOPE_COMPLETED, ENVELOPE_VOIDED, ENVELOPE_DECLINED';
    const existing = await esignJson(['webhooks', 'create', '--url', 'https://hooks.example.com/kinds', '--events', 'ENVELOPE_COMPLETED']);
    for (const args of [
      ['webhooks', 'create', '--url', 'https://hooks.example.com/x', '--events', 'FOO'],
      ['webhooks', 'update', existing.id, '--events', 'ENVELOPE_COMPLETED,FOO'],
      ['webhooks', 'listen', '--port', '0', '--secret-stdin', '--events', 'FOO'],
    ]) {
      const refused = await esign(args, { input: `whsec_${randomBytes(24).toString('base64')}` });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`FOO is not an event kind (${known})`);
    }
    expect((await esignJson(['webhooks', 'get', existing.id])).events).toEqual(['ENVELOPE_COMPLETED']);
    const noId = await esign(['webhooks', 'rotate-secret']);
    expect(noId.code).toBe(2);
    expect(noId.stderr).toContain('<webhookId> is required without an interactive terminal');
    expect((await esignJson(['webhooks', 'list', '--all'])).length).toBe(before + 1);
  });
});

describe('webhooks listen (a verifying local receiver, like stripe listen)', () => {
  it('verifies real deliveries, forwards them with their headers, rejects tampered and stale ones, and resend repeats the webhook-id', async () => {
    const target = await startForwardTarget();
    const endpoint = await esignJson(['webhooks', 'create', '--url', 'https://placeholder.example.com/', '--events', 'ENVELOPE_COMPLETED,ENVELOPE_VOIDED']);
    const listener = spawnEsign(['webhooks', 'listen', '--port', '0', '--endpoint', endpoint.id, '--forward-to', target.url], env());
    try {
      const ready = await listener.waitForLine((line) => line.kind === 'listening', 'the listener to start');
      expect(ready).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/), forwardTo: target.url });
      expect(JSON.stringify(listener.lines) + listener.stderr()).not.toContain(endpoint.secret);
      await esignJson(['webhooks', 'update', endpoint.id, '--url', ready.url]);

      // An envelope completed through the control routes.
      const envelope = await createSentEnvelope(emulator, { title: 'Listened' });
      await signAll(emulator, envelope);
      const completed = await listener.waitForLine((line) => line.type === 'ENVELOPE_COMPLETED' && line.envelopeId === envelope.id, 'ENVELOPE_COMPLETED');
      expect(completed).toMatchObject({ kind: 'delivery', verified: true, status: 'COMPLETED', answer: 200, forward: { url: target.url, status: 200 } });
      const forwarded = target.received.find((message) => message.headers['webhook-id'] === completed.webhookId)!;
      expect(JSON.parse(forwarded.body)).toMatchObject({ id: completed.webhookId, type: 'ENVELOPE_COMPLETED', data: { envelope: { id: envelope.id } } });
      // The forward target can verify the delivery itself: same body bytes, same signature headers.
      expect(new Webhook(endpoint.secret).verify(forwarded.body, forwarded.headers as Record<string, string>)).toMatchObject({ type: 'ENVELOPE_COMPLETED' });

      // A send-now voided by a missing anchor.
      const created = expectStatus(
        await call(emulator, 'POST', '/v4/api/envelopes/send-now', {
          idempotent: true,
          body: {
            title: 'Missing anchor',
            participants: [{ ref: 'ada', name: 'Ada Signer', email: 'ada@example.test', deliveryMethod: 'EMAIL' }],
            documents: [{ ref: 'main', fileName: 'agreement.pdf', contentType: 'application/pdf' }],
            fields: [{ type: 'SIGNATURE', documentRef: 'main', signatoryRef: 'ada', anchor: { text: '{{nowhere}}' }, size: { width: 120, height: 30 } }],
          },
        }),
        201,
      ).body;
      const upload = await fetch(created.documents[0].uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: await simplePdf({ pages: [['Agreement', 'Sign here: {{sign}}']] }) });
      expect(upload.ok).toBe(true);
      const voided = await listener.waitForLine((line) => line.type === 'ENVELOPE_VOIDED' && line.envelopeId === created.id, 'ENVELOPE_VOIDED');
      expect(voided).toMatchObject({ verified: true, status: 'VOIDED', cancellationReason: expect.stringMatching(/ANCHOR_NOT_FOUND.*\{\{nowhere\}\}/) });

      // Resend: the same event again, with the same webhook-id.
      const deliveries = await esignJson(['webhooks', 'deliveries', endpoint.id, '--all']);
      const delivery = deliveries.find((item: any) => item.eventId === completed.webhookId);
      const resent = await esign(['webhooks', 'resend', endpoint.id, delivery.id]);
      expect(resent.code, resent.stderr).toBe(0);
      await waitUntil(async () => listener.lines.filter((line) => line.webhookId === completed.webhookId && line.kind === 'delivery').length, (count) => count === 2, 'the resent delivery');
      const shown = await esignJson(['webhooks', 'delivery', endpoint.id, delivery.id]);
      expect(shown.attempts.length).toBeGreaterThanOrEqual(2);
      expect(shown.attempts.every((attempt: any) => attempt.status === 200)).toBe(true);
      const human = await esign(['webhooks', 'delivery', endpoint.id, delivery.id]);
      expect(human.stdout).toMatch(/Attempts:\n {2}1\. .* 200 /);

      // Tampered: a valid signature over another body.
      const forwardsBefore = target.received.length;
      const signer = new Webhook(endpoint.secret);
      const original = JSON.stringify({ id: 'evt_tampered', type: 'ENVELOPE_COMPLETED', createdAt: new Date().toISOString(), data: { envelope: { id: 'x', status: 'COMPLETED' } } });
      const now = new Date();
      const headers = { 'content-type': 'application/json', 'webhook-id': 'evt_tampered', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signer.sign('evt_tampered', now, original) };
      const tampered = await fetch(ready.url, { method: 'POST', headers, body: original.replace('"x"', '"y"') });
      expect(tampered.status).toBe(400);
      expect((await listener.waitForLine((line) => line.webhookId === 'evt_tampered', 'the tampered line')).problem).toMatch(/signature does not match/);

      // Stale: signed ten minutes ago (replayed).
      const then = new Date(Date.now() - 10 * 60 * 1000);
      const stale = await fetch(ready.url, {
        method: 'POST',
        headers: { ...headers, 'webhook-id': 'evt_stale', 'webhook-timestamp': String(Math.floor(then.getTime() / 1000)), 'webhook-signature': signer.sign('evt_stale', then, original) },
        body: original,
      });
      expect(stale.status).toBe(400);
      expect((await listener.waitForLine((line) => line.webhookId === 'evt_stale', 'the stale line')).problem).toMatch(/stale timestamp/);
      expect(target.received.length).toBe(forwardsBefore);

      // The forward target fails: the sender gets 502, so it retries.
      target.answers.push(500);
      const fresh = new Date();
      const failing = await fetch(ready.url, {
        method: 'POST',
        headers: { ...headers, 'webhook-id': 'evt_forward', 'webhook-timestamp': String(Math.floor(fresh.getTime() / 1000)), 'webhook-signature': signer.sign('evt_forward', fresh, original) },
        body: original,
      });
      expect(failing.status).toBe(502);
      expect(await listener.waitForLine((line) => line.webhookId === 'evt_forward', 'the failed forward')).toMatchObject({ verified: true, answer: 502, forward: { status: 500 } });

      expect(await listener.stop('SIGTERM')).toBe(0);
    } finally {
      await listener.stop('SIGKILL');
      await target.close();
    }
  });

  it('resend exits 6 and says what the receiver answered when it does not accept the delivery, 0 with ✓ when it does', async () => {
    const target = await startForwardTarget();
    try {
      const endpoint = await esignJson(['webhooks', 'create', '--url', target.url, '--events', 'ENVELOPE_SENT']);
      target.answers.push(500, 500, 500);
      const envelope = await createSentEnvelope(emulator, { title: 'Resent' });
      const delivery: any = await waitUntil(
        async () => (await esignJson(['webhooks', 'deliveries', endpoint.id, '--all'])).find((item: any) => item.payload?.data?.envelope?.id === envelope.id && item.status === 'FAILED'),
        Boolean,
        'the failed delivery',
      );
      target.answers.push(500);
      const failed = await esign(['webhooks', 'resend', endpoint.id, delivery.id]);
      expect(failed.code, failed.stderr).toBe(6);
      expect(failed.stderr).toContain(`WEBHOOK_DELIVERY_FAILED: Delivery ${delivery.id} was sent again, but the receiver did not accept it: it answered 500; the delivery is FAILED.`);
      expect(failed.stdout + failed.stderr).not.toContain('✓');

      target.answers.push(500);
      const again = await esign(['--json', 'webhooks', 'resend', endpoint.id, delivery.id]);
      expect(again.code).toBe(6);
      expect(parseJson<any>(again.stdout).attempts.at(-1).status).toBe(500);
      expect(parseJson<any>(again.stderr).error).toMatchObject({ code: 'WEBHOOK_DELIVERY_FAILED', details: { deliveryId: delivery.id, attempt: { status: 500 } } });

      const accepted = await esign(['webhooks', 'resend', endpoint.id, delivery.id]);
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(accepted.stderr).toContain(`Delivery ${delivery.id} sent again: answered 200.`);
    } finally {
      await target.close();
    }
  });

  it('prints one human line per event from --secret-stdin (no warning), skips kinds outside --events, refuses a bad --forward-to, closes cleanly on SIGINT', async () => {
    const endpoint = await esignJson(['webhooks', 'create', '--url', 'https://placeholder.example.com/', '--events', 'ENVELOPE_COMPLETED']);
    const loud = await esign(['webhooks', 'listen', '--port', '0', '--secret', 'whsec_bm90IGEgcmVhbCBzZWNyZXQsIG9ubHkgZm9yIHRlc3Rz', '--forward-to', 'ftp://nope']);
    expect(loud.code).toBe(2);
    expect(loud.stderr).toContain('--forward-to must be an http');

    const { spawn } = await import('node:child_process');
    const { baseEnv, esignBin } = await import('./support/cli.js');
    const child = spawn(process.execPath, [esignBin, 'webhooks', 'listen', '--port', '0', '--secret-stdin', '--events', 'ENVELOPE_COMPLETED'], { env: baseEnv(env()), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.end(endpoint.secret);
    const url = (await waitUntil(async () => /Listening on (\S+)/.exec(stderr)?.[1], Boolean, 'the human ready line'))!;
    const signer = new Webhook(endpoint.secret);
    const send = async (type: string, id: string, envelope: Record<string, string> = { id: 'env-1', status: 'COMPLETED' }) => {
      const body = JSON.stringify({ id, type, createdAt: new Date().toISOString(), data: { envelope } });
      const at = new Date();
      return fetch(url, { method: 'POST', headers: { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signer.sign(id, at, body) }, body });
    };
    expect((await send('ENVELOPE_COMPLETED', 'evt_1')).status).toBe(200);
    expect((await send('ENVELOPE_SENT', 'evt_2')).status).toBe(200);
    await waitUntil(async () => stdout, (text) => text.includes('evt_2'), 'both lines');
    expect(stdout).toMatch(/\d\d:\d\d:\d\d {2}ENVELOPE_COMPLETED {2}env-1 {2}COMPLETED {2}verified {2}webhook-id evt_1/);
    expect(stdout).toMatch(/ENVELOPE_SENT .*skipped \(not in --events\)/);
    // Text from the delivery reaches the terminal with its control characters made visible, as any server text does.
    const hostile = { id: 'env-\u001b[2J', status: 'VOIDED\u202e', cancellationReason: 'bad\u009b31m' };
    expect((await send('ENVELOPE_COMPLETED', 'evt_3', hostile)).status).toBe(200);
    await waitUntil(async () => stdout, (text) => text.includes('evt_3'), 'the hostile line');
    expect(stdout).toContain('env-\\u001b[2J  VOIDED\\u202e  verified  reason "bad\\u009b31m"');
    expect(stdout).not.toMatch(/[\u001b\u202e\u009b]/);
    expect(stdout + stderr).not.toContain(endpoint.secret);
    expect(stderr).not.toContain('process list');
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    expect(stderr).toMatch(/Stopped \(SIGINT\): 2 delivered, 0 rejected, 1 skipped/);
  });

  it('--secret warns that it shows in the process list; a malformed secret is refused without echoing it; a missing one is asked for by flag', async () => {
    const listener = spawnEsign(['webhooks', 'listen', '--port', '0', '--secret', 'whsec_c2VjcmV0IGZvciB0ZXN0cywgMjQgYnl0ZXMgYW5kIG1vcmU='], env());
    try {
      await listener.waitForLine((line) => line.kind === 'listening', 'the listener');
      expect(listener.stderr()).toContain('--secret puts the signing secret in the process list and the shell history');
    } finally {
      expect(await listener.stop('SIGTERM')).toBe(0);
    }
    const malformed = await esign(['webhooks', 'listen', '--port', '0', '--secret', 'sk_not_a_secret_value']);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('--secret is not a signing secret');
    expect(malformed.stderr).not.toContain('sk_not_a_secret_value');
    // Not Base64 the verifying library can decode, or a key shorter than Standard Webhooks' 24 bytes: refused before
    // listening, saying what is wrong, instead of a crash or a listener that rejects every delivery.
    for (const [secret, problem] of [
      ['whsec_abc', 'is not padded Base64'],
      ['whsec_a', 'is not padded Base64'],
      ['whsec_ab', 'is not padded Base64'],
      ['whsec_a=', 'is not padded Base64'],
      ['whsec_/', 'is not padded Base64'],
      ['whsec_abcd', 'decodes to 3 bytes; a Standard Webhooks secret has at least 24'],
    ]) {
      const refused = await esign(['webhooks', 'listen', '--port', '0', '--secret-stdin'], { input: secret });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`WEBHOOK_SECRET_INVALID: --secret-stdin input is not a signing secret: it ${problem}`);
      expect(refused.stderr).not.toContain('bug in esign');
    }
    const none = await esign(['webhooks', 'listen', '--port', '0']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('pass --endpoint <id>, --secret-stdin or --secret');
    const unknown = await esign(['webhooks', 'listen', '--port', '0', '--endpoint', 'no-such-endpoint']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No signing secret stored for webhook endpoint no-such-endpoint');
  });
});

describe('webhooks listen: deliveries of any shape, and forwards that lead back to the listener', () => {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const signedPost = (url: string, id: string, body: string, headers: Record<string, string> = {}) => {
    const at = new Date();
    return fetch(url, { method: 'POST', headers: { ...headers, 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, body) }, body });
  };

  /** The listener in human mode: its stdout lines as a person sees them. */
  async function humanListener(args: readonly string[]): Promise<{ url: string; stdout(): string; stderr(): string; stop(): Promise<number | null> }> {
    const { spawn } = await import('node:child_process');
    const { baseEnv, esignBin } = await import('./support/cli.js');
    const child = spawn(process.execPath, [esignBin, 'webhooks', 'listen', '--port', '0', '--secret-stdin', ...args], { env: baseEnv(env()), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.end(secret);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const url = (await waitUntil(async () => /Listening on (\S+)/.exec(stderr)?.[1], Boolean, 'the ready line'))!;
    return { url, stdout: () => stdout, stderr: () => stderr, stop: async () => (child.kill('SIGTERM'), exited) };
  }

  it('prints a line for every verified delivery whatever the shape of its fields, and says a signed body that is not JSON is not JSON', async () => {
    const listener = await humanListener([]);
    try {
      const odd = [
        ['evt_array', JSON.stringify({ type: ['ENVELOPE_COMPLETED'], data: { envelope: { id: 'env-1', status: 'COMPLETED' } } })],
        ['evt_number', JSON.stringify({ type: 'ENVELOPE_COMPLETED', data: { envelope: { id: 5, status: { is: 'odd\u001b[2J' } } } })],
        ['evt_list', '[1,2]'],
        ['evt_null_data', JSON.stringify({ type: 7, data: null })],
      ];
      for (const [id, body] of odd) expect((await signedPost(listener.url, id!, body!)).status).toBe(200);
      const lines = await waitUntil(async () => listener.stdout(), (text) => odd.every(([id]) => text.includes(id!)), 'a line per delivery');
      expect(lines).toMatch(/\["ENVELOPE_COMPLETED"\] {2}env-1 {2}COMPLETED {2}verified {2}webhook-id evt_array/);
      expect(lines).toMatch(/ENVELOPE_COMPLETED {2}5 {2}\{"is":"odd\\u001b\[2J"\} {2}verified {2}webhook-id evt_number/);
      expect(lines).toMatch(/\? {2}- {2}- {2}verified {2}webhook-id evt_list/);
      expect(lines).toMatch(/7 {2}- {2}- {2}verified {2}webhook-id evt_null_data/);
      expect(lines).not.toMatch(/\u001b/);

      const notJson = await signedPost(listener.url, 'evt_text', 'plain text, validly signed');
      expect(notJson.status).toBe(400);
      expect(await notJson.json()).toMatchObject({ error: { code: 'DELIVERY_NOT_JSON', message: expect.stringMatching(/^the signature is valid, but the body is not JSON/) } });
      const line = await waitUntil(async () => listener.stdout(), (text) => text.includes('evt_text'), 'the not-JSON line');
      expect(line).toMatch(/rejected \(400\) {2}the signature is valid, but the body is not JSON .* {2}webhook-id evt_text/);
      expect(line).not.toMatch(/signature does not match|WEBHOOK_SIGNATURE_INVALID/);
      // Bytes that are not UTF-8: not "signature does not match", which would send the person after the wrong secret.
      const latin1 = await fetch(listener.url, { method: 'POST', headers: { 'webhook-id': 'evt_latin1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' }, body: Buffer.from('{"type":"ENVELOPE_SENT\xe9"}', 'latin1') });
      expect(latin1.status).toBe(400);
      expect(await latin1.json()).toEqual({ error: { code: 'DELIVERY_NOT_UTF8', message: 'the body is not UTF-8 text, as a JSON delivery is; its signature was not checked' } });
      expect(listener.stderr()).not.toMatch(/could not be handled/);
    } finally {
      expect(await listener.stop()).toBe(0);
    }
  });

  it('refuses a --forward-to that is the listener itself in any spelling (exit 2), and never forwards its own forward again', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    for (const target of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/hooks`, `http://[::1]:${port}/`, `http://127.1:${port}/`, `http://0.0.0.0:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`]) {
      const refused = await esign(['webhooks', 'listen', '--port', String(port), '--secret-stdin', '--forward-to', target], { input: secret });
      expect(refused.code, `${target}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr).toContain(`FORWARD_TO_LISTENER: --forward-to "${target}" is the listener itself (127.0.0.1:${port})`);
    }

    // A forward target that sends every request back to the listener (a proxy, a tunnel): one round, not an endless one.
    let bounced = 0;
    let listenerUrl = '';
    const bouncer: Server = createServer((request, response) => {
      bounced++;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
        fetch(listenerUrl, { method: 'POST', headers, body: Buffer.concat(chunks) }).then(
          async (back) => response.writeHead(back.status).end(await back.text()),
          () => response.writeHead(599).end(),
        );
      });
    });
    await new Promise<void>((resolve) => bouncer.listen(0, '127.0.0.1', resolve));
    const listener = spawnEsign(['webhooks', 'listen', '--port', '0', '--secret-stdin', '--forward-to', `http://127.0.0.1:${(bouncer.address() as AddressInfo).port}/`], env(), secret);
    try {
      listenerUrl = (await listener.waitForLine((line) => line.kind === 'listening', 'the listener')).url;
      const answer = await signedPost(listenerUrl, 'evt_loop', JSON.stringify({ type: 'ENVELOPE_COMPLETED', data: { envelope: { id: 'e', status: 'COMPLETED' } } }));
      expect(answer.status).toBe(502);
      expect(await listener.waitForLine((line) => line.webhookId === 'evt_loop' && line.kind === 'delivery', 'the delivery')).toMatchObject({ answer: 502, forward: { status: 508 } });
      expect(await listener.waitForLine((line) => line.webhookId === 'evt_loop' && line.kind === 'rejected', 'the refused echo')).toMatchObject({ answer: 508, problem: expect.stringContaining("the listener's own forward") });
      expect(bounced).toBe(1);
    } finally {
      await listener.stop('SIGTERM');
      await new Promise((resolve) => bouncer.close(resolve));
    }
  });
});

describe.skipIf(!tmuxBinary)('webhooks pickers on a terminal', () => {
  it('resend without ids offers the endpoints, then that endpoint\'s deliveries', async () => {
    const url = 'http://127.0.0.1:9/picker';
    const webhook = expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { idempotent: true, body: { url, events: ['ENVELOPE_VOIDED'], isActive: true } }), 201).body;
    const envelope = await createSentEnvelope(emulator, { title: 'Picked delivery' });
    await voidEnvelope(emulator, envelope.id, 'For the picker');
    const delivery = await waitUntil(async () => (await call(emulator, 'GET', `/v4/api/webhooks/${webhook.id}/deliveries`)).body.data[0], (found: any) => found?.status === 'FAILED', 'a failed delivery');
    const tty = terminalWith(env());
    try {
      tty.run(['webhooks', 'resend']);
      expect(await tty.waitFor(/Which webhook endpoint\?[\s\S]*127\.0\.0\.1:9\/picker/)).toContain(webhook.id);
      for (let presses = 0; presses < 30 && !tty.screen().includes(`❯ ${url}`); presses++) {
        tty.keys('Down');
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      tty.keys('Enter');
      expect(await tty.waitFor(/Which delivery\?/)).toContain(`ENVELOPE_VOIDED FAILED`);
      tty.keys('Enter');
      // Nothing listens on port 9: the redelivery is made, and fails as such.
      const screen = await tty.waitFor(/EXIT=\d+/);
      expect(screen).toContain('EXIT=6');
      expect(screen).toContain('WEBHOOK_DELIVERY_FAILED');
    } finally {
      tty.stop();
    }
    // The picked delivery was the one sent again: it has one more attempt.
    const shown = expectStatus(await call(emulator, 'GET', `/v4/api/webhooks/${webhook.id}/deliveries/${delivery.id}`), 200).body;
    expect(shown.attempts.length).toBe(delivery.attempts.length + 1);
  });

  it('without a terminal, delivery and resend need both ids (exit 2, nothing sent)', async () => {
    const noWebhook = await esign(['webhooks', 'resend']);
    expect(noWebhook.code).toBe(2);
    expect(noWebhook.stderr).toContain('<webhookId> is required without an interactive terminal');
    const noDelivery = await esign(['webhooks', 'delivery', 'some-endpoint']);
    expect(noDelivery.code).toBe(2);
    expect(noDelivery.stderr).toContain('<deliveryId> is required without an interactive terminal');
    expect(noDelivery.stderr).toContain('esign webhooks deliveries some-endpoint');
  });
});
