/**
 * A lock beside a file that several esign processes update (a batch journal, config.json, credentials.json): a file
 * naming the holding process, published with link() so that of two processes taking it at once one fails. The lock of
 * a process that is gone (killed with -9) is taken over; one held by a process on another machine (a folder shared
 * over the network) cannot be looked at and counts as held.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { UsageError } from '../core/errors.js';
import { interruption } from '../core/interrupt.js';
import { writeFileAtomic } from './atomic-file.js';

export interface LockHolder {
  pid: number;
  host: string;
}

async function readHolder(lockPath: string): Promise<LockHolder | undefined> {
  try {
    const holder = JSON.parse(await readFile(lockPath, 'utf8')) as Partial<LockHolder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string' ? { pid: holder.pid, host: holder.host } : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How a holder is named in a message: `process 123`, or `process 123 on build-agent-7`. */
export function holderText(holder: LockHolder): string {
  return `process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}`;
}

const POLL_MS = 25;

/**
 * Takes the lock at `lockPath`, waiting up to `waitMs` for another process to release it; past that, throws what
 * `busy` makes of the holder (undefined when the lock cannot be read). Resolves to the release, which removes the lock
 * only while it is still this process's own.
 */
export async function acquireFileLock(lockPath: string, options: { waitMs: number; busy: (holder: LockHolder | undefined) => Error }): Promise<() => Promise<void>> {
  const content = JSON.stringify({ pid: process.pid, host: hostname() });
  const deadline = Date.now() + options.waitMs;
  for (let tookOver = false; ; ) {
    try {
      await writeFileAtomic(lockPath, content, { mode: 0o600, label: `the lock ${lockPath}` });
      break;
    } catch (error) {
      if (!(error instanceof UsageError && error.code === 'OUTPUT_EXISTS')) throw error;
    }
    const holder = await readHolder(lockPath);
    if (holder && !isRunning(holder) && !tookOver) {
      // Its process is gone: the lock is stale. Taken over once; another stale lock in its place is another process's.
      tookOver = true;
      await unlink(lockPath).catch(() => {});
      continue;
    }
    if (Date.now() >= deadline) throw options.busy(holder);
    // Ctrl-C ends the wait at once (InterruptedError), not when the lock is released or the wait runs out.
    await interruption.sleep(POLL_MS);
  }
  const ours = () => readFileSync(lockPath, 'utf8') === content;
  const unregister = interruption.onForcedExit(() => {
    if (ours()) unlinkSync(lockPath);
  });
  return async () => {
    unregister();
    if (await readFile(lockPath, 'utf8').then((text) => text === content, () => false)) await unlink(lockPath).catch(() => {});
  };
}
