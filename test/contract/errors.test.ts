import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, expectStatus, type ApiAnswer } from '../support/api-call.js';
import { runEsign, tempDir } from '../support/cli.js';
import { useEmulator, withEmulator } from '../support/emulator.js';

const testKey = 'em_test_ErrorsTestKey0123456789';
const liveKey = 'em_live_ErrorsLiveKey0123456789';

/** The contract's error body: `{error: {code: string, message: string, details?: object}}`, nothing else. */
function expectErrorShape(answer: ApiAnswer, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.headers.get('content-type')).toContain('application/json');
  expect(Object.keys(answer.body)).toEqual(['error']);
  expect(answer.body.error).toEqual({ code, message: expect.any(String), ...(answer.body.error.details === undefined ? {} : { details: expect.any(Object) }) });
  expect(answer.body.error.message.length).toBeGreaterThan(0);
}

describe('errors on a plain sandbox emulator', () => {
  const emulator = useEmulator(['--key', testKey]);

  it('answers an unknown route with 404 RESOURCE_NOT_FOUND in the error shape', async () => {
    expectErrorShape(await call(emulator, 'GET', '/v4/api/no-such-resource'), 404, 'RESOURCE_NOT_FOUND');
    expectErrorShape(await call(emulator, 'DELETE', '/v4/api/me'), 404, 'RESOURCE_NOT_FOUND');
    expectErrorShape(await call(emulator, 'GET', '/v9/whatever'), 404, 'RESOURCE_NOT_FOUND');
  });

  it('"A missing, invalid or revoked key gives 401": missing and unknown keys', async () => {
    expectErrorShape(await call(emulator, 'GET', '/v4/api/me', { key: false }), 401, 'UNAUTHENTICATED');
    expectErrorShape(await call(emulator, 'GET', '/v4/api/me', { key: 'em_test_NotAKeyThisEmulatorKnows' }), 401, 'INVALID_API_KEY');
    expectErrorShape(await call(emulator, 'GET', '/v4/api/me', { key: 'garbage' }), 401, 'INVALID_API_KEY');
  });

  it('the Bearer scheme is case-insensitive (RFC 7235) and may be followed by more than one space (RFC 6750: 1*SP)', async () => {
    for (const header of [`bearer ${testKey}`, `BEARER ${testKey}`, `Bearer  ${testKey}`]) {
      const answer = await emulator.fetch('/v4/api/me', { key: false, headers: { authorization: header } });
      expect(answer.status, header).toBe(200);
    }
  });

  it('a malformed Authorization header gets its own 401, not "missing", and no message repeats the key', async () => {
    const secret = testKey.split('_').pop()!;
    const answerTo = async (authorization: string) => {
      const response = await emulator.fetch('/v4/api/me', { key: false, headers: { authorization } });
      return { status: response.status, headers: response.headers, body: await response.json() } as ApiAnswer;
    };
    for (const header of [`Bearer ${testKey} x`, `Bearer ${testKey} ${testKey}`, `Basic ${testKey}`, testKey, `Token ${testKey}`]) {
      const answer = await answerTo(header);
      expectErrorShape(answer, 401, 'INVALID_AUTHORIZATION_HEADER');
      expect(answer.body.error.message, header).not.toMatch(/missing/i);
      expect(JSON.stringify(answer.body), header).not.toContain(secret);
    }
    for (const header of ['Bearer', 'bearer   ']) {
      const answer = await answerTo(header);
      expectErrorShape(answer, 401, 'UNAUTHENTICATED');
      expect(answer.body.error.message).toMatch(/no API key after Bearer/);
    }
  });

  it('"A live key is sent only to the production host": a live key on the sandbox is 401 KEY_ENVIRONMENT_MISMATCH', async () => {
    expectErrorShape(await call(emulator, 'GET', '/v4/api/me', { key: liveKey }), 401, 'KEY_ENVIRONMENT_MISMATCH');
  });

  it('answers a malformed JSON body and a not-found resource in the same shape', async () => {
    const malformed = await emulator.fetch('/v4/api/contacts/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":' });
    expectErrorShape({ status: malformed.status, headers: malformed.headers, body: await malformed.json() }, 400, 'INVALID_JSON');
    expectErrorShape(await call(emulator, 'GET', '/v4/api/folders/no-such-folder/content'), 404, 'RESOURCE_NOT_FOUND');
    expectErrorShape(await call(emulator, 'POST', '/v4/api/folders/', { body: {} }), 400, 'VALIDATION_ERROR');
  });
});

