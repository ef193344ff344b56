import { describe, expect, it } from 'vitest';
import { RatePacer } from './rate-pacer.js';

/** Sends `count` requests from nowMs as the client does (each waits, asks again, and goes): when each goes. */
function sendTimes(pacer: RatePacer, nowMs: number, count: number): number[] {
  return Array.from({ length: count }, () => {
    let at = nowMs;
    for (let wait = pacer.wait(at); wait > 0; wait = pacer.wait(at)) at += wait;
    pacer.send(at);
    return at;
  });
}

describe('RatePacer', () => {
  it('holds nothing back before the service has named a ceiling', () => {
    expect(sendTimes(new RatePacer(), 0, 100).every((at) => at === 0)).toBe(true);
  });

  it('sends no more than RateLimit-Limit in any window of RateLimit-Reset seconds (plus a small margin)', () => {
    const pacer = new RatePacer();
    pacer.observe(0, { status: 200, limit: '10', reset: '1' });
    const times = sendTimes(pacer, 0, 35);
    expect(times.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(times.slice(10, 20)).toEqual(Array(10).fill(1050));
    expect(times.slice(20, 30)).toEqual(Array(10).fill(2100));
    for (const [index, at] of times.entries()) expect(times.filter((other) => other >= at && other < at + 1000).length, `from request ${index}`).toBeLessThanOrEqual(10);
  });

  it('counts requests sent before the ceiling was known', () => {
    const pacer = new RatePacer();
    sendTimes(pacer, 0, 4);
    pacer.observe(10, { status: 200, limit: '5', reset: '1' });
    expect(sendTimes(pacer, 10, 3)).toEqual([10, 1050, 1050]);
  });

  it('takes the longest reset seen as the window', () => {
    const pacer = new RatePacer();
    pacer.observe(0, { status: 200, limit: '2', reset: '60' });
    pacer.observe(0, { status: 200, limit: '2', reset: '1' });
    expect(sendTimes(pacer, 0, 3)).toEqual([0, 0, 63_000]);
  });

  it("after a 429 holds every request back until its Retry-After (else its RateLimit-Reset)", () => {
    const pacer = new RatePacer();
    pacer.observe(100, { status: 429, limit: '1000', reset: '1', retryAfter: '2' });
    expect(sendTimes(pacer, 150, 3)).toEqual([2100, 2100, 2100]);
    const withoutRetryAfter = new RatePacer();
    withoutRetryAfter.observe(0, { status: 429, limit: '1000', reset: '3' });
    expect(withoutRetryAfter.wait(0)).toBe(3000);
  });

  it('ignores headers it cannot read', () => {
    const pacer = new RatePacer();
    pacer.observe(0, { status: 200, limit: 'many', reset: '1' });
    pacer.observe(0, { status: 200, limit: '0', reset: '1' });
    pacer.observe(0, { status: 429, limit: '5', reset: 'soon' });
    expect(sendTimes(pacer, 0, 20).every((at) => at === 0)).toBe(true);
  });
});
