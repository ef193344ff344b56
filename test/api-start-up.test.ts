import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, probeReport, tempDir } from './support/cli.js';
import { esignOn } from './support/esign-on.js';
import { startEmulatorProcess, useEmulator } from './support/emulator.js';

const emulator = useEmulator();

/** The probe's lines of CommonJS: it writes what the process loaded as it exits. */
const PROBE = [
  "process.on('exit', () => process.stderr.write('loaded: ' + JSON.stringify({",
  // Node's ES module loader starts on the first import() of a package.
  "  moduleLoader: process.moduleLoadList.includes('NativeModule internal/modules/esm/module_job'),",
  "  crypto: process.moduleLoadList.includes('NativeModule crypto'),",
  "  packageFiles: Object.keys(require.cache).filter((name) => name.includes('node_modules')),",
  '})));',
].join('\n');

/**
 * What `args` loaded, written by a probe required before esign starts (NODE_OPTIONS, as a user's could be) as the
 * process exits, and the run's outcome.
 */
async function loadedBy(args: readonly string[]) {
  const dir = tempDir('esign-probe-');
  writeFileSync(join(dir, 'probe.cjs'), PROBE);
  const result = await esignOn(emulator).run(args, { cwd: dir, env: { NODE_OPTIONS: `--require ${join(dir, 'probe.cjs')}` } });
  return { result, loaded: probeReport(result.stderr, 'loaded: ') };
}

describe('an API command, what it loads as it starts: only the program', () => {
  it.each([[['me']], [['envelopes', 'list']]])('esign %j: no package (cosmiconfig’s search places are esign’s own list), no module loader, no node:crypto for a GET', async (args) => {
    const { result, loaded } = await loadedBy(args);
    expect(result.code, result.stderr).toBe(0);
    expect(loaded).toEqual({ moduleLoader: false, crypto: false, packageFiles: [] });
  });

  it('a POST makes its Idempotency-Key with node:crypto, loaded then', async () => {
    const { result, loaded } = await loadedBy(['--json', 'envelopes', 'create', '--title', 'Start-up probe']);
    expect(result.code, result.stderr).toBe(0);
    expect(parseJson<{ status: string }>(result.stdout).status).toBe('DRAFT');
    expect(loaded).toEqual({ moduleLoader: false, crypto: true, packageFiles: [] });
  });
});

describe('the emulator, what it loads as it starts', () => {
  it("fastify and its dependencies from the build's script: no package file, no module loader", async () => {
    const dir = tempDir('esign-probe-');
    writeFileSync(join(dir, 'probe.cjs'), PROBE);
    const started = await startEmulatorProcess(['--no-seed'], { env: { NODE_OPTIONS: `--require ${join(dir, 'probe.cjs')}` } });
    const me = await started.fetch('/v4/api/me');
    expect(me.status).toBe(200);
    await started.stop();
    expect(probeReport(started.stderr, 'loaded: ')).toMatchObject({ moduleLoader: false, packageFiles: [] });
  });
});