describe('request body limits', () => {
  const emulator = useEmulator(['--max-document-bytes', '5000']);

  it('a JSON body over the JSON limit is 413 REQUEST_TOO_LARGE with the limit enforced, whatever --max-document-bytes says', async () => {
    const created = expectStatus(await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: 'Big', email: 'big@example.test' } }), 201).body;
    // Over --max-document-bytes but within the JSON limit: a document limit says nothing about JSON.
    const draft = expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: {} }), 201).body;
    expectStatus(await call(emulator, 'PATCH', `/v4/api/envelopes/${draft.id}/settings`, { body: { message: 'm'.repeat(9_000) } }), 200);
    const oversized = await call(emulator, 'PATCH', `/v4/api/contacts/${created.id}`, { body: { name: 'x'.repeat(1_100_000) } });
    expectErrorShape(oversized, 413, 'REQUEST_TOO_LARGE');
    expect(oversized.body.error.details).toEqual({ maxBytes: 1024 * 1024, declaredBytes: expect.any(Number) });
    expect(oversized.body.error.message).toMatch(/^The JSON request body is \d+ bytes; at most 1048576 bytes are accepted/);
  });
});

describe('errors on a production emulator', () => {
  it('"A test key is sent only to the sandbox host": a test key on production is 401 KEY_ENVIRONMENT_MISMATCH', async () => {
    await withEmulator(['--environment', 'production', '--key', liveKey], async (production) => {
      expect((await call(production, 'GET', '/v4/api/me')).body.environment).toBe('production');
      expectErrorShape(await call(production, 'GET', '/v4/api/me', { key: testKey }), 401, 'KEY_ENVIRONMENT_MISMATCH');
    });
  });
});

