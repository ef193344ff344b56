import { afterEach, describe, expect, it } from 'vitest';
import { interruption } from './interrupt.js';

afterEach(() => interruption.reset());

describe('interruption.untilInterrupted', () => {
  it('waits for the first SIGINT or SIGTERM, and answers at once when one came already', async () => {
    let stopped = false;
    const waiting = interruption.untilInterrupted().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    interruption.trigger('SIGTERM');
    await waiting;
    expect(interruption.received).toBe('SIGTERM');
    await expect(interruption.untilInterrupted()).resolves.toBeUndefined();
  });
});
