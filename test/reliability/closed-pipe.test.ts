import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { baseEnv, esignBin } from '../support/cli.js';
import { useEmulator } from '../support/emulator.js';
import { createDraft } from '../support/envelope-flow.js';

describe('a reader that leaves early (| head)', () => {
  it('ends esign quietly with exit 0, no EPIPE trace', () => {
    // head leaves after its first line while esign is still writing the rest of the help.
    for (let run = 0; run < 3; run++) {
      const result = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${esignBin}" emulator --help | head -1 > /dev/null`], { env: baseEnv(), encoding: 'utf8' });
      expect(result.stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
      expect(result.status).toBe(0);
    }
  });
});

describe.skipIf(!existsSync('/dev/full'))('a stdout that cannot take the output (a full disk: /dev/full)', () => {
  const emulator = useEmulator();

  it.each([
    [['envelopes', 'get', 'ENVELOPE', '--json']],
    [['envelopes', 'list']],
    [['envelopes', 'list', '--all', '--jsonl']],
    [['api', 'listEnvelopes', '--paginate']],
  ])('fails %j with exit 1 and OUTPUT_LOST on stderr, never exit 0 or a trace', async (args) => {
    const envelope = await createDraft(emulator, { title: 'Lost output' });
    const command = [esignBin, ...args.map((arg) => (arg === 'ENVELOPE' ? envelope.id : arg))].map((part) => `"${part}"`).join(' ');
    const result = spawnSync('bash', ['-c', `"${process.execPath}" ${command} > /dev/full`], { env: baseEnv(emulator.env), encoding: 'utf8' });
    expect(result.stderr).toMatch(/OUTPUT_LOST.+The output could not be written to stdout \(ENOSPC\)/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.status).toBe(1);
  });

  it.each([['--help'], ['--version'], ['-h'], ['-v']])('fails esign %s (answered without the program) with exit 1 and OUTPUT_LOST, not an unhandled error trace', (flag) => {
    const result = spawnSync('bash', ['-c', `"${process.execPath}" "${esignBin}" ${flag} > /dev/full`], { env: baseEnv(), encoding: 'utf8' });
    expect(result.stderr).toMatch(/OUTPUT_LOST.+The output could not be written to stdout \(ENOSPC\)/);
    expect(result.stderr).not.toMatch(/Unhandled|\n\s+at /);
    expect(result.status).toBe(1);
  });
});
