import { describe, expect, it } from 'vitest';
import { backoffDelay, decideRetry, defaultRetryPolicy, parseRetryAfter, type RetryInput } from './retry.js';

const base: RetryInput = {
  outcome: { kind: 'response', status: 503 },
  method: 'GET',
  hasIdempotencyKey: false,
  attempt: 1,
  elapsedMs: 0,
  random: 0.5,
  nowMs: Date.parse('2026-11-22T00:00:00Z'),
};

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => expect(parseRetryAfter('3', base.nowMs)).toBe(3000));
  it('reads an HTTP-date relative to now', () => expect(parseRetryAfter('Sun, 22 Nov 2026 00:00:10 GMT', base.nowMs)).toBe(10_000));
  it('ignores garbage and absence', () => {
    expect(parseRetryAfter('soon', base.nowMs)).toBeUndefined();
    expect(parseRetryAfter(null, base.nowMs)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('grows exponentially with jitter between half and the whole ceiling', () => {
    expect(backoffDelay(1, 0, defaultRetryPolicy)).toBe(125);
    expect(backoffDelay(1, 0.999, defaultRetryPolicy)).toBeLessThanOrEqual(250);
    expect(backoffDelay(3, 0, defaultRetryPolicy)).toBe(500);
  });
  it('is capped at maxDelayMs', () => expect(backoffDelay(30, 0.999, defaultRetryPolicy)).toBeLessThanOrEqual(defaultRetryPolicy.maxDelayMs));
});

describe('decideRetry', () => {
  it('honours Retry-After on 429 and 503', () => {
    expect(decideRetry({ ...base, outcome: { kind: 'response', status: 429, retryAfter: '2' } })).toMatchObject({ retry: true, delayMs: 2000 });
    expect(decideRetry({ ...base, outcome: { kind: 'response', status: 503, retryAfter: '1' } })).toMatchObject({ retry: true, delayMs: 1000 });
  });

  it('caps Retry-After: a server asking for more than the cap is not waited for', () => {
    expect(decideRetry({ ...base, outcome: { kind: 'response', status: 429, retryAfter: '3600' } }).retry).toBe(false);
  });

  it('retries a plain POST on 429 (not processed) but never on a connection error or 5xx', () => {
    const post = { ...base, method: 'POST' };
    expect(decideRetry({ ...post, outcome: { kind: 'response', status: 429 } }).retry).toBe(true);
    expect(decideRetry({ ...post, outcome: { kind: 'network' } }).retry).toBe(false);
    expect(decideRetry({ ...post, outcome: { kind: 'response', status: 500 } }).retry).toBe(false);
    expect(decideRetry({ ...post, outcome: { kind: 'response', status: 503 } }).retry).toBe(false);
  });

  it('retries connection errors and 5xx for GET, PUT, DELETE and POSTs carrying an Idempotency-Key', () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expect(decideRetry({ ...base, method, outcome: { kind: 'network' } }).retry).toBe(true);
      expect(decideRetry({ ...base, method, outcome: { kind: 'response', status: 502 } }).retry).toBe(true);
    }
    expect(decideRetry({ ...base, method: 'POST', hasIdempotencyKey: true, outcome: { kind: 'network' } }).retry).toBe(true);
  });

  it("never retries a proxy's refusal to open the tunnel (407, 403), and retries its 5xx as a connection error", () => {
    for (const proxyStatus of [407, 403, 400]) {
      const decision = decideRetry({ ...base, method: 'GET', outcome: { kind: 'network', proxyStatus } });
      expect(decision).toEqual({ retry: false, reason: `the proxy answered ${proxyStatus}` });
    }
    for (const proxyStatus of [502, 503]) expect(decideRetry({ ...base, method: 'GET', outcome: { kind: 'network', proxyStatus } }).retry).toBe(true);
  });

  it('never retries a 4xx other than the not-ready 409s', () => {
    for (const status of [400, 401, 403, 404, 413, 422]) {
      expect(decideRetry({ ...base, outcome: { kind: 'response', status } }).retry).toBe(false);
    }
    expect(decideRetry({ ...base, outcome: { kind: 'response', status: 409, code: 'IDEMPOTENCY_KEY_REUSED' } }).retry).toBe(false);
  });

  it('waits out ENVELOPE_DOCUMENTS_NOT_READY and DOCUMENT_NOT_READY until the wait timeout, beyond maxAttempts', () => {
    for (const code of ['ENVELOPE_DOCUMENTS_NOT_READY', 'DOCUMENT_NOT_READY']) {
      const input = { ...base, method: 'POST', hasIdempotencyKey: true, attempt: 40, elapsedMs: 10_000, outcome: { kind: 'response' as const, status: 409, code } };
      expect(decideRetry(input)).toMatchObject({ retry: true });
      expect(decideRetry({ ...input, elapsedMs: defaultRetryPolicy.waitTimeoutMs }).retry).toBe(false);
    }
  });

  it('gives a host that timed out one more attempt, not maxAttempts', () => {
    const timedOut = { ...base, outcome: { kind: 'network' as const, timedOut: true } };
    expect(decideRetry({ ...timedOut, attempt: 1 }).retry).toBe(true);
    expect(decideRetry({ ...timedOut, attempt: defaultRetryPolicy.maxAttemptsAfterTimeout }).retry).toBe(false);
    expect(decideRetry({ ...base, outcome: { kind: 'network' }, attempt: defaultRetryPolicy.maxAttemptsAfterTimeout }).retry).toBe(true);
  });

  it('stops after maxAttempts for transient failures', () => {
    expect(decideRetry({ ...base, attempt: defaultRetryPolicy.maxAttempts }).retry).toBe(false);
    expect(decideRetry({ ...base, attempt: defaultRetryPolicy.maxAttempts - 1 }).retry).toBe(true);
  });
});
