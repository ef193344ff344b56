import { describe, expect, it } from 'vitest';
import { WaitError } from '../api/errors.js';
import { judgeStatus, pollDelayMs, waitForEnvelope } from './wait.js';

describe('judgeStatus', () => {
  it('reaches the status asked for', () => {
    expect(judgeStatus('COMPLETED', 'COMPLETED')).toBe('reached');
    expect(judgeStatus('VOIDED', 'VOIDED')).toBe('reached');
  });
  it('counts COMPLETED as past SENT', () => {
    expect(judgeStatus('SENT', 'COMPLETED')).toBe('reached');
  });
  it('knows when another final state means the wait can never succeed', () => {
    expect(judgeStatus('COMPLETED', 'VOIDED')).toBe('ended-elsewhere');
    expect(judgeStatus('COMPLETED', 'DECLINED')).toBe('ended-elsewhere');
    expect(judgeStatus('SENT', 'EXPIRED')).toBe('ended-elsewhere');
    expect(judgeStatus('VOIDED', 'COMPLETED')).toBe('ended-elsewhere');
  });
  it('keeps waiting on a state that can still move', () => {
    expect(judgeStatus('COMPLETED', 'SENT')).toBe('pending');
    expect(judgeStatus('SENT', 'DRAFT')).toBe('pending');
  });
});

describe('pollDelayMs', () => {
  it('starts at a second and grows to at most 15 s', () => {
    expect(pollDelayMs(1)).toBe(1_000);
    expect(pollDelayMs(2)).toBe(1_500);
    expect(pollDelayMs(3)).toBe(2_250);
    expect(pollDelayMs(50)).toBe(15_000);
  });
});

/** A fake clock: sleeping moves time forward, nothing really waits. */
function clock() {
  let now = 0;
  const slept: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      slept.push(ms);
      now += ms;
    },
    slept,
  };
}

function envelopeClient(statuses: string[]) {
  let reads = 0;
  return {
    reads: () => reads,
    call: async () => ({ status: 200, headers: {}, body: { id: 'e1', status: statuses[Math.min(reads++, statuses.length - 1)] } }),
  } as never as { reads(): number; call: import('../api/client.js').ApiClient['call'] };
}

describe('waitForEnvelope', () => {
  it('polls with backoff until the status is reached', async () => {
    const time = clock();
    const client = envelopeClient(['DRAFT', 'SENT', 'SENT', 'COMPLETED']);
    const envelope = await waitForEnvelope(client, 'e1', { until: 'COMPLETED', timeoutMs: 60_000, now: time.now, sleep: time.sleep });
    expect(envelope.status).toBe('COMPLETED');
    expect(time.slept).toEqual([1_000, 1_500, 2_250]);
  });

  it('stops with exit code 5 when the envelope ends in another final state', async () => {
    const time = clock();
    const error = await waitForEnvelope(envelopeClient(['SENT', 'VOIDED']), 'e1', { until: 'COMPLETED', timeoutMs: 60_000, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(WaitError);
    expect((error as WaitError).exitCode).toBe(5);
    expect((error as WaitError).code).toBe('ENVELOPE_ENDED_OTHERWISE');
  });

  it('gives up with exit code 7 at the timeout, after a last read at the deadline', async () => {
    const time = clock();
    const client = envelopeClient(['SENT']);
    const error = await waitForEnvelope(client, 'e1', { until: 'COMPLETED', timeoutMs: 3_000, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect((error as WaitError).exitCode).toBe(7);
    expect((error as WaitError).code).toBe('WAIT_TIMEOUT');
    expect(time.slept).toEqual([1_000, 1_500, 500]);
    expect(client.reads()).toBe(4);
  });
});
