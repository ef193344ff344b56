/*
 * Issue #21, item 1: "A full disk tears the batch journal. `batch run` wrote `{"ref":"nda-25","digest":"27fdac3a45c`
 * and counted the envelope done; `--resume` then failed on it for ever."
 * Each journal record is on disk whole or not at all; a step whose record could not be written is not counted done,
 * the run says so and starts nothing more, and a resume once there is room sends every envelope exactly once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countEnvelopes } from '../support/api-call.js';
import { parseJson, runEsign, tempDir, type RunOptions } from '../support/cli.js';
import { useEmulator } from '../support/emulator.js';
import { ndaBatchSpec } from '../support/batch-spec.js';
import { ndaPdf } from '../support/pdfs.js';
import { canMountTmpfs, mountTmpfs, remount, unmount } from '../support/tmpfs.js';

const emulator = useEmulator();
const ENVELOPES = 12;
let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-journal-full-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
});

interface Summary {
  succeeded: number;
  envelopes: { ref: string; ok: boolean; status?: string; error?: { code: string; message: string } }[];
}

/**
 * Runs a batch whose journal cannot grow past a point (`full`), then resumes it with room: the journal holds whole
 * lines only, what the first run counts done is what the journal holds, and the resume sends each envelope once.
 */
async function fillThenResume(prefix: string, journal: string, full: RunOptions, makeRoom = () => {}): Promise<void> {
  const spec = `${prefix}.yaml`;
  writeFileSync(join(dir, spec), ndaBatchSpec(prefix, ENVELOPES));
  const first = await runEsign(['--json', 'batch', 'run', spec, '--journal', journal, '--concurrency', '3'], { cwd: dir, env: emulator.env, timeoutMs: 120_000, ...full });
  expect(first.code, first.stderr).not.toBe(0);
  expect(first.stderr).not.toMatch(/\n\s+at /);

  const text = readFileSync(journal, 'utf8');
  // Whole records only: the last one ends its line, and every line is JSON.
  expect(text.endsWith('\n'), text.slice(-120)).toBe(true);
  const records = text.trimEnd().split('\n').map((line) => JSON.parse(line) as { ref?: string; step?: string });
  const journalledSends = new Set(records.filter((record) => record.step === 'send').map((record) => record.ref));
  expect(journalledSends.size).toBeLessThan(ENVELOPES);

  // Counted done is exactly what the journal holds; the others say what happened.
  const summary = parseJson<{ error: { details: Summary } }>(first.stderr).error.details;
  expect(summary.envelopes.filter((envelope) => envelope.ok).map((envelope) => envelope.ref).sort()).toEqual([...journalledSends].sort());
  const unjournalled = summary.envelopes.filter((envelope) => envelope.error?.code === 'JOURNAL_UNWRITABLE');
  expect(unjournalled.length).toBeGreaterThan(0);
  for (const envelope of unjournalled) expect(envelope.error!.message).toMatch(/the .+ step was done at the service.*, but not journalled: Cannot write --journal .*The record was not kept/);
  for (const envelope of summary.envelopes.filter((candidate) => !candidate.ok && candidate.error?.code !== 'JOURNAL_UNWRITABLE')) {
    expect(envelope.error).toEqual({ code: 'NOT_STARTED', message: `not started: the journal ${journal} takes no more records` });
  }

  makeRoom();
  const resumed = await runEsign(['--json', 'batch', 'run', spec, '--journal', journal, '--resume', '--wait', 'sent'], { cwd: dir, env: emulator.env, timeoutMs: 120_000 });
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(parseJson<Summary>(resumed.stdout).envelopes.map((envelope) => envelope.status)).toEqual(Array.from({ length: ENVELOPES }, () => 'SENT'));
  expect(await countEnvelopes(emulator, `${prefix} `)).toBe(ENVELOPES);
}

describe('batch run on a journal that cannot grow', () => {
  it('under ulimit -f (EFBIG after a short write): whole records only, done means journalled, the resume sends each envelope once', { timeout: 180_000 }, async () => {
    // 3 KiB holds the header and some records, not the ~7 records of each of 12 envelopes.
    await fillThenResume('Limited', join(dir, 'limited.journal.jsonl'), { fileSizeLimitKiB: 3 });
  });

  describe.skipIf(!canMountTmpfs)('on a full file system (an 8 KiB tmpfs: a page for the lock, one for the journal; root only)', () => {
    let full: string;
    beforeAll(() => {
      full = mountTmpfs('8k');
    });
    afterAll(() => unmount(full));

    it('ENOSPC after a short write: whole records only, done means journalled, the resume sends each envelope once', { timeout: 180_000 }, async () => {
      // Room made as a person would: the file system grows (here remounted larger), and the run is resumed.
      await fillThenResume('Full', join(full, 'full.journal.jsonl'), {}, () => remount(full, 'size=1m'));
    });
  });
});
