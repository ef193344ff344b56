import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

describe('"a property an operation does not know is 400 VALIDATION_ERROR", at any depth of any body', () => {
  const emulator = useEmulator(['--key', testKey]);
  const uuid = () => randomUUID();

  it('names the path of each unknown property in details.issues, on every route that reads a body', async () => {
    const draft = expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: {} }), 201).body;
    const document = expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/documents`, { body: { fileName: 'a.pdf', contentType: 'application/pdf' } }), 201).body;
    const [participant] = expectStatus(
      await call(emulator, 'PUT', `/v4/api/envelopes/${draft.id}/participants`, { body: { participants: [{ name: 'Ada', email: 'ada@example.test', deliveryMethod: 'EMAIL', role: 'SIGNER' }] } }),
      200,
    ).body.participants;
    const contact = expectStatus(await call(emulator, 'POST', '/v4/api/contacts/', { body: { name: 'Strict', email: 'strict@example.test' } }), 201).body;
    const folder = expectStatus(await call(emulator, 'POST', '/v4/api/folders/', { body: { name: 'Strict' } }), 201).body;
    const webhook = expectStatus(await call(emulator, 'POST', '/v4/api/webhooks/', { idempotent: true, body: { url: 'https://hooks.example.test/x', events: ['ENVELOPE_SENT'], isActive: true } }), 201).body;
    const [template] = expectStatus(await call(emulator, 'GET', '/v4/api/templates/'), 200).body.data;
    const accountId = expectStatus(await call(emulator, 'GET', '/v4/api/me'), 200).body.account.id;

    const field = { id: uuid(), participantId: participant.id, type: 'SIGNATURE', size: { width: 100, height: 30 } };
    const anchored = { ...field, anchor: { text: '{{sign}}' } };
    const placed = { ...field, pages: [1], position: { x: 10, y: 10 } };
    const search = { key: 'k', text: 'Agreement' };
    const legacyDocument = { id: uuid(), fileName: 'a.pdf', contentType: 'application/pdf' };
    const legacy = {
      documents: [legacyDocument],
      signatories: [{ id: 's1', name: 'Lee', email: 'lee@example.test', qualification: 'SES', authMethod: 'EMAIL' }],
      fields: [{ type: 'TEXT', documentId: legacyDocument.id, signatoryId: 's1', pageNumber: 1, position: { x: 1, y: 1, width: 10, height: 10 }, properties: { label: 'Date' } }],
    };
    const sendNow = {
      title: 'Strict',
      participants: [{ ref: 'p', name: 'Ada', email: 'ada@example.test', deliveryMethod: 'EMAIL' }],
      documents: [{ ref: 'd', fileName: 'a.pdf', contentType: 'application/pdf' }],
      fields: [{ type: 'SIGNATURE', documentRef: 'd', signatoryRef: 'p', anchor: { text: '{{sign}}' }, size: { width: 100, height: 30 } }],
    };
    const fieldsPath = `/v4/api/envelopes/${draft.id}/documents/${document.documentId}/fields`;
    const cases: [method: string, path: string, body: unknown, unknownPath: string, headers?: Record<string, string>][] = [
      ['PUT', fieldsPath, { fields: [{ ...anchored, anchor: { text: '{{sign}}', occurence: 'all' } }] }, 'fields[0].anchor.occurence'],
      ['PUT', fieldsPath, { fields: [{ ...anchored, anchor: { text: '{{sign}}', offset: { x: 1, y: 2, z: 3 } } }] }, 'fields[0].anchor.offset.z'],
      ['PUT', fieldsPath, { fields: [{ ...placed, foo: 1 }] }, 'fields[0].foo'],
      ['PUT', fieldsPath, { fields: [placed, { ...placed, id: uuid(), position: { x: 1, y: 1, width: 5 } }] }, 'fields[1].position.width'],
      ['PUT', fieldsPath, { fields: [{ ...placed, size: { width: 1, height: 1, depth: 1 } }] }, 'fields[0].size.depth'],
      ['POST', `/v4/api/envelopes/${draft.id}/documents/${document.documentId}/anchors:find`, { searches: [{ ...search, casesensitive: true }] }, 'searches[0].casesensitive'],
      ['POST', `/v4/api/envelopes/${draft.id}/documents/${document.documentId}/anchors:find`, { searches: [search, { ...search, key: 'o', offset: { x: 0, y: 0, z: 0 } }] }, 'searches[1].offset.z'],
      ['POST', `/v4/api/templates/${template.id}/documents/${template.documents[0].documentId}/anchors:find`, { searches: [{ ...search, occurence: 1 }] }, 'searches[0].occurence'],
      ['POST', '/v4/api/envelopes/send-now', { ...sendNow, fields: [{ ...sendNow.fields[0], anchor: { text: '{{sign}}', occurence: 'all' } }] }, 'fields[0].anchor.occurence', { 'idempotency-key': uuid() }],
      ['POST', '/v4/api/envelopes/send-now', { ...sendNow, participants: [{ ...sendNow.participants[0], foo: 1 }] }, 'participants[0].foo', { 'idempotency-key': uuid() }],
      ['PUT', `/v4/api/envelopes/${draft.id}/participants`, { participants: [{ name: 'Ada', email: 'ada@example.test', deliveryMethod: 'EMAIL', role: 'SIGNER', foo: 1 }] }, 'participants[0].foo'],
      ['PATCH', `/v4/api/envelopes/${draft.id}/participants/${participant.id}`, { name: 'Ada', foo: 1 }, 'foo'],
      ['PATCH', `/v4/api/envelopes/${draft.id}/settings`, { title: 'T', foo: 1 }, 'foo'],
      ['POST', '/v4/api/contacts/', { name: 'New', email: 'new@example.test', foo: 1 }, 'foo'],
      ['PUT', `/v4/api/contacts/${contact.id}`, { name: 'New', email: 'strict@example.test', foo: 1 }, 'foo'],
      ['PATCH', `/v4/api/contacts/${contact.id}`, { compnay: 'Acme' }, 'compnay'],
      ['POST', '/v4/api/folders/', { name: 'Other', parentID: folder.id }, 'parentID'],
      ['PATCH', `/v4/api/folders/${folder.id}`, { name: 'Renamed', foo: 1 }, 'foo'],
      ['POST', `/v4/api/folders/${folder.id}/move`, { parentId: null, foo: 1 }, 'foo'],
      ['POST', '/v4/api/webhooks/', { url: 'https://hooks.example.test/y', events: ['ENVELOPE_SENT'], isActive: true, secret: 'x' }, 'secret', { 'idempotency-key': uuid() }],
      ['PATCH', `/v4/api/webhooks/${webhook.id}`, { isActive: false, active: true }, 'active'],
      ['POST', `/v4/api/templates/${template.id}/envelopes`, { participants: [], foo: 1 }, 'foo', { 'idempotency-key': uuid() }],
      ['POST', '/v2/envelopes/', { ...legacy, documents: [{ ...legacyDocument, foo: 1 }] }, 'documents[0].foo', { authorization: 'Bearer sess_0123456789abcdef', 'x-account-id': accountId }],
      ['POST', '/v2/envelopes/', { ...legacy, signatories: [{ ...legacy.signatories[0], phone: '+33612345678' }] }, 'signatories[0].phone', { authorization: 'Bearer sess_0123456789abcdef', 'x-account-id': accountId }],
      ['POST', '/v2/envelopes/', { ...legacy, fields: [{ ...legacy.fields[0], position: { x: 1, y: 1, width: 10, height: 10, page: 1 } }] }, 'fields[0].position.page', { authorization: 'Bearer sess_0123456789abcdef', 'x-account-id': accountId }],
      ['POST', '/v2/envelopes/', { ...legacy, fields: [{ ...legacy.fields[0], properties: { lable: 'Date' } }] }, 'fields[0].properties.lable', { authorization: 'Bearer sess_0123456789abcdef', 'x-account-id': accountId }],
      ['POST', '/v2/envelopes/', { ...legacy, observers: [{ email: 'o@example.test', notifyOnSend: true }] }, 'observers[0].notifyOnSend', { authorization: 'Bearer sess_0123456789abcdef', 'x-account-id': accountId }],
      ['POST', `/_emulator/envelopes/${draft.id}/participants/${participant.id}/sign`, { linkVersion: 1, foo: 1 }, 'foo'],
    ];
    for (const [method, path, body, unknownPath, headers] of cases) {
      const answer = await call(emulator, method, path, { body, ...(headers ? { headers } : {}), ...(headers?.authorization ? { key: false } : {}) });
      expectErrorShape(answer, 400, 'VALIDATION_ERROR');
      expect(answer.body.error.details.issues, `${method} ${path} ${JSON.stringify(body)}`).toContainEqual({ path: unknownPath, message: expect.stringMatching(/unknown property/) });
    }
    // Nothing was made or changed by any of them.
    expect(expectStatus(await call(emulator, 'GET', fieldsPath), 200).body.fields).toEqual([]);
    expect(expectStatus(await call(emulator, 'GET', `/v4/api/contacts/${contact.id}`), 200).body).toMatchObject({ name: 'Strict', company: null });
  });

  it('a field\'s properties are the field\'s own: any name is kept and answered as sent', async () => {
    const draft = expectStatus(await call(emulator, 'POST', '/v4/api/envelopes/', { idempotent: true, body: {} }), 201).body;
    const document = expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/documents`, { body: { fileName: 'a.pdf', contentType: 'application/pdf' } }), 201).body;
    const answer = await call(emulator, 'PUT', `/v4/api/envelopes/${draft.id}/documents/${document.documentId}/fields`, {
      body: { fields: [{ id: uuid(), participantId: 'p', type: 'TEXT', pages: [1], position: { x: 1, y: 1 }, size: { width: 10, height: 10 }, properties: { label: 'Date', placeholder: 'dd/mm' } }] },
    });
    // Past the body check: the document is not processed yet.
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('DOCUMENT_NOT_READY');
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
  it('removes on start the temporary files a killed save left beside the state file, and only those', async () => {
    const folder = tempDir('esign-state-tmp-');
    const statePath = join(folder, 'state.json');
    await withEmulator(['--state', statePath, '--key', testKey], async (first) => {
      expectStatus(await call(first, 'POST', '/v4/api/envelopes/', { idempotent: true, body: { title: 'Kept' } }), 201);
    });
    const leftovers = ['.state.json.0123456789ab.tmp', '.state.json.ffffffffffff.tmp'];
    const others = ['.state.json.0123456789a.tmp', '.state.json.0123456789abc.tmp', '.state.json.0123456789AB.tmp', '.other.json.0123456789ab.tmp', 'state.json.0123456789ab.tmp', '.state.json.0123456789ab.tmp.bak'];
    for (const name of [...leftovers, ...others]) writeFileSync(join(folder, name), 'x'.repeat(1000));
    mkdirSync(join(folder, '.state.json.aaaaaaaaaaaa.tmp'));
    await withEmulator(['--state', statePath, '--key', testKey], async (second) => {
      expect(expectStatus(await call(second, 'GET', '/v4/api/envelopes/'), 200).body.data.map((envelope: { title: string }) => envelope.title)).toEqual(['Kept']);
    });
    expect(readdirSync(folder).sort()).toEqual(['.state.json.aaaaaaaaaaaa.tmp', ...others, 'state.json'].sort());
  });

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
