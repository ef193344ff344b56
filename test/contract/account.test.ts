import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { useEmulator, withEmulator } from '../support/emulator.js';

const emulator = useEmulator(['--envelope-quota', '5', '--message-limit', '7']);

describe('account', () => {
  it('GET /v4/api/me "validates the key; the response reports environment, account, integration and responsible user"', async () => {
    const me = expectStatus(await call(emulator, 'GET', '/v4/api/me'), 200).body;
    expect(me).toEqual({
      environment: 'sandbox',
      account: { id: expect.any(String), name: expect.any(String) },
      integration: { id: expect.any(String), name: expect.any(String) },
      responsibleUser: { id: expect.any(String), name: expect.any(String), email: expect.stringContaining('@') },
      scopes: expect.arrayContaining(['envelopes:read', 'templates:read']),
    });
    expect(JSON.stringify(me)).not.toContain(emulator.key);
  });

  it('gets the integration account with its limits and usage', async () => {
    const me = expectStatus(await call(emulator, 'GET', '/v4/api/me'), 200).body;
    const account = expectStatus(await call(emulator, 'GET', '/v4/api/account'), 200).body;
    expect(account).toMatchObject({ id: me.account.id, environment: 'sandbox', limits: { envelopeQuota: 5, messageLimit: 7 } });
  });

  it('gets the effective capabilities and the capability catalog', async () => {
    const effective = expectStatus(await call(emulator, 'GET', '/v4/api/account/capabilities'), 200).body;
    expect(effective.data).toContainEqual({ id: 'ANCHOR_SEARCH', enabled: true });
    const catalog = expectStatus(await call(emulator, 'GET', '/v4/api/capabilities'), 200).body;
    expect(catalog.data.map((entry: { id: string }) => entry.id)).toEqual(expect.arrayContaining(['ANCHOR_SEARCH', 'SEND_NOW', 'WEBHOOKS']));
  });

  it('"Lists (every collection)": both capability lists page with limit (1-100, default 20) and cursor, answering nextCursor', async () => {
    for (const path of ['/v4/api/account/capabilities', '/v4/api/capabilities']) {
      const whole = expectStatus(await call(emulator, 'GET', path), 200).body;
      expect(whole.nextCursor, path).toBeNull();
      expect(whole.data.length).toBeGreaterThan(1);
      const listed: unknown[] = [];
      let cursor: string | null = null;
      do {
        const page: { data: unknown[]; nextCursor: string | null } = expectStatus(await call(emulator, 'GET', `${path}?limit=1${cursor ? `&cursor=${cursor}` : ''}`), 200).body;
        expect(page.data).toHaveLength(1);
        listed.push(...page.data);
        cursor = page.nextCursor;
      } while (cursor);
      expect(listed).toEqual(whole.data);
      for (const query of ['limit=0', 'limit=101', 'limit=x', 'cursor=zzz']) {
        const answer = await call(emulator, 'GET', `${path}?${query}`);
        expect(answer.status, `${path}?${query}`).toBe(400);
        expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      }
    }
  });

  it('lists the calls made by the key, newest first, paginated', async () => {
    expectStatus(await call(emulator, 'GET', '/v4/api/envelopes/missing-envelope'), 404);
    const calls = expectStatus(await call(emulator, 'GET', '/v4/api/account/api-calls?limit=2'), 200).body;
    expect(calls.data).toHaveLength(2);
    expect(calls.data[0]).toMatchObject({ method: 'GET', operationId: 'getEnvelope', status: 404, keyPrefix: 'em' });
    expect(calls.nextCursor).toEqual(expect.any(String));
    expect(JSON.stringify(calls)).not.toContain(emulator.key);
  });

  it('pages through the calls without repeating one, although each page request is a call too', async () => {
    const listed: { id: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; nextCursor: string | null } = expectStatus(await call(emulator, 'GET', `/v4/api/account/api-calls?limit=3${cursor ? `&cursor=${cursor}` : ''}`), 200).body;
      listed.push(...page.data);
      cursor = page.nextCursor;
    } while (cursor);
    expect(listed.length).toBeGreaterThan(3);
    expect(new Set(listed.map((each) => each.id)).size).toBe(listed.length);
  });

  it('lists a replayed create and the Idempotency-Key refusals as calls too, with the status each got', async () => {
    await withEmulator([], async (own) => {
      const create = (key: string | undefined, title: string) =>
        call(own, 'POST', '/v4/api/envelopes/', { body: { title }, ...(key ? { headers: { 'idempotency-key': key } } : {}) });
      expectStatus(await create('calls-log-key-1', 'First'), 201);
      expectStatus(await create('calls-log-key-1', 'First'), 201);
      expectStatus(await create('calls-log-key-1', 'Another'), 409);
      expectStatus(await create(undefined, 'No key'), 400);
      const calls = expectStatus(await call(own, 'GET', '/v4/api/account/api-calls?limit=4'), 200).body.data;
      expect(calls.map((each: { operationId: string; status: number }) => [each.operationId, each.status])).toEqual([
        ['createEnvelope', 400],
        ['createEnvelope', 409],
        ['createEnvelope', 201],
        ['createEnvelope', 201],
      ]);
    });
  });

  it('refuses a capability listing without a key (401)', async () => {
    const response = await emulator.fetch('/v4/api/account/capabilities', { key: false });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String) } });
  });
});
