import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temporary folder for the whole test run, removed as it ends: the tests' own folders, and those of the esign
 * processes and emulators they start (which inherit TMPDIR: configs, spill files of hundreds of MiB), go under it.
 * Left in the system's temporary folder, some 2,500 folders a run filled this machine's disk in a few days of runs.
 */
export default function setup(): () => void {
  const runFolder = mkdtempSync(join(tmpdir(), 'esign-test-run-'));
  // Set before vitest starts its workers, which take this environment, as does every process a test starts.
  process.env.TMPDIR = runFolder;
  return () => {
    try {
      rmSync(runFolder, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      // A file system a failed test left mounted in it (test/support/tmpfs.ts) keeps its mount point.
      console.warn(`could not remove the test run's temporary folder ${runFolder}: ${(error as Error).message}`);
    }
  };
}
