import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, existsSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, repoRoot, runEsign, tempDir } from './support/cli.js';
import { useEmulators, type EmulatorProcess } from './support/emulator.js';

const liveKey = 'fx_live_LIVELIVELIVELIVE9876';
const [sandbox, production] = useEmulators([], ['--environment', 'production', '--key', liveKey]);

async function apiRequestCount(emulator: EmulatorProcess): Promise<number> {
  return ((await (await emulator.fetch('/_emulator/request-log')).json()) as { requests: number }).requests;
}

describe('esign me', () => {
  it('validates a test key in sandbox mode and says which key was used, masked', async () => {
    const result = await runEsign(['me'], { env: sandbox.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Environment:\s+sandbox/);
    expect(result.stdout).toMatch(/Responsible user:\s+Riley Responsible/);
    expect(result.stdout).toContain(`em_test_…${sandbox.key.slice(-4)} from ESIGN_API_KEY`);
    expect(result.stdout + result.stderr).not.toContain(sandbox.key);
  });

  it('uses the live key and production URL with --live, with a banner on stderr', async () => {
    const result = await runEsign(['me', '--live'], { env: { ESIGN_BASE_URL: production.url, ESIGN_API_KEY: liveKey } });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Environment:\s+production/);
    expect(result.stderr).toMatch(/^live · production · ESIGN_API_KEY$/m);
    expect(result.stdout + result.stderr).not.toContain(liveKey);
  });

  it('refuses a live key in sandbox mode before any request (exit 2)', async () => {
    const before = await apiRequestCount(production);
    const result = await runEsign(['me'], { env: { ESIGN_SANDBOX_BASE_URL: production.url, ESIGN_API_KEY: liveKey } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/live key, but this command runs in sandbox mode/);
    expect(await apiRequestCount(production)).toBe(before);
  });

  it('refuses a plain http base URL that is not loopback (exit 2)', async () => {
    const result = await runEsign(['me'], { env: { ESIGN_SANDBOX_BASE_URL: 'http://api.example.com', ESIGN_API_KEY: sandbox.key } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('BASE_URL_INSECURE');
  });

  it('maps 401 to exit 3 with the error shape in --json', async () => {
    const result = await runEsign(['me', '--json'], { env: { ...sandbox.env, ESIGN_API_KEY: 'em_test_UNKNOWNUNKNOWNUNKNOWN' } });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(parseJson(result.stderr)).toEqual({ error: { status: 401, code: 'INVALID_API_KEY', message: expect.any(String), details: null, hint: expect.stringContaining('em_test_…') } });
  });

  it('prints exactly one JSON document with --json', async () => {
    const result = await runEsign(['--json', 'me'], { env: sandbox.env });
    expect(result.code).toBe(0);
    const body = parseJson(result.stdout);
    expect(body).toMatchObject({ environment: 'sandbox', account: { name: 'Emulated Account' }, key: { source: 'ESIGN_API_KEY' } });
    expect(result.stderr).toBe('');
  });

  it('--debug traces requests on stderr with no key and no Authorization value', async () => {
    const result = await runEsign(['me', '--debug'], { env: sandbox.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('GET http://');
    expect(result.stderr).toContain('/v4/api/me');
    expect(result.stderr).not.toContain(sandbox.key);
    expect(result.stderr).not.toContain(sandbox.key.slice(8));
    expect(result.stderr.toLowerCase()).not.toContain('bearer');
  });

  it('reports an unreachable host as a network error (exit 7)', async () => {
    const result = await runEsign(['me', '--timeout', '2'], { env: { ESIGN_SANDBOX_BASE_URL: 'http://127.0.0.1:9', ESIGN_API_KEY: sandbox.key } });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain('Could not reach http://127.0.0.1:9');
    expect(result.stderr).toContain('hint: Nothing listens there: start the emulator (`esign emulator`)');
  });

  it('says that the emulator serves http:// when an https:// base URL points at it (exit 7)', async () => {
    const result = await runEsign(['me', '--timeout', '5'], { env: { ESIGN_SANDBOX_BASE_URL: sandbox.url.replace('http://', 'https://'), ESIGN_API_KEY: sandbox.key } });
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toContain('hint: The host did not answer TLS: the emulator serves http://, so use http:// in the base URL.');
  });
});

describe('start-up fast paths (bin/esign.cjs)', () => {
  it('answers --version with the package version, as the bundle does', async () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    expect((await runEsign(['--version'])).stdout).toBe(`${version}\n`);
    const bundle = spawnSync(process.execPath, [join(repoRoot, 'dist', 'program', 'esign.cjs'), '--version'], { encoding: 'utf8' });
    expect(bundle.stdout).toBe(`${version}\n`);
  });

  it('answers --help with exactly the help the program prints', async () => {
    const fast = await runEsign(['--help']);
    const live = spawnSync(process.execPath, [join(repoRoot, 'dist', 'program', 'esign.cjs'), '--help'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(fast.code).toBe(0);
    expect(fast.stdout).toBe(live.stdout);
    for (const group of ['envelopes|env', 'documents|doc', 'fields|field', 'emulator']) expect(fast.stdout).toContain(group);
  });
});

describe('usage errors', () => {
  it('never accepts a key as an argument value', async () => {
    const result = await runEsign(['profiles', 'add', 'x', '--test-key', sandbox.key]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`The value of --test-key holds an API key (em_test_…${sandbox.key.slice(-4)})`);
    expect(result.stderr).toContain('--test-key-stdin');
    expect(result.stderr).not.toContain(sandbox.key);
  });

  it("takes a key-shaped --key only where it names the emulator's made-up keys, not in the emulator's other commands", async () => {
    const made = `em_test_${'Q'.repeat(24)}`;
    const refused = await runEsign(['emulator', 'sign', '--key', made, '11111111-1111-4111-8111-111111111111'], { env: sandbox.env });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('KEY_IN_ARGUMENT');
    expect(refused.stderr).not.toContain(made);
  });

  // Number() reads 1e2 as 100 and 0x10 as 16; every option that takes a whole number wants plain digits.
  it.each([
    [['envelopes', 'list', '--limit', '1e2']],
    [['envelopes', 'list', '--limit', '0x10']],
    [['contacts', 'list', '--limit', '+5']],
    [['batch', 'run', 'batch.yaml', '--concurrency', '1e1']],
    [['anchors', 'find', '--local', 'x.pdf', '--text', 'Sign', '--occurrence', '0x1']],
    [['webhooks', 'listen', '--port', '8e3']],
    [['emulator', '--port', '0x10']],
    [['emulator', '--port', '0', '--preload-drafts', '1e1']],
  ])('refuses a whole number not written in plain digits: %j (exit 2, nothing sent)', async (args) => {
    const before = await apiRequestCount(sandbox);
    const result = await runEsign(args, { env: sandbox.env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('in plain digits');
    expect(await apiRequestCount(sandbox)).toBe(before);
  });

  it.each([
    [['emulator', '--no-seed']],
    [['webhooks', 'listen', '--secret', 'whsec_bm90IGEgcmVhbCBzZWNyZXQsIG9ubHkgZm9yIHRlc3Rz']],
  ])('refuses a --port another program listens on: %j (exit 2, nothing started)', async (args) => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await runEsign([...args, '--port', String(port)], { env: sandbox.env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`PORT_IN_USE: Port ${port} is already in use (127.0.0.1:${port}).`);
      expect(result.stderr).toContain('--port 0 for any free one');
      expect(result.stderr).not.toContain('bug in esign');
    } finally {
      taken.close();
    }
  });

  it('listens on [::1] as a URL writes it, and says which port another program holds there (exit 2, not a bug)', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '::1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await runEsign(['emulator', '--host', '[::1]', '--port', String(port)], { env: sandbox.env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`PORT_IN_USE: Port ${port} is already in use ([::1]:${port}).`);
    } finally {
      taken.close();
    }
  });

  // Past 2^31-1 ms Node fires a timer at once (with a warning): a huge time limit would give up at once.
  it.each([
    [['envelopes', 'wait', '00000000-0000-0000-0000-000000000000', '--wait-timeout', '25d'], 'longer than 24d'],
    [['envelopes', 'send-now', '--file', 'x.yaml', '--wait', '--wait-timeout', '99999999999d'], 'is too long to count'],
    [['documents', 'upload', '00000000-0000-0000-0000-000000000000', 'x.pdf', '--wait-timeout', '0s'], 'is zero'],
    [['--timeout', '1e3', 'me'], 'expected seconds from 0.001 to 2073600 (24 days)'],
    [['--timeout', '99999999', 'me'], 'expected seconds from 0.001 to 2073600 (24 days)'],
    [['--timeout', '0', 'me'], 'expected seconds from 0.001'],
    [['emulator', '--port', '0', '--processing-delay', '9999999999'], 'from 0 to 2073600000'],
  ])('refuses a time limit out of range: %j (exit 2, nothing sent)', async (args, says) => {
    const before = await apiRequestCount(sandbox);
    const result = await runEsign(args, { env: sandbox.env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(says);
    expect(result.stderr).not.toMatch(/TimeoutOverflowWarning|\n\s+at /);
    expect(await apiRequestCount(sandbox)).toBe(before);
  });

  // Commander keeps the last of two flags that set one thing; esign refuses the pair instead.
  it.each([
    [['envelopes', 'settings', '00000000-0000-0000-0000-000000000000', '--deadline', '7d', '--no-deadline'], '--deadline and --no-deadline do not go together'],
    [['envelopes', 'settings', '00000000-0000-0000-0000-000000000000', '--no-deadline', '--deadline', '7d'], '--deadline and --no-deadline do not go together'],
    [['webhooks', 'update', '00000000-0000-0000-0000-000000000000', '--inactive', '--active'], '--active and --inactive do not go together'],
    [['contacts', 'patch', '00000000-0000-0000-0000-000000000000', '--phone', '+33612345678', '--clear-phone'], '--clear-phone and --phone do not go together'],
    [['folders', 'move', '00000000-0000-0000-0000-000000000000', '--parent', '11111111-1111-1111-1111-111111111111', '--root'], '--root and --parent do not go together'],
    [['documents', 'upload', '00000000-0000-0000-0000-000000000000', 'x.pdf', '--no-wait', '--wait-timeout', '5m'], '--no-wait and --wait-timeout do not go together'],
  ])('refuses two flags that set the same thing: %j (exit 2, nothing sent)', async (args, says) => {
    const before = await apiRequestCount(sandbox);
    const result = await runEsign(args, { env: sandbox.env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(says);
    expect(await apiRequestCount(sandbox)).toBe(before);
  });

  it('esign help <unknown> is exit 2 naming the command, as esign <unknown> is; help for a known command or alias still works', async () => {
    const unknown = await runEsign(['help', 'bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'bogus'/);
    expect(unknown.stdout).toBe('');
    const nested = await runEsign(['help', 'envelopes', 'bogus']);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toMatch(/unknown command 'envelopes bogus'/);
    for (const known of [['help', 'envelopes'], ['help', 'env'], ['help'], ['help', 'env', 'void'], ['help', 'envelopes', 'ls'], ['--no-color', 'help', 'participants', 'correct']]) {
      const result = await runEsign(known);
      expect(result.code, known.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/^Usage: esign/);
      // The help of the whole path, as gh gives it: `help envelopes ls` is `envelopes ls --help`, not that of envelopes.
      const flagged = await runEsign([...known.filter((word) => word !== 'help'), '--help']);
      expect(result.stdout, known.join(' ')).toBe(flagged.stdout);
    }
  });

  it('refuses an empty option value (an unset CI variable) with exit 2 instead of running as if the option were not given', async () => {
    const cases = [
      ['batch', 'run', 'missing.yaml', '--shard', ''],
      ['batch', 'run', 'missing.yaml', '--journal', ''],
      ['--profile', '', 'me'],
      ['batch', 'run', 'missing.yaml', '--report', ''],
    ];
    for (const args of cases) {
      const result = await runEsign(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/option '--(shard|journal|profile|report) <[^>]+>' argument '' is invalid\. the value is empty; give one, or leave the option out\./);
    }
  });

  it.each([
    [['envelope', 'list'], "✗ USAGE: unknown command 'envelope'\n(Did you mean envelopes?)\n"],
    [['envelopes', 'lst'], "✗ USAGE: unknown command 'lst'\n(Did you mean one of list, ls?)\n"],
    [['env', 'create', '--titel', 'x'], "✗ USAGE: unknown option '--titel'\n(Did you mean --title?)\n"],
    [['env\u001b[2J\nforged'], "✗ USAGE: unknown command 'env\\u001b[2J\\nforged'\n"],
  ])('esign %j: a suggestion on a line of its own, what the command line held made visible', async (args, says) => {
    const result = await runEsign(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`${says}  hint: Run the command with --help for its usage.\n`);
  });

  it('reports an unknown command with exit 2 and no stack trace', async () => {
    const result = await runEsign(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });
});

describe('profiles', () => {
  it('stores keys read from stdin in a 0600 file when no keychain answers, and says so once with the path', async () => {
    const configDir = tempDir();
    const env = { ESIGN_CONFIG_DIR: configDir, ESIGN_NO_KEYRING: '1' };
    const add = await runEsign(['profiles', 'add', 'acme', '--test-key-stdin', '--sandbox-base-url', sandbox.url, '--verify'], { env, input: `${sandbox.key}\n` });
    expect(add.code, add.stderr).toBe(0);
    const credentials = join(configDir, 'credentials.json');
    expect(add.stderr).toContain(`stored in a plain file, ${credentials} (mode 0600)`);
    expect(add.stderr.match(/plain file/g)).toHaveLength(1);
    expect(statSync(credentials).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).not.toContain(sandbox.key);
    expect(add.stdout + add.stderr).not.toContain(sandbox.key);

    const me = await runEsign(['me'], { env });
    expect(me.code, me.stderr).toBe(0);
    expect(me.stdout).toContain('from profile acme (file)');

    const list = await runEsign(['profiles', 'list', '--json'], { env });
    expect(parseJson<unknown[]>(list.stdout)).toEqual([
      expect.objectContaining({ name: 'acme', default: true, sandboxBaseUrl: sandbox.url, keys: { sandbox: { masked: `em_test_…${sandbox.key.slice(-4)}`, storage: 'file' }, production: null } }),
    ]);
    const human = await runEsign(['profiles', 'list'], { env });
    expect(human.stdout).toContain(`file ${credentials})`);
  });

  it('refuses a key of the wrong environment on add, storing nothing', async () => {
    const configDir = tempDir();
    const result = await runEsign(['profiles', 'add', 'acme', '--test-key-stdin', '--sandbox-base-url', sandbox.url], { env: { ESIGN_CONFIG_DIR: configDir }, input: liveKey });
    expect(result.code).toBe(2);
    expect(existsSync(join(configDir, 'config.json'))).toBe(false);
    expect(existsSync(join(configDir, 'credentials.json'))).toBe(false);
  });

  it('uses, shows, sets and removes profiles', async () => {
    const configDir = tempDir();
    const env = { ESIGN_CONFIG_DIR: configDir };
    await runEsign(['profiles', 'add', 'one', '--test-key-stdin', '--sandbox-base-url', sandbox.url], { env, input: sandbox.key });
    await runEsign(['profiles', 'add', 'two', '--live-key-stdin', '--base-url', 'https://api.example.com'], { env, input: liveKey });
    expect((await runEsign(['profiles', 'use', 'two'], { env })).code).toBe(0);
    expect(parseJson((await runEsign(['profiles', 'show', 'two', '--json'], { env })).stdout)).toMatchObject({ name: 'two', default: true });
    const set = await runEsign(['profiles', 'set', 'two', '--base-url', 'http://example.com'], { env });
    expect(set.code).toBe(2);
    expect((await runEsign(['profiles', 'set', 'two', '--sandbox-base-url', sandbox.url], { env })).code).toBe(0);
    const refused = await runEsign(['profiles', 'remove', 'two'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await runEsign(['profiles', 'remove', 'two', '--yes'], { env })).code).toBe(0);
    expect(readFileSync(join(configDir, 'credentials.json'), 'utf8')).not.toContain(liveKey);
    expect((await runEsign(['profiles', 'show', 'two'], { env })).code).toBe(2);
  });

  it('refuses a project config file that contains a key, naming the file', async () => {
    const cwd = tempDir();
    writeFileSync(join(cwd, '.esignrc.yaml'), `apiKey: ${sandbox.key}\n`);
    const result = await runEsign(['me'], { env: sandbox.env, cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${join(cwd, '.esignrc.yaml')} contains an API key`);
    expect(result.stderr).not.toContain(sandbox.key);
  });
});
