import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { expandPath, operations, pathParams } from '../../src/api/operations.js';
import { call, expectStatus } from '../support/api-call.js';
import { tempDir } from '../support/cli.js';
import { useEmulator, withEmulator } from '../support/emulator.js';
import { outbox, readyDraft, resetEmulator } from '../support/envelope-flow.js';

const otherKey = 'em_test_OtherIntegrationKey0123456789';
const emulator = useEmulator(['--processing-delay', '20', '--key', 'em_test_MainIntegrationKey0123456789', '--key', otherKey]);

beforeEach(async () => {
  await resetEmulator(emulator);
});

function create(key: string | undefined, body: Record<string, unknown> = { title: 'Idempotent' }, apiKey?: string) {
  return call(emulator, 'POST', '/v4/api/envelopes/', { body, headers: key === undefined ? {} : { 'idempotency-key': key }, ...(apiKey ? { key: apiKey } : {}) });
}

async function envelopeCount(apiKey?: string): Promise<number> {
  return expectStatus(await call(emulator, 'GET', '/v4/api/envelopes/?limit=100', apiKey ? { key: apiKey } : {}), 200).body.data.length;
}

describe('"missing or malformed key → 400 IDEMPOTENCY_KEY_INVALID"', () => {
  const idempotent = operations.filter((operation) => operation.idempotent);

  it('the operation table marks createEnvelope, sendEnvelope, sendNow, createEnvelopeFromTemplate and createWebhook', () => {
    expect(idempotent.map((operation) => operation.id).sort()).toEqual(['createEnvelope', 'createEnvelopeFromTemplate', 'createWebhook', 'sendEnvelope', 'sendNow']);
  });

  it.each(idempotent.map((operation) => [operation.id, operation] as const))('%s without Idempotency-Key: 400, nothing done', async (_id, operation) => {
    const params = Object.fromEntries(pathParams(operation.path).map((name) => [name, randomUUID()]));
    const answer = await call(emulator, operation.method, expandPath(operation.path, params), { body: {} });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('IDEMPOTENCY_KEY_INVALID');
  });

  it.each([
    ['7 characters', 'abcdefg'],
    ['256 characters', 'k'.repeat(256)],
    ['a character outside printable ASCII', 'clé-12345678'],
  ])('"8 to 255 printable ASCII characters": %s → 400', async (_label, key) => {
    const answer = await create(key);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(await envelopeCount()).toBe(0);
  });

  it.each([
    ['8 characters', 'abcdefgh'],
    ['255 characters', 'k'.repeat(255)],
    ['punctuation', 'order-42:{retry}~!'],
  ])('accepts %s', async (_label, key) => {
    expect((await create(key)).status).toBe(201);
  });
});

