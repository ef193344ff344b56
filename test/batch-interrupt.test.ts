/**
 * SIGINT and SIGTERM during `batch run`: the run stops promptly (in-flight requests, uploads and polls included), says
 * how to resume, leaves a journal of whole lines, exits 130/143; a `--resume` then sends every envelope exactly once.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, countEnvelopes, expectStatus } from './support/api-call.js';
import { parseJson, runEsign, startEsign, tempDir } from './support/cli.js';
import { useEmulator, withEmulator } from './support/emulator.js';
import { ndaBatchSpec } from './support/batch-spec.js';
import { ndaPdf } from './support/pdfs.js';

// Slow processing: when the signal comes, workers are polling, not between steps.
const emulator = useEmulator(['--processing-delay', '400']);
let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-batch-interrupt-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
});

async function journalLines(path: string, atLeast: number): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 20) {
    if (existsSync(path) && readFileSync(path, 'utf8').split('\n').length > atLeast) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the journal ${path} never reached ${atLeast} lines`);
}

describe('batch run interrupted', () => {
  it.each([
    ['SIGINT', 130, 'Interrupted'],
    ['SIGTERM', 143, 'Terminated'],
  ] as const)('%s stops promptly with exit %i, the journal whole and the resume command printed; --resume sends each envelope exactly once', { timeout: 180_000 }, async (signal, exitCode, prefix) => {
    const file = `${signal}.yaml`;
    writeFileSync(join(dir, file), ndaBatchSpec(prefix, 20));
    const journal = join(dir, `${file}.journal.jsonl`);
    // --wait completed, and nobody signs: the workers whose envelope is sent poll its status (every 1 s to 15 s).
    const report = `report ${signal}.xml`;
    const running = startEsign(['batch', 'run', file, '--concurrency', '4', '--wait', 'completed', '--report', report], { cwd: dir, env: emulator.env, timeoutMs: 120_000 });
    await journalLines(journal, 6);
    for (let waited = 0; waited < 30_000 && !/ sent\n/.test(running.stderr); waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const signalled = Date.now();
    running.child.kill(signal);
    const stopped = await running.result;
    // Promptly, by itself: main.ts's forced exit after 750 ms would print no summary.
    expect(Date.now() - signalled).toBeLessThan(4_000);
    expect(stopped.code, stopped.stderr).toBe(exitCode);
    const tally = /Stopped: (\d+) of 20 envelopes done, 0 failed, 0 errors, (\d+) skipped; the journal .* records every step completed/.exec(stopped.stderr);
    expect(tally, stopped.stderr).not.toBeNull();
    // Counted as the report counts them: what the signal stopped is skipped there and here, never "failed".
    expect(readFileSync(join(dir, report), 'utf8')).toMatch(new RegExp(`<testsuite [^>]*tests="20" failures="0" errors="0" skipped="${tally![2]}"`));
    expect(Number(tally![1]) + Number(tally![2])).toBe(20);
    // A person reads the tally, not every envelope's outcome (that is for --json and --verbose).
    expect(stopped.stderr).not.toContain('envelopes:');
    // The same run, continued: its options (a quoted report name, --force as the report now exists), then --resume.
    expect(stopped.stderr).toContain(`Continue with: esign batch run ${file} --wait completed --report '${report}' --force --resume`);
    // The report is written on the way out: a CI step that uploads it whatever happened finds every envelope.
    const cases = readFileSync(join(dir, report), 'utf8').match(/<testcase /g) ?? [];
    expect(cases).toHaveLength(20);
    expect(readFileSync(join(dir, report), 'utf8')).toContain('INTERRUPTED');
    // Those not started were stopped by the signal, whatever other option could also stop a run.
    expect(readFileSync(join(dir, report), 'utf8')).toContain(`NOT_STARTED: not started: ${signal} stopped the run`);
    expect(stopped.stderr).not.toMatch(/\n\s+at /);

    // Every line of the journal is whole JSON; the run stopped before finishing everything.
    const lines = readFileSync(journal, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    const records = lines.map((line) => JSON.parse(line) as { ref?: string; step?: string });
    expect(records[0]).toEqual({ journal: 'esign batch', version: 1, startedAt: expect.any(String) });
    expect(records.filter((record) => record.step === 'send').length).toBeLessThan(20);

    const resumed = await runEsign(['--json', 'batch', 'run', file, '--resume', '--wait', 'sent'], { cwd: dir, env: emulator.env, timeoutMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const summary = parseJson<{ envelopes: { ref: string; status: string }[] }>(resumed.stdout);
    expect(summary.envelopes.map((envelope) => envelope.status)).toEqual(Array.from({ length: 20 }, () => 'SENT'));
    expect(await countEnvelopes(emulator, `${prefix} `)).toBe(20);
  });
});

describe('batch run with a relative deadline (7d)', () => {
  const ids = (text: string) => parseJson<{ envelopes: { envelopeId: string }[] }>(text).envelopes.map((envelope) => envelope.envelopeId);

  it('a resume repeats a request whose answer was lost with the same body: the deadline counts from the envelope\'s creation', { timeout: 60_000 }, async () => {
    writeFileSync(join(dir, 'relative.yaml'), ndaBatchSpec('Relative', 3, '7d'));
    const journal = join(dir, 'relative.yaml.journal.jsonl');
    const first = await runEsign(['--json', 'batch', 'run', 'relative.yaml'], { cwd: dir, env: emulator.env });
    expect(first.code, first.stderr).toBe(0);
    // As if the run died just after sending every request, before journalling any answer.
    writeFileSync(journal, `${readFileSync(journal, 'utf8').split('\n')[0]}\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const resumed = await runEsign(['--json', 'batch', 'run', 'relative.yaml', '--resume'], { cwd: dir, env: emulator.env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(ids(resumed.stdout)).toEqual(ids(first.stdout));
    expect(await countEnvelopes(emulator, 'Relative ')).toBe(3);
    const envelope = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${ids(first.stdout)[0]}`), 200).body;
    expect(Date.parse(envelope.deadline) - Date.parse(envelope.createdAt)).toBe(7 * 24 * 3600_000);
  });

  it('a fresh run without the first run\'s journal (a CI retry on a new runner) finds the same envelopes: exit 0, none twice, and says so', { timeout: 60_000 }, async () => {
    writeFileSync(join(dir, 'lost.yaml'), ndaBatchSpec('Lost', 2, '14d'));
    const first = await runEsign(['--json', 'batch', 'run', 'lost.yaml'], { cwd: dir, env: emulator.env });
    expect(first.code, first.stderr).toBe(0);
    rmSync(join(dir, 'lost.yaml.journal.jsonl'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await runEsign(['--json', 'batch', 'run', 'lost.yaml'], { cwd: dir, env: emulator.env });
    expect(again.code, again.stderr).toBe(0);
    expect(ids(again.stdout)).toEqual(ids(first.stdout));
    expect(again.stderr).toContain('2 of 2 envelopes come from an earlier run of the same specs; nothing new was created for them. To send new envelopes, give the run an id of its own: --run-id <id>');
    expect(await countEnvelopes(emulator, 'Lost ')).toBe(2);
    const envelope = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${ids(first.stdout)[0]}`), 200).body;
    expect(Date.parse(envelope.deadline) - Date.parse(envelope.createdAt)).toBe(14 * 24 * 3600_000);
  });
});

describe('batch run: one run per journal', () => {
  it('a second run on a journal in use (--resume or --force) is refused with exit 2 and leaves the journal to the first', { timeout: 120_000 }, async () => {
    // Documents stay PROCESSING for 1.5 s here: the first run is still under way (4 rounds of 2) whatever the load
    // on the machine, while the second runs start and are refused.
    await withEmulator(['--processing-delay', '1500'], async (emulator) => {
      writeFileSync(join(dir, 'shared.yaml'), ndaBatchSpec('Shared', 8));
      const journal = join(dir, 'shared.yaml.journal.jsonl');
      const first = startEsign(['batch', 'run', 'shared.yaml', '--concurrency', '2', '--wait', 'sent'], { cwd: dir, env: emulator.env, timeoutMs: 120_000 });
      await journalLines(journal, 3);
      for (const flag of ['--resume', '--force']) {
        const second = await runEsign(['batch', 'run', 'shared.yaml', flag], { cwd: dir, env: emulator.env });
        expect(second.code, second.stderr).toBe(2);
        expect(second.stderr).toMatch(/The journal .*shared\.yaml\.journal\.jsonl is in use by another esign batch run \(process \d+\)/);
      }
      const done = await first.result;
      expect(done.code, done.stderr).toBe(0);
      expect(existsSync(`${journal}.lock`)).toBe(false);
      expect(await countEnvelopes(emulator, 'Shared ')).toBe(8);
      const records = readFileSync(journal, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { step?: string });
      expect(records.filter((record) => record.step === 'send')).toHaveLength(8);
    });
  });
});
