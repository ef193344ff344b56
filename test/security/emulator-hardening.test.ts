import { request } from 'node:http';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { tempDir } from '../support/cli.js';
import { DOCX, minimalDocx, processedDocument, registerDocument, putBytes } from '../support/documents.js';
import { createDraft } from '../support/envelope-flow.js';
import { useEmulator, withEmulator, type EmulatorProcess } from '../support/emulator.js';
import { simplePdf } from '../support/pdfs.js';

const key = 'hard_test_HardeningSecret0123456789';

interface RawAnswer {
  status: number;
  body: any;
}

/** One HTTP request with exactly the headers given (fetch would not let a test forge `Host`). */
function rawRequest(emulator: EmulatorProcess, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawAnswer> {
  const url = new URL(path, emulator.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: url.hostname, port: url.port, method, path: url.pathname, headers, setHost: headers.host === undefined }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode!, body: text ? JSON.parse(text) : undefined }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

function expectError(answer: { status: number; body: any }, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toEqual({ error: { code, message: expect.any(String), ...(answer.body.error.details === undefined ? {} : { details: expect.any(Object) }) } });
}

async function envelopeCount(emulator: EmulatorProcess): Promise<number> {
  return expectStatus(await call(emulator, 'GET', '/v4/api/account'), 200).body.usage.envelopesCreated;
}

describe('emulator request bodies', () => {
  const emulator = useEmulator(['--key', key, '--processing-delay', '0']);

  it('refuses JSON nested deeper than the limit with 400 JSON_TOO_DEEP, never 500, on API, legacy and control routes', async () => {
    const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    for (const path of ['/v4/api/contacts/', '/v2/envelopes/', `/_emulator/envelopes/x/participants/y/sign`]) {
      const nested = await emulator.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"a":${deep(100_000)}}` });
      expectError({ status: nested.status, body: await nested.json() }, 400, 'JSON_TOO_DEEP');
    }
    // Brackets inside strings are text, not nesting.
    const text = await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: '['.repeat(200), email: 'brackets@example.test' } });
    expectStatus(text, 201);
  });

  it('answers a body that is not sent as JSON with 415 UNSUPPORTED_CONTENT_TYPE and creates nothing', async () => {
    const before = await envelopeCount(emulator);
    for (const contentType of ['application/x-www-form-urlencoded', 'text/plain', 'application/xml']) {
      const sent = await emulator.fetch('/v4/api/envelopes/', { method: 'POST', headers: { 'content-type': contentType, 'idempotency-key': `form-${contentType}` }, body: 'title=x' });
      expectError({ status: sent.status, body: await sent.json() }, 415, 'UNSUPPORTED_CONTENT_TYPE');
    }
    // A body with no Content-Type at all, on a PATCH and on a PUT.
    const draft = await createDraft(emulator);
    const patch = await rawRequest(emulator, 'PATCH', `/v4/api/envelopes/${draft.id}/settings`, { authorization: `Bearer ${key}` }, '{"title":"x"}');
    expectError(patch, 415, 'UNSUPPORTED_CONTENT_TYPE');
    const put = await rawRequest(emulator, 'PUT', `/v4/api/envelopes/${draft.id}/participants`, { authorization: `Bearer ${key}`, 'content-type': 'text/plain' }, '{}');
    expectError(put, 415, 'UNSUPPORTED_CONTENT_TYPE');
    expect(await envelopeCount(emulator)).toBe(before + 1);
  });

  it('answers a create without a body with 400 VALIDATION_ERROR instead of a default envelope', async () => {
    const before = await envelopeCount(emulator);
    expectError(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true }), 400, 'VALIDATION_ERROR');
    expect(await envelopeCount(emulator)).toBe(before);
    // {} is an explicit request for every default.
    expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: {} }), 201);
  });

  it('keeps the raw-body routes working: the signed upload and documents/validate take their files as they are', async () => {
    const draft = await createDraft(emulator);
    const registered = await registerDocument(emulator, draft.id);
    const upload = await putBytes(registered.uploadUrl, await simplePdf({ pages: [['Raw bytes']] }));
    expect(upload.status).toBe(200);
    const validate = await emulator.fetch('/v4/api/documents/validate', {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: await simplePdf({ pages: [['Not sealed']] }),
    });
    expect(validate.status).toBe(200);
    expect(await validate.json()).toMatchObject({ valid: false, reason: 'NOT_SEALED' });
  });

  it('fails a .docx whose word/document.xml inflates past the limit, with a reason that says so', async () => {
    const draft = await createDraft(emulator);
    const bomb = minimalDocx([' '.repeat(65 * 1024 * 1024)]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const registered = await registerDocument(emulator, draft.id, 'bomb.docx', DOCX);
    expect((await putBytes(registered.uploadUrl, bomb, DOCX)).status).toBe(200);
    const document = await processedDocument(emulator, draft.id, registered.documentId);
    expect(document.status).toBe('FAILED');
    expect(document.failureReason).toMatch(/word\/document\.xml inflates past \d+ bytes/);
  });
});

describe('emulator control routes', () => {
  const emulator = useEmulator(['--key', key]);

  it('refuse a foreign Host (DNS rebinding) with 403 CONTROL_HOST_REFUSED and leave the state alone', async () => {
    const port = new URL(emulator.url).port;
    const draft = await createDraft(emulator);
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost.evil.example:${port}`, 'evil.example', `127.0.0.1:${Number(port) + 1}`]) {
      expectError(await rawRequest(emulator, 'POST', '/_emulator/reset', { host }), 403, 'CONTROL_HOST_REFUSED');
      expectError(await rawRequest(emulator, 'GET', '/_emulator/outbox', { host }), 403, 'CONTROL_HOST_REFUSED');
    }
    expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}`), 200);
  });

  it('refuse a request made by a web page (a foreign or null Origin) with 403 CONTROL_ORIGIN_REFUSED', async () => {
    const draft = await createDraft(emulator);
    for (const origin of ['http://evil.example', 'null', `https://${new URL(emulator.url).host}`, 'http://localhost:1']) {
      expectError(await rawRequest(emulator, 'POST', '/_emulator/reset', { origin }), 403, 'CONTROL_ORIGIN_REFUSED');
      expectError(await rawRequest(emulator, 'GET', '/_emulator/webhook-deliveries', { origin }), 403, 'CONTROL_ORIGIN_REFUSED');
    }
    expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}`), 200);
  });

  it("answer the emulator's own callers: its own Host by any loopback name, and its own Origin", async () => {
    const port = new URL(emulator.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await rawRequest(emulator, 'GET', '/_emulator/health', { host })).status).toBe(200);
    }
    expect((await rawRequest(emulator, 'GET', '/_emulator/outbox', { origin: emulator.url })).status).toBe(200);
    const draft = await createDraft(emulator);
    expect((await emulator.fetch('/_emulator/reset', { method: 'POST' })).status).toBe(200);
    expect((await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}`)).status).toBe(404);
  });
});

describe('emulator --state file', () => {
  it('is written 0600 and holds no part of the key, idempotency records included', async () => {
    const directory = tempDir('esign-state-');
    const statePath = join(directory, 'nested', 'emulator.json');
    await withEmulator(['--key', key, '--state', statePath], async (emulator) => {
      const created = await call(emulator, 'POST', '/v4/api/envelopes/', { body: { title: 'Kept' }, headers: { 'idempotency-key': 'state-file-key-1' } });
      expectStatus(created, 201);
    });
    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    // A directory made for the state is private too.
    expect(statSync(join(directory, 'nested')).mode & 0o777).toBe(0o700);
    const saved = readFileSync(statePath, 'utf8');
    expect(saved).toContain('state-file-key-1');
    const secret = key.split('_test_')[1]!;
    for (let start = 0; start + 6 <= secret.length; start++) expect(saved).not.toContain(secret.slice(start, start + 6));
  });
});