describe('"a replay answers the stored response with header Idempotent-Replayed: true"', () => {
  it('same key, same body: the same 201 answer, replayed, and one envelope', async () => {
    const first = await create('create-once-0001');
    const second = await create('create-once-0001');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await envelopeCount()).toBe(1);
  });

  it('a replayed send does not send twice: one invitation in the outbox', async () => {
    const draft = await readyDraft(emulator, [{ name: 'Ada', email: 'ada@example.test' }]);
    const headers = { 'idempotency-key': `send-${draft.id}` };
    const first = expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/send`, { headers, body: {} }), 200);
    const again = expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${draft.id}/send`, { headers, body: {} }), 200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await outbox(emulator, draft.id)).toHaveLength(1);
  });

  it('a refused request is not stored: the same key with a corrected body goes through', async () => {
    const refused = await create('fix-and-retry-01', { title: '' });
    expect(refused.status).toBe(400);
    const fixed = await create('fix-and-retry-01', { title: 'Fixed' });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('"A key represents the whole account as a principal": after rotating to another key, a retry with the same Idempotency-Key replays', async () => {
    const mine = await create('shared-key-value-1');
    const rotated = await create('shared-key-value-1', { title: 'Idempotent' }, otherKey);
    expect(rotated.status).toBe(201);
    expect(rotated.headers.get('idempotent-replayed')).toBe('true');
    expect(rotated.body).toEqual(mine.body);
    expect(await envelopeCount()).toBe(1);
    const different = await create('shared-key-value-1', { title: 'Another' }, otherKey);
    expect(different.status).toBe(409);
    expect(different.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('"same key, different request → 409 IDEMPOTENCY_KEY_REUSED"', () => {
  it('a different body', async () => {
    expect((await create('reused-key-0001', { title: 'First' })).status).toBe(201);
    const answer = await create('reused-key-0001', { title: 'Second' });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await envelopeCount()).toBe(1);
  });

  it('another operation', async () => {
    const created = expectStatus(await create('reused-key-0002'), 201).body;
    const answer = await call(emulator, 'POST', `/v4/api/envelopes/${created.id}/send`, { headers: { 'idempotency-key': 'reused-key-0002' }, body: {} });
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('concurrent retries', () => {
  it('50 parallel creates with 10 keys, each sent 5 times, make exactly 10 envelopes', async () => {
    const keys = Array.from({ length: 10 }, (_, index) => `parallel-key-${index}-${randomUUID()}`);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) => create(keys[index % 10]!, { title: `Parallel ${index % 10}` })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(201));
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(40);
    keys.forEach((_, keyIndex) => {
      const ids = new Set(answers.filter((_answer, index) => index % 10 === keyIndex).map((answer) => answer.body.id));
      expect(ids.size).toBe(1);
    });
    expect(await envelopeCount()).toBe(10);
  });
});

describe('an Idempotency-Key on a POST that does not require one (registerDocument)', () => {
  function register(envelopeId: string, headers: Record<string, string>) {
    return call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents`, { body: { fileName: 'contract.pdf', contentType: 'application/pdf' }, headers });
  }

  it('is honoured: the same key replays the registration instead of adding a second document', async () => {
    const draft = expectStatus(await create('draft-for-register-1'), 201).body;
    const first = expectStatus(await register(draft.id, { 'idempotency-key': 'register-key-0001' }), 201);
    const again = expectStatus(await register(draft.id, { 'idempotency-key': 'register-key-0001' }), 201);
    expect(again.body.documentId).toBe(first.body.documentId);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const listed = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}/documents`), 200).body.data;
    expect(listed).toHaveLength(1);
  });

  it('is still optional there (no key: each POST registers a document), and a malformed one is 400', async () => {
    const draft = expectStatus(await create('draft-for-register-2'), 201).body;
    expectStatus(await register(draft.id, {}), 201);
    expectStatus(await register(draft.id, {}), 201);
    const malformed = await register(draft.id, { 'idempotency-key': 'short' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('IDEMPOTENCY_KEY_INVALID');
    expect(expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${draft.id}/documents`), 200).body.data).toHaveLength(2);
  });
});

describe('Idempotency-Keys of the two environments', () => {
  it('"Two environments run the same contract": a sandbox record is not replayed to a production key on the same --state', async () => {
    const statePath = join(tempDir('esign-idempotency-'), 'state.json');
    const request = { body: { title: 'Per environment' }, headers: { 'idempotency-key': 'environment-key-0001' } };
    const sandboxId = await withEmulator(['--state', statePath, '--key', 'em_test_SandboxIntegrationKey0123'], async (sandbox) => {
      const first = expectStatus(await call(sandbox, 'POST', '/v4/api/envelopes/', request), 201);
      expect(expectStatus(await call(sandbox, 'POST', '/v4/api/envelopes/', request), 201).headers.get('idempotent-replayed')).toBe('true');
      return first.body.id as string;
    });
    await withEmulator(['--state', statePath, '--environment', 'production', '--key', 'em_live_ProductionIntegrationKey01'], async (production) => {
      const answer = expectStatus(await call(production, 'POST', '/v4/api/envelopes/', request), 201);
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
      expect(answer.body.id).not.toBe(sandboxId);
    });
  });
});
