import { describe, expect, it } from 'vitest';
import { IdempotencyLedger, type IdempotencyRecord } from './idempotency-ledger.js';

const record = (createdAt: number): IdempotencyRecord => ({ fingerprint: 'f', status: 201, body: '{}', headers: {}, createdAt });

describe('IdempotencyLedger', () => {
  it('answers a record only within its window', () => {
    const ledger = new IdempotencyLedger(1000);
    ledger.set('a', record(0));
    expect(ledger.get('a', 999)).toBeDefined();
    expect(ledger.get('a', 1000)).toBeUndefined();
  });

  it('drops expired records from the front of the queue as new ones arrive, keeping the rest in order', () => {
    const ledger = new IdempotencyLedger(1000);
    for (let at = 0; at < 5000; at++) ledger.set(`k${at}`, record(at));
    // At 4999 the records of the last 1000 ms remain, the rest are gone.
    expect(ledger.size).toBe(1000);
    expect(ledger.get('k3999', 4999)).toBeUndefined();
    expect(ledger.get('k4000', 4999)).toBeDefined();
    expect([...ledger.entries()].map(([slot]) => slot)).toEqual(Array.from({ length: 1000 }, (_, index) => `k${4000 + index}`));
  });

  it('keeps the newer record of a slot that was used again after its first record expired', () => {
    const ledger = new IdempotencyLedger(1000);
    ledger.set('a', record(0));
    const newer = record(1500);
    ledger.set('a', newer);
    ledger.expire(2000);
    expect(ledger.get('a', 2000)).toBe(newer);
    expect([...ledger.entries()]).toEqual([['a', newer]]);
  });
});
