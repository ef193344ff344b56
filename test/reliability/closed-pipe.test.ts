import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { baseEnv, esignBin } from '../support/cli.js';

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