// Each test starts its own emulator: they run side by side.
describe.concurrent('rate limit and injected faults', () => {
  it('--rate-limit 2/s: past the ceiling, 429 with Retry-After and RateLimit-Limit, -Remaining, -Reset', async () => {
    await withEmulator(['--rate-limit', '2/s'], async (emulator) => {
      const answers = await Promise.all(Array.from({ length: 8 }, () => call(emulator, 'GET', '/v4/api/me')));
      const ok = answers.find((answer) => answer.status === 200)!;
      expect(ok.headers.get('ratelimit-limit')).toBe('2');
      const limited = answers.filter((answer) => answer.status === 429);
      expect(limited.length).toBeGreaterThanOrEqual(4);
      const answer = limited[0]!;
      expectErrorShape(answer, 429, 'RATE_LIMITED');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(0);
      expect(answer.headers.get('ratelimit-limit')).toBe('2');
      expect(answer.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(0);
    });
  });

  it('"A missing, invalid or revoked key gives 401": requests without a valid key never count toward the account\'s ceiling', async () => {
    await withEmulator(['--rate-limit', '5/s'], async (emulator) => {
      const anonymous = await Promise.all(Array.from({ length: 10 }, () => call(emulator, 'GET', '/v4/api/me', { key: false })));
      expect(anonymous.map((answer) => answer.status)).toEqual(Array(10).fill(401));
      const invalid = await Promise.all(Array.from({ length: 10 }, () => call(emulator, 'GET', '/v4/api/me', { key: 'em_test_NotAKeyThisEmulatorKnows' })));
      expect(invalid.map((answer) => answer.status)).toEqual(Array(10).fill(401));
      expect(anonymous[0]!.headers.get('ratelimit-limit')).toBeNull();
      const answer = await call(emulator, 'GET', '/v4/api/me');
      expect(answer.status).toBe(200);
      expect(Number(answer.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(4);
    });
  });

  it('--faults 503=1: every API call is 503 SERVICE_UNAVAILABLE with Retry-After', async () => {
    await withEmulator(['--faults', '503=1'], async (emulator) => {
      const answer = await call(emulator, 'GET', '/v4/api/me');
      expectErrorShape(answer, 503, 'SERVICE_UNAVAILABLE');
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      // The control surface is not part of the API and is never faulted.
      expect((await emulator.fetch('/_emulator/health')).status).toBe(200);
    });
  });

  it('refuses a --faults value it cannot read, saying which and why, with exit 2 and no server started', async () => {
    for (const [spec, message] of [
      ['latency=', 'latency is whole milliseconds'],
      ['reset=0.6,503=0.6', 'add up to more than 1'],
      ['', 'the value is empty'],
    ] as const) {
      const result = await runEsign(['emulator', '--port', '0', '--faults', spec], { timeoutMs: 20_000 });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stdout).toBe('');
    }
  });

  it('--faults 429=1: every API call is 429, with Retry-After and RateLimit-Limit, -Remaining, -Reset as every 429', async () => {
    await withEmulator(['--faults', '429=1'], async (emulator) => {
      const answer = await call(emulator, 'GET', '/v4/api/contacts/');
      expectErrorShape(answer, 429, 'RATE_LIMITED');
      expect(answer.headers.get('retry-after')).toBe('0');
      expect(Number(answer.headers.get('ratelimit-limit'))).toBeGreaterThanOrEqual(1);
      expect(answer.headers.get('ratelimit-remaining')).toBe('0');
      expect(answer.headers.get('ratelimit-reset')).toBe('0');
    });
    await withEmulator(['--faults', '429=1', '--rate-limit', '50/s'], async (emulator) => {
      const answer = await call(emulator, 'GET', '/v4/api/contacts/');
      expectErrorShape(answer, 429, 'RATE_LIMITED');
      expect(answer.headers.get('ratelimit-limit')).toBe('50');
      expect(answer.headers.get('ratelimit-remaining')).toBe('0');
    });
  });

  it('--faults reset=1: the connection drops; a POST with Idempotency-Key was committed first, and its retry replays it without a duplicate', async () => {
    const statePath = join(tempDir('esign-reset-'), 'state.json');
    await withEmulator(['--faults', 'reset=1', '--state', statePath], async (emulator) => {
      await expect(call(emulator, 'GET', '/v4/api/me')).rejects.toThrow();

      const request = {
        body: { url: 'https://hooks.example.test/reset', events: ['ENVELOPE_VOIDED'], isActive: true },
        headers: { 'idempotency-key': 'reset-fault-once-0001' },
      };
      await expect(call(emulator, 'POST', '/v4/api/webhooks/', request)).rejects.toThrow();
      const retried = await call(emulator, 'POST', '/v4/api/webhooks/', request);
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect(retried.body.url).toBe('https://hooks.example.test/reset');

      await new Promise((resolve) => setTimeout(resolve, 300));
      // The state file's first line holds everything but the envelope, document and replay records.
      const saved = JSON.parse(readFileSync(statePath, 'utf8').split('\n')[0]!) as { webhooks: Record<string, { id: string; url: string }> };
      expect(Object.values(saved.webhooks)).toEqual([expect.objectContaining({ id: retried.body.id, url: 'https://hooks.example.test/reset' })]);
    });
  });
});

describe('--state file', () => {
  it('keeps the state across a restart: stop the process, start a new one on the same file, the envelope is still there', async () => {
    const statePath = join(tempDir('esign-state-'), 'emulator.json');
    let envelopeId = '';
    let contactId = '';
    await withEmulator(['--state', statePath, '--key', testKey], async (first) => {
      envelopeId = expectStatus(await call(first, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: 'Survives restarts' } }), 201).body.id;
      contactId = expectStatus(await call(first, 'POST', '/v4/api/contacts/', { body: { name: 'Kept', email: 'kept@example.test' } }), 201).body.id;
    });
    await withEmulator(['--state', statePath, '--key', testKey], async (second) => {
      const envelope = expectStatus(await call(second, 'GET', `/v4/api/envelopes/${envelopeId}`), 200).body;
      expect(envelope).toMatchObject({ id: envelopeId, title: 'Survives restarts', status: 'DRAFT' });
      expect(expectStatus(await call(second, 'GET', `/v4/api/contacts/${contactId}`), 200).body.name).toBe('Kept');
    });
  });
});
