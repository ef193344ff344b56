import { describe, expect, it } from 'vitest';
import { pollUntil } from './poll.js';

function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
  };
}

describe('pollUntil', () => {
  it('waits 1.5 times longer each time, capped, until the check answers', async () => {
    const clock = fakeClock();
    let calls = 0;
    const value = await pollUntil(async () => (++calls === 6 ? 'ready' : undefined), { timeoutMs: 60_000, initialDelayMs: 250, maxDelayMs: 800, ...clock });
    expect(value).toBe('ready');
    expect(clock.sleeps).toEqual([250, 375, 563, 800, 800]);
  });

  it('answers undefined once the time is out, checking one last time at the deadline', async () => {
    const clock = fakeClock();
    let calls = 0;
    const value = await pollUntil(async () => void calls++, { timeoutMs: 1_000, initialDelayMs: 400, ...clock });
    expect(value).toBeUndefined();
    expect(clock.sleeps).toEqual([400, 600]);
    expect(calls).toBe(3);
  });
});
