import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, WaitError } from '../core/errors.js';
import { documentBackoff, envelopeBackoff, judgeStatus, outageLimits, pollDelayMs, pollUntil, waitForEnvelope, warnOnOutage } from './wait.js';

/** A fake clock: sleeping moves time forward, nothing really waits. */
function fakeClock() {
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

describe('pollDelayMs', () => {
  it('grows 1.5 times each poll from the first delay to the cap', () => {
    expect([1, 2, 3, 50].map((poll) => pollDelayMs(poll, envelopeBackoff))).toEqual([1_000, 1_500, 2_250, 15_000]);
    expect([1, 2, 3, 4, 50].map((poll) => pollDelayMs(poll, documentBackoff))).toEqual([250, 375, 563, 844, 2_000]);
  });
});

describe('pollUntil', () => {
  it('waits 1.5 times longer each time, capped, until the check answers', async () => {
    const clock = fakeClock();
    let calls = 0;
    const value = await pollUntil(async () => (++calls === 6 ? 'ready' : undefined), { timeoutMs: 60_000, backoff: { firstDelayMs: 250, maxDelayMs: 800 }, ...clock });
    expect(value).toBe('ready');
    expect(clock.slept).toEqual([250, 375, 563, 800, 800]);
  });

  it('answers undefined once the time is out, checking one last time at the deadline', async () => {
    const clock = fakeClock();
    let calls = 0;
    const value = await pollUntil(async () => void calls++, { timeoutMs: 1_000, backoff: { firstDelayMs: 400, maxDelayMs: 2_000 }, ...clock });
    expect(value).toBeUndefined();
    expect(clock.slept).toEqual([400, 600]);
    expect(calls).toBe(3);
  });

  it('polls again after a failure it is told to tolerate, and forgets it once a later check answers', async () => {
    const clock = fakeClock();
    const answers = [new Error('flaky'), new Error('flaky'), undefined, 'ready'];
    const value = await pollUntil(
      async () => {
        const answer = answers.shift();
        if (answer instanceof Error) throw answer;
        return answer;
      },
      { timeoutMs: 60_000, pollAgainAfter: (error) => (error as Error).message === 'flaky', ...clock },
    );
    expect(value).toBe('ready');
    expect(clock.slept).toHaveLength(3);
  });

  it('throws a tolerated failure when the time runs out right after it', async () => {
    const clock = fakeClock();
    let calls = 0;
    const failure = new Error('flaky');
    const outcome = pollUntil(
      async () => {
        if (++calls === 3) throw failure;
        return undefined;
      },
      { timeoutMs: 1_000, backoff: { firstDelayMs: 400, maxDelayMs: 2_000 }, pollAgainAfter: () => true, ...clock },
    );
    await expect(outcome).rejects.toBe(failure);
    expect(calls).toBe(3);
  });

  it('ends the wait at once on a failure it is not told to tolerate', async () => {
    const clock = fakeClock();
    const outcome = pollUntil(
      async () => {
        throw new Error('refused');
      },
      { timeoutMs: 60_000, pollAgainAfter: (error) => (error as Error).message === 'flaky', ...clock },
    );
    await expect(outcome).rejects.toThrow('refused');
    expect(clock.slept).toEqual([]);
  });

  it('stops mid-sleep when the signal fires, with the signal reason', async () => {
    const controller = new AbortController();
    const reason = new Error('interrupted');
    let calls = 0;
    // The real sleep: an hour, cut short by the signal after the first check.
    const outcome = pollUntil(
      async () => {
        calls++;
        setImmediate(() => controller.abort(reason));
        return undefined;
      },
      { timeoutMs: 86_400_000, backoff: { firstDelayMs: 3_600_000, maxDelayMs: 3_600_000 }, signal: controller.signal },
    );
    await expect(outcome).rejects.toBe(reason);
    expect(calls).toBe(1);
  });

  it('does not tolerate a failure once the signal fired', async () => {
    const controller = new AbortController();
    controller.abort(new Error('interrupted'));
    const failure = new Error('aborted request');
    const outcome = pollUntil(
      async () => {
        throw failure;
      },
      { timeoutMs: 60_000, pollAgainAfter: () => true, signal: controller.signal, ...fakeClock() },
    );
    await expect(outcome).rejects.toThrow('interrupted');
  });
});

describe('pollUntil through an outage (every check failing with a tolerated failure)', () => {
  const halfHour = 30 * 60_000;

  it('warns once when it has lasted warnAfterMs, then gives up at giveUpAfterMs with the failure, not at the timeout', async () => {
    const clock = fakeClock();
    const warnings: { sinceMs: number; giveUpAtMs: number; at: number }[] = [];
    const outcome = pollUntil(
      async () => {
        throw new NetworkError('connect ECONNREFUSED 127.0.0.1:4010');
      },
      { timeoutMs: halfHour, pollAgainAfter: (error) => error instanceof NetworkError, onOutage: (_error, outage) => warnings.push({ ...outage, at: clock.now() }), ...clock },
    );
    const error = await outcome.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(7);
    expect((error as NetworkError).message).toMatch(/ECONNREFUSED.*Every check failed for 2m.*stopped waiting/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.sinceMs).toBe(0);
    expect(warnings[0]!.giveUpAtMs).toBe(outageLimits.giveUpAfterMs);
    expect(warnings[0]!.at).toBeGreaterThanOrEqual(outageLimits.warnAfterMs);
    expect(warnings[0]!.at).toBeLessThan(outageLimits.warnAfterMs + documentBackoff.maxDelayMs);
    expect(clock.now()).toBeGreaterThanOrEqual(outageLimits.giveUpAfterMs);
    expect(clock.now()).toBeLessThan(outageLimits.giveUpAfterMs + documentBackoff.maxDelayMs);
  });

  it('keeps the exit code of a service that answers 503 throughout', async () => {
    const outcome = pollUntil(
      async () => {
        throw new ApiError(503, 'UNAVAILABLE', 'Service unavailable');
      },
      { timeoutMs: halfHour, pollAgainAfter: () => true, ...fakeClock() },
    );
    const error = await outcome.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).exitCode).toBe(6);
    expect((error as ApiError).message).toContain('stopped waiting');
  });

  it('counts only failures in a row: a check that answers between two blips starts the count again', async () => {
    const clock = fakeClock();
    let warned = 0;
    const value = await pollUntil(
      async () => {
        const t = clock.now();
        if (t > 200_000) return 'ready';
        if (t < 100_000 || t > 105_000) throw new NetworkError('connect ECONNREFUSED');
        return undefined;
      },
      { timeoutMs: halfHour, pollAgainAfter: () => true, onOutage: () => warned++, ...clock },
    );
    expect(value).toBe('ready');
    expect(warned).toBe(2);
  });
});

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

