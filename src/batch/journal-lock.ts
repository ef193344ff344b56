/**
 * One run per journal. Two runs on one journal append interleaved records and work on the same envelopes at once (one
 * syncing participants while the other places fields), so each failed half of its envelopes and reported ids that no
 * longer existed. The lock is a file beside the journal naming the run's process; the lock of a process that is gone
 * (killed with -9) is taken over.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { UsageError } from '../api/errors.js';
import { interruption } from '../cli/interrupt.js';
import { writeFileAtomic } from '../output/atomic-file.js';

interface LockHolder {
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

/** A process on another machine (a journal on a shared folder) cannot be looked at: it counts as running. */
function isRunning(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the journal's lock, or refuses (exit 2) while another run holds it; resolves to the release. */
export async function lockJournal(journalPath: string): Promise<() => Promise<void>> {
  const lockPath = `${journalPath}.lock`;
  const content = JSON.stringify({ pid: process.pid, host: hostname() });
  for (let attempt = 0; ; attempt++) {
    try {
      // Published with link(): of two runs starting at once, one gets OUTPUT_EXISTS.
      await writeFileAtomic(lockPath, content, { mode: 0o600, label: `the journal lock ${lockPath}` });
      break;
    } catch (error) {
      if (!(error instanceof UsageError && error.code === 'OUTPUT_EXISTS')) throw error;
    }
    const holder = await readHolder(lockPath);
    if (attempt > 0 || !holder || isRunning(holder)) {
      throw new UsageError(
        `The journal ${journalPath} is in use by another esign batch run${holder ? ` (process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`})` : ''}.`,
        `Wait for that run to end, or stop it. If no run is going on, remove ${lockPath}.`,
        'JOURNAL_IN_USE',
      );
    }
    // Its process is gone: the lock is stale.
    await unlink(lockPath).catch(() => {});
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
