// What `npm pack` ships, installed the way a user installs it (`npm install -g` into a prefix of its own), runs under
// the Node that runs this test: CI runs this file under Node 20 and again under Node 24 (scripts/fetch-node.mjs), so
// the engines range ">=20.19" is proven at both ends.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, repoRoot, runEsign, tempDir } from './support/cli.js';
import { startEmulatorProcess, type EmulatorProcess } from './support/emulator.js';
import { simplePdf } from './support/pdfs.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
const work = tempDir('esign-packed-');
const prefix = join(work, 'prefix');
const installed = join(prefix, 'bin', 'esign');
/** The installed `esign` first, then the Node running this test, which its `#!/usr/bin/env node` line must find. */
const path = [join(prefix, 'bin'), dirname(process.execPath), process.env.PATH].join(':');
const npmEnv = { ...baseEnv({ PATH: path }), npm_config_update_notifier: 'false' };

let packed: { files: { path: string }[]; filename: string };
let install: { status: number | null; stdout: string; stderr: string };

beforeAll(() => {
  // The tarball of the dist/ that `npm test` built; the prepack build is skipped here because it would rewrite dist/
  // under the tests running beside this one.
  const report = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: repoRoot, env: npmEnv, encoding: 'utf8' });
  [packed] = JSON.parse(report) as (typeof packed)[];
  install = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)], { cwd: work, env: npmEnv, encoding: 'utf8' });
}, 240_000);

describe('npm pack', () => {
  it('ships only bin/, dist/ (no source maps, no single executable), completions/, schema/, README and LICENSE', () => {
    const paths = packed.files.map((file) => file.path);
    const outside = paths.filter((file) => !/^(bin|dist|completions|schema)\//.test(file) && !['package.json', 'README.md', 'LICENSE'].includes(file));
    expect(outside).toEqual([]);
    expect(paths.filter((file) => file.endsWith('.map') || file.startsWith('dist/bin/'))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(['bin/esign.cjs', 'bin/help-pages.cjs', 'dist/program/esign.cjs', 'dist/program/pdf-text-worker.js', 'dist/help.json', 'README.md', 'LICENSE', 'package.json']));
  });
});

describe(`the packed tarball installed with npm install -g under Node ${process.version}`, () => {
  let emulator: EmulatorProcess;
  beforeAll(async () => {
    expect(install.status, install.stderr).toBe(0);
    emulator = await startEmulatorProcess([], { executable: installed, env: { PATH: path } });
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  it('installs without an engine warning, and the esign it links runs on this Node', () => {
    expect(install.stderr).not.toContain('EBADENGINE');
    const node = spawnSync('/bin/sh', ['-c', 'node --version'], { env: { PATH: path }, encoding: 'utf8' });
    expect(node.stdout.trim()).toBe(process.version);
  });

  it('answers --version and --help', async () => {
    const version = await runEsign(['--version'], { executable: installed, env: { PATH: path } });
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    const help = await runEsign(['--help'], { executable: installed, env: { PATH: path } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: esign');
    expect(help.stderr).toBe('');
  });

  it('searches a local PDF with the PDF engine it ships, twice (under Node 22+ the second run has a compile cache)', async () => {
    const file = join(work, 'local.pdf');
    writeFileSync(file, await simplePdf({ pages: [['Sign here please']] }));
    for (let run = 0; run < 2; run++) {
      const result = await runEsign(['--json', 'anchors', 'find', '--local', file, '--text', 'here'], { executable: installed, env: { PATH: path } });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ matches: [{ key: 'here', page: 1 }] });
      expect(result.stderr).toBe('');
    }
  });

  it('validates the key of an emulator it started itself with `esign me`', async () => {
    const result = await runEsign(['me'], { executable: installed, env: { PATH: path, ...emulator.env } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Environment:\s+sandbox/);
    expect(result.stdout).toMatch(/Responsible user:\s+Riley Responsible/);
    expect(result.stderr).toBe('');
  });
});
