/**
 * What `batch run` shows while it works: off a terminal (a CI log) one plain line per event; on a terminal a bar for
 * the batch and one line per envelope in flight, redrawn in place and gone when the run ends.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEsign, tempDir } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { ndaPdf } from './support/pdfs.js';
import { terminalWith, tmuxBinary, type Terminal } from './support/terminal.js';

const emulator = useEmulator(['--processing-delay', '200']);
let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-batch-progress-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
});

function batchOf(prefix: string, refs: readonly string[]): string {
  return [
    'version: 1',
    'defaults:',
    '  documents: [{ ref: nda, file: nda.pdf }]',
    'envelopes:',
    ...refs.flatMap((ref, index) => [
      `  - ref: ${ref}`,
      `    title: ${prefix} ${ref}`,
      ...(index === 1 ? ['    via: send-now'] : []),
      `    participants: [{ ref: p, name: Person ${index}, email: p${index}@example.test }]`,
      '    fields: [{ type: SIGNATURE, documentRef: nda, participantRef: p, size: { width: 150, height: 40 }, anchor: { text: "{{signature}}", occurrence: 1 } }]',
    ]),
    '',
  ].join('\n');
}

describe('batch run progress', () => {
  it('off a terminal: one plain log line per event, in a stable wording, no escape sequences', async () => {
    writeFileSync(join(dir, 'plain.yaml'), batchOf('Plain', ['a', 'b', 'c']));
    const result = await runEsign(['batch', 'run', 'plain.yaml', '--concurrency', '2'], { cwd: dir, env: emulator.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/[\r\u001b]/);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('Running 3 envelopes, 2 at a time; journal plain.yaml.journal.jsonl');
    const id = '[0-9a-f-]{36}';
    // Per envelope, in its own order (envelopes interleave): created, uploaded, sent.
    for (const [ref, created] of [
      ['a', 'created'],
      ['b', 'created \\(send-now\\)'],
      ['c', 'created'],
    ] as const) {
      const own = lines.filter((line) => line.startsWith(`${ref}: `));
      expect(own.length, own.join('\n')).toBe(ref === 'b' ? 2 : 3);
      expect(own[0]).toMatch(new RegExp(`^${ref}: envelope ${id} ${created}$`));
      expect(own[1]).toBe(`${ref}: uploaded nda.pdf`);
      if (ref !== 'b') expect(own[2]).toMatch(new RegExp(`^${ref}: envelope ${id} sent$`));
    }
    expect(lines).toHaveLength(1 + 3 + 2 + 3);
    expect(result.stdout.trimEnd().split('\n').map((line) => line.split(/\s+/)[1])).toEqual(['a', 'b', 'c']);
  });

  describe.skipIf(!tmuxBinary)('on a terminal', () => {
    let terminal: Terminal | undefined;
    afterAll(() => terminal?.stop());

    it('shows a total bar and one line per envelope in flight, then clears them', { timeout: 90_000 }, async () => {
      writeFileSync(join(dir, 'tty.yaml'), batchOf('Tty', ['x', 'y', 'z']));
      terminal = terminalWith(emulator.env);
      // --wait completed and nobody signs yet: all three stay in flight, waiting.
      terminal.run(['batch', 'run', 'tty.yaml', '--concurrency', '3', '--wait', 'completed'], dir);
      const waiting = await terminal.waitFor(/(› [xyz]: waiting until completed[^\n]*\n\s*){3}/);
      expect(waiting).toMatch(/░+ 0\/3 done · 3 in flight/);
      // Each event line once, above the block; the block itself once.
      expect(waiting.match(/done · \d in flight/g)).toHaveLength(1);
      const sent = [...waiting.matchAll(/^([xyz]): envelope ([0-9a-f-]{36}) (?:sent|created \(send-now\))$/gm)].map((match) => match[2]!);
      expect(new Set(sent).size).toBe(3);
      for (const envelopeId of sent) {
        const signed = await runEsign(['emulator', 'sign', envelopeId], { env: emulator.env });
        expect(signed.code, signed.stderr).toBe(0);
      }
      const finished = await terminal.waitFor(/EXIT=\d+/, 60_000);
      expect(finished).toContain('EXIT=0');
      expect(finished).not.toMatch(/in flight|waiting until/);
      expect(finished).toMatch(/✓ x\s+[0-9a-f-]{36} COMPLETED/);
    });
  });
});