/** Answers the statuses in turn (the last one from then on); an Error in the list is thrown by that read instead. */
function envelopeClient(statuses: (string | Error)[]) {
  let reads = 0;
  return {
    reads: () => reads,
    call: async () => {
      const answer = statuses[Math.min(reads++, statuses.length - 1)];
      if (answer instanceof Error) throw answer;
      return { status: 200, headers: {}, body: { id: 'e1', status: answer } };
    },
  } as never as { reads(): number; call: import('../api/client.js').ApiClient['call'] };
}

describe('waitForEnvelope', () => {
  it('polls with backoff until the status is reached', async () => {
    const time = fakeClock();
    const client = envelopeClient(['DRAFT', 'SENT', 'SENT', 'COMPLETED']);
    const envelope = await waitForEnvelope(client, 'e1', { until: 'COMPLETED', timeoutMs: 60_000, now: time.now, sleep: time.sleep });
    expect(envelope.status).toBe('COMPLETED');
    expect(time.slept).toEqual([1_000, 1_500, 2_250]);
  });

  it('stops with exit code 5 when the envelope ends in another final state', async () => {
    const time = fakeClock();
    const error = await waitForEnvelope(envelopeClient(['SENT', 'VOIDED']), 'e1', { until: 'COMPLETED', timeoutMs: 60_000, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(WaitError);
    expect((error as WaitError).exitCode).toBe(5);
    expect((error as WaitError).code).toBe('ENVELOPE_ENDED_OTHERWISE');
  });

  it('gives up with exit code 7 at the timeout, after a last read at the deadline', async () => {
    const time = fakeClock();
    const client = envelopeClient(['SENT']);
    const error = await waitForEnvelope(client, 'e1', { until: 'COMPLETED', timeoutMs: 3_000, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect((error as WaitError).exitCode).toBe(7);
    expect((error as WaitError).code).toBe('WAIT_TIMEOUT');
    expect((error as WaitError).details).toMatchObject({ status: 'SENT', waitedMs: 3_000 });
    expect(time.slept).toEqual([1_000, 1_500, 500]);
    expect(client.reads()).toBe(4);
  });

  it('outlasts a dropped link or a 503 whose retries were spent: the next poll reads again', async () => {
    const time = fakeClock();
    const client = envelopeClient(['SENT', new NetworkError('socket hang up'), new ApiError(503, 'SERVICE_UNAVAILABLE', 'down'), new ApiError(429, 'RATE_LIMITED', 'slow down'), 'COMPLETED']);
    const envelope = await waitForEnvelope(client, 'e1', { until: 'COMPLETED', timeoutMs: 60_000, now: time.now, sleep: time.sleep });
    expect(envelope.status).toBe('COMPLETED');
    expect(client.reads()).toBe(5);
  });

  it('ends at once on a failure of the request itself (404), and throws a transient one left at the deadline', async () => {
    const gone = await waitForEnvelope(envelopeClient(['SENT', new ApiError(404, 'RESOURCE_NOT_FOUND', 'no such envelope'), 'COMPLETED']), 'e1', { until: 'COMPLETED', timeoutMs: 60_000, ...fakeClock() }).catch((e) => e);
    expect((gone as ApiError).status).toBe(404);

    const down = await waitForEnvelope(envelopeClient(['SENT', new NetworkError('connect ECONNREFUSED')]), 'e1', { until: 'COMPLETED', timeoutMs: 3_000, ...fakeClock() }).catch((e) => e);
    expect(down).toBeInstanceOf(NetworkError);
  });
});

describe('warnOnOutage', () => {
  it('warns what the wait is for, since when and until when, with the failure made visible', () => {
    const warned: string[] = [];
    const since = Date.UTC(2026, 10, 26, 9, 0, 0);
    warnOnOutage({ warn: (message) => warned.push(message) }, 'envelope e-1')(new Error('connect ECONNREFUSED\u001b[2J.'), { sinceMs: since, giveUpAtMs: since + 120_000 });
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^Waiting for envelope e-1: no answer from the service since \d\d:\d\d:00 \(connect ECONNREFUSED\\u001b\[2J\); still trying until \d\d:\d\d:00, then giving up\.$/);
  });
});
