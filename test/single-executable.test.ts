// The single executable (`npm run build:binary`) does what support staff need with no Node on the machine: every run
// here has a PATH with nothing on it and an environment without NODE_ variables.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, parseJson, repoRoot, runEsign, tempDir, type RunOptions } from './support/cli.js';
import { startEmulatorProcess, type EmulatorProcess } from './support/emulator.js';
import { ndaPdf, PREDEFINED_CMAP_TEXT, predefinedCMapPdf, TYPE3_BITMAP_TEXT, type3BitmapPdf } from './support/pdfs.js';

const builtBinary = join(repoRoot, 'dist', 'bin', `esign-${process.platform}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`);
const built = existsSync(builtBinary);
// CI builds the executable before this test and sets ESIGN_REQUIRE_BINARY=1, so a failed build cannot pass as a skip.
const required = process.env.ESIGN_REQUIRE_BINARY === '1';
if (!built && !required) console.warn(`single executable test skipped: ${builtBinary} is not built (npm run build:binary)`);

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

/**
 * The executable as support staff have it: a copy in a directory with no node_modules on its way up to the root, so
 * nothing it loads can come from this repository's packages.
 */
const binary = join(tempDir('esign-binary-'), basename(builtBinary));
if (built) copyFileSync(builtBinary, binary);
afterAll(() => rmSync(dirname(binary), { recursive: true, force: true }));

/** A PATH on which no program at all, Node included, can be found. */
const emptyPath = tempDir('esign-no-node-');
/** What a machine without Node gives the executable: no PATH to a node, no NODE_ options, no esign settings. */
function withoutNode(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const cleared = Object.fromEntries(Object.keys(process.env).filter((name) => name.startsWith('NODE_') || name.startsWith('npm_')).map((name) => [name, undefined]));
  return { ...cleared, PATH: emptyPath, ESIGN_CONFIG_DIR: tempDir('esign-binary-config-'), ...extra };
}

const runBinary = (args: readonly string[], options: RunOptions = {}) => runEsign(args, { ...options, executable: binary, env: withoutNode(options.env) });

