import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, probeReport, tempDir } from './support/cli.js';
import { esignOn } from './support/esign-on.js';
import { useEmulator } from './support/emulator.js';
import { simplePdf } from './support/pdfs.js';

const emulator = useEmulator(['--processing-delay', '0']);

/**
 * Written by a probe required before esign starts (NODE_OPTIONS): V8's young generation when esign holds it (the V8
 * flag it sets) and as the process exits, and every script compiled with a code cache that V8 refused.
 */
const PROBE = [
  "const v8 = require('node:v8');",
  "const vm = require('node:vm');",
  "const young = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;",
  'const seen = { held: [], refused: [] };',
  'const setFlags = v8.setFlagsFromString;',
  'v8.setFlagsFromString = function (flags) { seen.held.push(young()); return setFlags.call(this, flags); };',
  'const Script = vm.Script;',
  'vm.Script = class extends Script { constructor(code, options) { super(code, options); if (options?.cachedData && this.cachedDataRejected) seen.refused.push(options.filename); } };',
  "process.on('exit', () => process.stderr.write('seen: ' + JSON.stringify({ ...seen, atExit: young() })));",
].join('\n');

describe('batch run keeps its memory flat in the number of entries', () => {
  it('holds the young generation before it reads the entries, having loaded what it compiles with a code cache', async () => {
    const dir = tempDir('esign-batch-memory-');
    writeFileSync(join(dir, 'agreement.pdf'), await simplePdf({ pages: [['Agreement'], ['Signature: {{sign}}']] }));
    const envelope = (index: number) => ({
      ref: `e${index}`,
      title: `Memory ${index}`,
      participants: [{ ref: 'signer', name: `Signer ${index}`, email: `signer${index}@example.test` }],
      documents: [{ ref: 'agreement', file: 'agreement.pdf' }],
      fields: [{ type: 'SIGNATURE', documentRef: 'agreement', participantRef: 'signer', size: { width: 180, height: 40 }, anchor: { text: '{{sign}}' } }],
    });
    // As many entries as grew the young generation to twice its size before the first was sent (bench: batch).
    writeFileSync(join(dir, 'batch.json'), JSON.stringify({ version: 1, defaults: { via: 'send-now' }, envelopes: Array.from({ length: 500 }, (_, index) => envelope(index)) }));
    writeFileSync(join(dir, 'probe.cjs'), PROBE);
    const result = await esignOn(emulator).run(['--json', 'batch', 'run', 'batch.json', '--concurrency', '8'], { cwd: dir, env: { NODE_OPTIONS: `--require ${join(dir, 'probe.cjs')}` } });
    expect(result.code, result.stderr).toBe(0);
    expect(parseJson<{ succeeded: number }>(result.stdout).succeeded).toBe(500);
    const seen = probeReport<{ held: number[]; refused: string[]; atExit: number }>(result.stderr, 'seen: ');
    expect(seen.held).toHaveLength(1);
    expect(seen.atExit).toBe(seen.held[0]);
    // Held as it was when the program had started, not grown by reading 500 entries (16 MiB then).
    expect(seen.held[0]).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(seen.refused).toEqual([]);
  }, 60_000);
});
