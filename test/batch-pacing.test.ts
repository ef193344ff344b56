// `batch run` against an account's request ceiling: it paces itself from the RateLimit headers of the answers
// instead of running into 429s and retrying (the rate it reaches is measured by `npm run bench -- ceiling`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runEsign, tempDir } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { ndaPdf } from './support/pdfs.js';

const emulator = useEmulator(['--rate-limit', '4/s', '--processing-delay', '0']);
let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-batch-pacing-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
});

describe('batch run under --rate-limit', () => {
  it('waits for the ceiling the RateLimit headers name before sending more, and every envelope succeeds', async () => {
    const refs = ['a', 'b', 'c', 'd', 'e', 'f'];
    const field = '{ type: SIGNATURE, documentRef: nda, participantRef: p, size: { width: 150, height: 40 }, anchor: { text: "{{signature}}", occurrence: 1 } }';
    writeFileSync(
      join(dir, 'batch.yaml'),
      [
        'version: 1',
        'defaults: { via: send-now, documents: [{ ref: nda, file: nda.pdf }] }',
        'envelopes:',
        ...refs.map((ref, index) => `  - { ref: ${ref}, title: Paced ${ref}, participants: [{ ref: p, name: Person ${index}, email: p${index}@example.test }], fields: [${field}] }`),
        '',
      ].join('\n'),
    );
    const result = await runEsign(['--debug', '--json', 'batch', 'run', 'batch.yaml', '--concurrency', '6'], { cwd: dir, env: emulator.env, timeoutMs: 60_000 });
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ succeeded: refs.length });
    expect(result.stderr).toMatch(/! waiting \d+ ms for the account's request ceiling \(RateLimit headers\)/);
    const sent = result.stderr.split('\n').filter((line) => /> [A-Z]+ http\S+\/v4\//.test(line)).length;
    const refused = result.stderr.split('\n').filter((line) => line.includes('< 429')).length;
    // 12 requests over three 4-request windows: at most the few sent before the first answer named the ceiling run into it.
    expect(sent).toBeGreaterThanOrEqual(2 * refs.length);
    expect(refused).toBeLessThan(sent - 2 * refs.length + 1);
  });
});
