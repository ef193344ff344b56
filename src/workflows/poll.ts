/** Polling with backoff, for waits whose end is judged by the caller (documents processed, for example). */
import { interruption } from '../cli/interrupt.js';

export interface PollOptions {
  timeoutMs: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const realSleep = (ms: number) => interruption.sleep(ms);

/**
 * Calls `check` until it answers something other than undefined, waiting a little longer each time (×1.5, capped).
 * Answers undefined when the time runs out; the last check happens no later than the deadline.
 */
export async function pollUntil<T>(check: () => Promise<T | undefined>, options: PollOptions): Promise<T | undefined> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const deadline = now() + options.timeoutMs;
  let delay = options.initialDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 2_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    const remaining = deadline - now();
    if (remaining <= 0) return undefined;
    await sleep(Math.min(delay, remaining));
    delay = Math.min(maxDelay, Math.round(delay * 1.5));
  }
}
