import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The promise (SECURITY.md, "Interrupts"): whatever is in flight, esign has ended within a second of the first signal. */
export const SIGNAL_EXIT_BOUND_MS = 1_000;

/**
 * Sends `signal` and measures, on the monotonic clock, how long the process took to end: to its exit, not to the
 * close of its output pipes, which a loaded machine can hold back. Answers its exit code too.
 */
export async function signalAndTimeExit(child: ChildProcess, signal: NodeJS.Signals): Promise<{ code: number | null; exitMs: number }> {
  if (child.exitCode !== null) throw new Error(`the process ended (exit ${child.exitCode}) before it was sent ${signal}`);
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: performance.now() })));
  const sent = performance.now();
  child.kill(signal);
  const { code, at } = await exited;
  return { code, exitMs: at - sent };
}

/** CPU seconds (user and system, every thread) a running process has used: /proc/<pid>/stat, in clock ticks of 1/100 s. */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the name in parentheses: the state is field 3; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Resolves once the process has worked `seconds` more of CPU time from now: it is then busy with the work under test
 * (reading a PDF), whatever the load of the machine makes of wall time.
 */
export async function busyFor(child: ChildProcess, seconds: number, timeoutMs = 60_000): Promise<void> {
  const from = cpuSecondsOf(child.pid!);
  for (const deadline = Date.now() + timeoutMs; cpuSecondsOf(child.pid!) - from < seconds; ) {
    if (child.exitCode !== null) throw new Error(`the process ended (exit ${child.exitCode}) before it had worked ${seconds} s`);
    if (Date.now() > deadline) throw new Error(`the process did not work ${seconds} s of CPU within ${timeoutMs} ms`);
    await sleep(50);
  }
}

