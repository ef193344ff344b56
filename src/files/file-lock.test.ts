import { mkdtempSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { interruption, InterruptedError } from '../core/interrupt.js';
import { acquireFileLock } from './file-lock.js';

afterEach(() => interruption.reset());

describe('acquireFileLock', () => {
  it('stops waiting for a lock another process holds when interrupted, rather than when the wait runs out', async () => {
    const lockPath = join(mkdtempSync(join(tmpdir(), 'esign-lock-')), 'config.json.lock');
    // Held by a process that runs (this one), so it is waited for, not taken over.
    writeFileSync(lockPath, JSON.stringify({ pid: process.pid, host: hostname() }));
    const waiting = acquireFileLock(lockPath, { waitMs: 60_000, busy: () => new UsageError('still held after the wait') });
    setTimeout(() => interruption.trigger('SIGINT'), 50);
    expect(await waiting.catch((caught: unknown) => caught)).toBeInstanceOf(InterruptedError);
  });
});