describe.skipIf(!built && !required)('single executable without Node', () => {
  let emulator: EmulatorProcess;
  beforeAll(async () => {
    expect(existsSync(binary), `${binary} is missing: run npm run build:binary`).toBe(true);
    emulator = await startEmulatorProcess([], { executable: binary, env: withoutNode() });
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  it('has no node to fall back on: the PATH it runs with finds none, and no node_modules is above it', () => {
    const lookup = spawnSync('/bin/sh', ['-c', 'command -v node'], { env: { PATH: emptyPath } });
    expect(lookup.status).not.toBe(0);
    for (let dir = dirname(binary); ; dir = dirname(dir)) {
      expect(existsSync(join(dir, 'node_modules')), dir).toBe(false);
      if (dirname(dir) === dir) break;
    }
  });

  it('answers --version with the package version, and --help with the command list the Node build prints', async () => {
    const version = await runBinary(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    // The executable's main answers these from text the build took from the program (src/sea/main.ts).
    const help = await runBinary(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('Usage: esign');
    expect(help.stdout).toContain('emulator');
    expect(help.stdout).toBe((await runEsign(['--help'])).stdout);
    expect((await runBinary(['-h'])).stdout).toBe(help.stdout);
  });

  it('starts a command from the code cache the build recorded, which V8 accepts', async () => {
    const result = await runBinary(['--debug', 'me'], { env: emulator.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("[debug] start-up: compiled from the executable's code cache");
    expect(result.stdout).toMatch(/Responsible user:\s+Riley Responsible/);
  });

  it('loads a trusted esign.config.ts with the TypeScript it carries as an asset of its own', async () => {
    const dir = tempDir();
    const env = { ESIGN_CONFIG_DIR: tempDir() };
    const added = await runBinary(['profiles', 'add', 'from-typescript', '--test-key-stdin', '--sandbox-base-url', emulator.url], { input: emulator.key, env });
    expect(added.code, added.stderr).toBe(0);
    writeFileSync(join(dir, 'esign.config.ts'), "const settings: { profile: string } = { profile: 'from-typescript' };\nexport default settings;\n");
    const trusted = await runBinary(['config', 'trust', 'esign.config.ts'], { cwd: dir, env });
    expect(trusted.code, trusted.stderr).toBe(0);
    // Only the TypeScript file names the profile: `me` uses it once the file is compiled and run.
    const result = await runBinary(['me'], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('from profile from-typescript');
  });

  it('serves the emulator (started by the executable) and validates its key with `esign me`', async () => {
    const result = await runBinary(['me'], { env: emulator.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Environment:\s+sandbox/);
    expect(result.stdout).toMatch(/Responsible user:\s+Riley Responsible/);
    expect(result.stderr).toBe('');
  });

  it('reads PDFs with its own pdfjs: the emulator processes an upload, and anchors find --local matches the Node build', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
    const args = ['--json', 'anchors', 'find', '--local', 'nda.pdf', '--text', '{{signature}}', '--text', 'Signed by:'];
    const local = await runBinary(args, { cwd: dir });
    expect(local.code, local.stderr).toBe(0);
    // pdfjs must stay quiet in the executable too: no warning about the canvas package it cannot load.
    expect(local.stderr).toBe('');
    expect(parseJson<{ matches: unknown[] }>(local.stdout).matches).toHaveLength(4);
    const underNode = await runEsign(args, { cwd: dir });
    expect(parseJson(local.stdout)).toEqual(parseJson(underNode.stdout));

    const created = await runBinary(['--json', 'envelopes', 'create', '--title', 'From the single executable'], { env: emulator.env });
    expect(created.code, created.stderr).toBe(0);
    const envelopeId = parseJson<{ id: string }>(created.stdout).id;
    const uploaded = await runBinary(['--json', 'documents', 'upload', envelopeId, 'nda.pdf'], { cwd: dir, env: emulator.env });
    expect(uploaded.code, uploaded.stderr).toBe(0);
    const [document] = parseJson<{ documents: { documentId: string; status: string; pageCount: number }[] }>(uploaded.stdout).documents;
    // Processing the upload is the emulator's own pdfjs at work.
    expect(document).toMatchObject({ status: 'READY', pageCount: 1 });
    const documentId = document!.documentId;
    const remote = await runBinary(['--json', 'anchors', 'find', envelopeId, documentId, '--text', '{{signature}}', '--text', 'Signed by:'], { env: emulator.env });
    expect(remote.code, remote.stderr).toBe(0);
    expect(parseJson(remote.stdout)).toEqual(parseJson(local.stdout));
  });

  it('prints no runtime warning (Node\'s ExperimentalWarning for import() in its vm program) on batch run and envelopes download', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
    const spec = ['title: Quiet binary', 'participants: [{ ref: a, name: Ada, email: ada@example.com }]', 'documents: [{ ref: nda, file: nda.pdf }]', 'fields: [{ type: SIGNATURE, documentRef: nda, participantRef: a, pageNumber: 1, position: { x: 72, y: 600 }, size: { width: 150, height: 40 } }]'];
    writeFileSync(join(dir, 'quiet.yaml'), `${spec.join('\n')}\n`);
    const batch = await runBinary(['--json', 'batch', 'run', 'quiet.yaml', '--wait', 'sent'], { cwd: dir, env: emulator.env });
    expect(batch.code, batch.stderr).toBe(0);
    const envelopeId = parseJson<{ envelopes: { envelopeId: string }[] }>(batch.stdout).envelopes[0]!.envelopeId;
    const download = await runBinary(['envelopes', 'download', envelopeId, '--unsigned', '--out', 'quiet.zip'], { cwd: dir, env: emulator.env });
    expect(download.code, download.stderr).toBe(0);
    for (const stderr of [batch.stderr, download.stderr]) expect(stderr).not.toMatch(/Warning|--trace-warnings/);
  });

  it("reads text that needs pdfjs's predefined CMaps, which it carries as assets", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'japanese.pdf'), predefinedCMapPdf());
    const word = PREDEFINED_CMAP_TEXT.slice(3, 5);
    const args = ['--json', 'anchors', 'find', '--local', 'japanese.pdf', '--text', word];
    const local = await runBinary(args, { cwd: dir });
    expect(local.code, local.stderr).toBe(0);
    expect(parseJson<{ matches: unknown[] }>(local.stdout).matches).toEqual([expect.objectContaining({ key: word, page: 1 })]);
    expect(parseJson(local.stdout)).toEqual(parseJson((await runEsign(args, { cwd: dir })).stdout));
  });

  it('reads text set in a Type3 font of bitmap glyphs, which pdfjs would outline with the canvas it does not carry', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'type3.pdf'), type3BitmapPdf());
    const args = ['--json', 'anchors', 'find', '--local', 'type3.pdf', '--text', TYPE3_BITMAP_TEXT];
    const local = await runBinary(args, { cwd: dir });
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).toBe('');
    expect(parseJson<{ matches: unknown[] }>(local.stdout).matches).toEqual([expect.objectContaining({ key: TYPE3_BITMAP_TEXT, page: 1 })]);
    expect(parseJson(local.stdout)).toEqual(parseJson((await runEsign(args, { cwd: dir })).stdout));
  });

  it('loads the keyring addon it carries: with no keychain answering it says so and falls back to the 0600 file', async () => {
    const configDir = tempDir();
    const result = await runBinary(['profiles', 'add', 'fb', '--test-key-stdin', '--sandbox-base-url', emulator.url], {
      input: emulator.key,
      env: { ESIGN_CONFIG_DIR: configDir, ESIGN_NO_KEYRING: undefined, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/No usable keychain .*stored in a plain file/);
    // The addon answered (a D-Bus error), rather than failing to load.
    expect(result.stderr).not.toMatch(/Cannot find module|dlopen|keyring\.node/i);
    expect(readFileSync(join(configDir, 'credentials.json'), 'utf8')).toContain(emulator.key);
  });
});

const keyringAvailable = ['gnome-keyring-daemon', 'dbus-run-session'].every((name) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0);

describe.skipIf(!built || !keyringAvailable)('single executable and the OS keychain', () => {
  it('stores the key in the Secret Service and uses it, with no Node on PATH', async () => {
    const emulator = await startEmulatorProcess([], { executable: binary, env: withoutNode() });
    try {
      const configDir = tempDir();
      mkdirSync(configDir, { recursive: true });
      const which = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
      // A private D-Bus session with an unlocked keyring of its own, as in test/keychain.test.ts; the executable
      // then runs with the empty PATH.
      const script = [
        'set -e',
        `printf %s esign-test-password | ${which('gnome-keyring-daemon')} --unlock --daemonize --components=secrets >/dev/null`,
        `export PATH=${emptyPath}`,
        `printf %s "$TEST_KEY" | ${binary} profiles add kc --test-key-stdin --sandbox-base-url "$EMULATOR_URL"`,
        `${binary} --json profiles list > "$ESIGN_CONFIG_DIR/list.json"`,
        `${binary} me > "$ESIGN_CONFIG_DIR/me.txt"`,
      ].join('\n');
      const env = baseEnv({ ...withoutNode(), PATH: process.env.PATH, ESIGN_CONFIG_DIR: configDir, XDG_DATA_HOME: tempDir('esign-keyrings-'), ESIGN_NO_KEYRING: undefined, TEST_KEY: emulator.key, EMULATOR_URL: emulator.url });
      const run = spawnSync(which('dbus-run-session'), ['--', '/bin/bash', '-c', script], { env, encoding: 'utf8', timeout: 60_000 });
      expect(run.status, run.stderr).toBe(0);
      const list = JSON.parse(readFileSync(join(configDir, 'list.json'), 'utf8')) as { keys: { sandbox: { storage: string } } }[];
      expect(list[0]!.keys.sandbox.storage).toBe('keychain');
      expect(readFileSync(join(configDir, 'me.txt'), 'utf8')).toContain('from profile kc (keychain)');
      expect(existsSync(join(configDir, 'credentials.json'))).toBe(false);
    } finally {
      await emulator.stop();
    }
  });
});
