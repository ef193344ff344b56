import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdempotencyLedger, type IdempotencyRecord } from './idempotency-ledger.js';

const record = (createdAt: number, body: string | undefined = '{}'): IdempotencyRecord => ({ fingerprint: 'f', status: 201, body, headers: {}, createdAt });

describe('IdempotencyLedger', () => {
  it('answers a record only within its window', () => {
    const ledger = new IdempotencyLedger(1000);
    ledger.set('s', 'a', record(0));
    expect(ledger.get('s', 'a', 999)).toEqual(record(0));
    expect(ledger.get('s', 'a', 1000)).toBeUndefined();
  });

  it('keeps the keys of each scope apart', () => {
    const ledger = new IdempotencyLedger(1000);
    ledger.set('one', 'a', record(0, '"one"'));
    expect(ledger.get('two', 'a', 0)).toBeUndefined();
    ledger.set('two', 'a', record(0, '"two"'));
    expect([ledger.get('one', 'a', 0)?.body, ledger.get('two', 'a', 0)?.body]).toEqual(['"one"', '"two"']);
    expect(ledger.size).toBe(2);
  });

  it('drops expired records from the front of the queue as new ones arrive, keeping the rest in order', () => {
    const ledger = new IdempotencyLedger(1000);
    for (let at = 0; at < 5000; at++) ledger.set('s', `k${at}`, record(at));
    // At 4999 the records of the last 1000 ms remain, the rest are gone.
    expect(ledger.size).toBe(1000);
    expect(ledger.get('s', 'k3999', 4999)).toBeUndefined();
    expect(ledger.get('s', 'k4000', 4999)).toBeDefined();
    expect([...ledger.entries()].map(([, key]) => key)).toEqual(Array.from({ length: 1000 }, (_, index) => `k${4000 + index}`));
  });

  it('keeps the newer record of a key that was used again after its first record expired', () => {
    const ledger = new IdempotencyLedger(1000);
    ledger.set('s', 'a', record(0));
    const newer = record(1500, '{"newer":true}');
    ledger.set('s', 'a', newer);
    ledger.expire(2000);
    expect(ledger.get('s', 'a', 2000)).toEqual(newer);
    expect([...ledger.entries()]).toEqual([['s', 'a', newer]]);
    expect(ledger.size).toBe(1);
  });

  it('gives back every record as it was kept: any text, headers, an empty answer, a body larger than a block', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const kept = fc.record({
      fingerprint: text,
      status: fc.integer({ min: 100, max: 599 }),
      // More than a block of text.
      body: fc.option(fc.oneof({ arbitrary: text, weight: 9 }, { arbitrary: fc.constant('é😀'.repeat(200_000)), weight: 1 }), { nil: undefined }),
      headers: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), text, { maxKeys: 3 }),
      createdAt: fc.integer({ min: 0, max: 1e12 }),
    });
    fc.assert(
      fc.property(fc.array(kept, { maxLength: 30 }), (records) => {
        const ledger = new IdempotencyLedger(Number.MAX_SAFE_INTEGER);
        records.forEach((each, index) => ledger.set('s', `k${index}`, each));
        records.forEach((each, index) => expect(ledger.get('s', `k${index}`, 0)).toEqual(each));
      }),
      { numRuns: 60 },
    );
  });

  it('gives back text of every width across many blocks, and a lone surrogate as it was', () => {
    const ledger = new IdempotencyLedger(Number.MAX_SAFE_INTEGER, 64 * 1024);
    const made: IdempotencyRecord[] = [];
    for (let at = 0; at < 3000; at++) {
      const title = at % 500 === 7 ? `lone \ud800 ${at}` : `é😀漢 ${at} `.repeat(at % 40);
      made.push({ fingerprint: `f${at}`, status: 201, body: JSON.stringify({ title }).replace('\\ud800', '\ud800'), headers: {}, createdAt: 0 });
      ledger.set('s', `k${at}`, made[at]!);
    }
    expect(ledger.heldCharacters).toBeGreaterThan(4 * 64 * 1024);
    made.forEach((each, at) => expect(ledger.get('s', `k${at}`, 0)).toEqual(each));
  });

  it('answers a replay of a record just made, and keeps answering as more records follow it', () => {
    const ledger = new IdempotencyLedger(1000);
    const made: IdempotencyRecord[] = [];
    for (let at = 0; at < 600; at++) {
      made.push({ fingerprint: `f${at}`, status: 201, body: JSON.stringify({ at, text: 'x'.repeat(at * 7) }), headers: at % 3 ? {} : { location: `/e/${at}` }, createdAt: 0 });
      ledger.set('s', `k${at}`, made[at]!);
      // Replays of the newest and of an older record, between writes.
      expect(ledger.get('s', `k${at}`, 0)).toEqual(made[at]);
      expect(ledger.get('s', `k${at >> 1}`, 0)).toEqual(made[at >> 1]);
    }
  });

  it('releases the text of expired records as the front of the queue passes them', () => {
    const ledger = new IdempotencyLedger(1000, 256 * 1024);
    const body = JSON.stringify({ text: 'x'.repeat(1000) });
    for (let at = 0; at < 20_000; at++) ledger.set('s', `k${at}`, record(at, body));
    // The last 1000 records, about 1 M characters, in at most 5 blocks of 256 Ki; 20 M were written.
    expect(ledger.heldCharacters).toBeLessThanOrEqual(5 * 256 * 1024 + body.length + 1);
    expect(ledger.get('s', 'k19999', 19_999)?.body).toBe(body);
  });
});
