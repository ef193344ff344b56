import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, runEsign, tempDir } from './support/cli.js';
import { useEmulator } from './support/emulator.js';

const emulator = useEmulator();

/** A fresh config dir; `esign(...)` runs against it, the key (if any) on stdin. */
function configDir() {
  const env = { ESIGN_CONFIG_DIR: tempDir('esign-profiles-'), ESIGN_NO_KEYRING: '1' };
  const esign = (args: readonly string[], input?: string) => runEsign(args, { env, ...(input === undefined ? {} : { input }) });
  const add = async (name: string) => {
    const added = await esign(['profiles', 'add', name, '--test-key-stdin', '--sandbox-base-url', emulator.url], emulator.key);
    expect(added.code, added.stderr).toBe(0);
  };
  return { env, esign, add };
}

describe('profiles: confirmations go to stderr, results to stdout', () => {
  it('add, use, set and remove confirm on stderr and print nothing on stdout; --json prints the result on stdout', async () => {
    const { esign, add } = configDir();
    const added = await esign(['profiles', 'add', 'x', '--test-key-stdin', '--sandbox-base-url', emulator.url], emulator.key);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe('');
    expect(added.stderr).toContain(`✓ Profile x saved: em_test_…${emulator.key.slice(-4)} (file) (default).`);
    await add('y');

    const confirmations: [string[], string][] = [
      [['profiles', 'use', 'y'], '✓ Default profile is now y.'],
      [['profiles', 'set', 'y', '--sandbox-base-url', `${emulator.url}/`], '✓ Profile y updated.'],
      [['--yes', 'profiles', 'remove', 'x'], '✓ Profile x removed.'],
    ];
    for (const [args, confirmation] of confirmations) {
      const result = await esign(args);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(confirmation);
    }

    const json = await esign(['--json', 'profiles', 'use', 'y']);
    expect(parseJson(json.stdout)).toEqual({ defaultProfile: 'y' });
    expect(json.stderr).toBe('');
  });
});

describe('--quiet prints the identity of a profile command’s result, one per line', () => {
  it('profile names for profiles commands, the account id for me, nothing else', async () => {
    const { esign, add } = configDir();
    const added = await esign(['-q', 'profiles', 'add', 'b', '--test-key-stdin', '--sandbox-base-url', emulator.url], emulator.key);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toBe('b\n');
    await add('a');
    const quiet = async (args: string[]) => {
      const result = await esign(['-q', ...args]);
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    expect(await quiet(['profiles', 'list'])).toBe('a\nb\n');
    expect(await quiet(['profiles', 'show', 'a'])).toBe('a\n');
    expect(await quiet(['profiles', 'use', 'a'])).toBe('a\n');
    expect(await quiet(['profiles', 'set', 'a', '--sandbox-base-url', emulator.url])).toBe('a\n');
    const me = parseJson<{ account: { id: string } }>((await esign(['--json', 'me'])).stdout);
    expect(await quiet(['me'])).toBe(`${me.account.id}\n`);
    expect(await quiet(['--yes', 'profiles', 'remove', 'b'])).toBe('b\n');
  });
});

describe('--dry-run changes no local state: it says what would change, and exits 0', () => {
  it('profiles add, use, set and remove (even with --yes) leave config.json and the keys as they were', async () => {
    const { env, esign, add } = configDir();
    const files = ['config.json', 'credentials.json'].map((name) => join(env.ESIGN_CONFIG_DIR, name));
    const dryAdd = await esign(['--dry-run', 'profiles', 'add', 'x', '--test-key-stdin', '--sandbox-base-url', emulator.url], emulator.key);
    expect(dryAdd.code, dryAdd.stderr).toBe(0);
    expect(dryAdd.stderr).toContain(`Dry run: would save profile x: test key em_test_…${emulator.key.slice(-4)}, sandbox base URL ${emulator.url}/, as the default profile`);
    expect(dryAdd.stdout + dryAdd.stderr).not.toContain(emulator.key);
    expect(files.filter((file) => existsSync(file))).toEqual([]);

    await add('x');
    await add('y');
    const before = files.map((file) => readFileSync(file, 'utf8'));
    const runs: [string[], string][] = [
      [['--dry-run', '--yes', 'profiles', 'remove', 'y'], `Dry run: would remove profile y and delete its test key (${files[1]}). Nothing was changed.`],
      [['--dry-run', 'profiles', 'remove', 'y'], 'Dry run: would remove profile y'],
      [['--dry-run', 'profiles', 'use', 'y'], 'Dry run: would make y the default profile (now x). Nothing was changed.'],
      [['--dry-run', 'profiles', 'set', 'y', '--sandbox-base-url', 'https://x.example.com'], `Dry run: would set profile y's sandbox base URL to https://x.example.com (was ${emulator.url}).`],
      [['--dry-run', 'profiles', 'add', 'y', '--test-key-stdin'], 'Dry run: would save profile y: test key'],
    ];
    for (const [args, said] of runs) {
      const result = await esign(args, args.includes('add') ? emulator.key : undefined);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(said);
    }
    const json = await esign(['--dry-run', '--json', '--yes', 'profiles', 'remove', 'y']);
    expect(parseJson(json.stdout)).toEqual({ dryRun: true, change: `remove profile y and delete its test key (${files[1]})`, files: [files[0]] });
    expect(files.map((file) => readFileSync(file, 'utf8'))).toEqual(before);

    // A mistake is still a mistake in a dry run: exit 2, as without it.
    const wrong = await esign(['--dry-run', 'profiles', 'set', 'y', '--sandbox-base-url', 'http://example.com']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('BASE_URL_INSECURE');
  });

  it('config trust and untrust leave the list of trusted files as it was', async () => {
    const { env } = configDir();
    const cwd = tempDir('esign-project-');
    writeFileSync(join(cwd, '.esignrc.json'), JSON.stringify({ sandboxBaseUrl: 'https://sandbox.example.com' }));
    const trusted = async () => parseJson<unknown[]>((await runEsign(['config', 'trusted', '--json'], { env })).stdout);
    const dryTrust = await runEsign(['--dry-run', 'config', 'trust'], { env, cwd });
    expect(dryTrust.code, dryTrust.stderr).toBe(0);
    expect(dryTrust.stderr).toMatch(/Dry run: would trust .*\.esignrc\.json \(sha256 [0-9a-f]{12}…\), which sends keys to sandbox https:\/\/sandbox\.example\.com/);
    expect(await trusted()).toEqual([]);
    expect((await runEsign(['config', 'trust'], { env, cwd })).code).toBe(0);
    const dryUntrust = await runEsign(['--dry-run', 'config', 'untrust'], { env, cwd });
    expect(dryUntrust.code, dryUntrust.stderr).toBe(0);
    expect(dryUntrust.stderr).toContain('Dry run: would withdraw the trust in');
    expect(await trusted()).toHaveLength(1);
  });
});

describe('a missing or wrong key gets the fix that applies to it', () => {
  it('after the default profile is removed, names the profiles there are and how to choose one', async () => {
    const { esign, add } = configDir();
    for (const name of ['x', 'y', 'z']) await add(name);
    expect((await esign(['--yes', 'profiles', 'remove', 'x'])).code).toBe(0);
    const me = await esign(['me']);
    expect(me.code).toBe(2);
    expect(me.stderr).toContain('PROFILE_NOT_CHOSEN: No default profile');
    expect(me.stderr).toContain('Profiles here: y, z. Make one the default with `esign profiles use <name>`, or pass --profile <name>.');
  });

  it('a live key piped to --test-key-stdin (or a test key to --live-key-stdin) is told the other flag, not --live', async () => {
    const { env, esign } = configDir();
    const liveKey = 'em_live_LIVELIVELIVELIVE1234';
    const wrongFlag = await esign(['profiles', 'add', 'x', '--test-key-stdin', '--sandbox-base-url', emulator.url], liveKey);
    expect(wrongFlag.code).toBe(2);
    expect(wrongFlag.stderr).toContain('KEY_MODE_MISMATCH');
    expect(wrongFlag.stderr).toContain('hint: Read it with --live-key-stdin instead');
    expect(wrongFlag.stderr).not.toContain('--live ');
    const other = await esign(['profiles', 'add', 'x', '--live-key-stdin', '--base-url', 'https://api.example.com'], emulator.key);
    expect(other.stderr).toContain('hint: Read it with --test-key-stdin instead');
    expect(existsSync(join(env.ESIGN_CONFIG_DIR, 'config.json'))).toBe(false);
  });

  it('suggests --live for a profile without a test key only when it has a live key', async () => {
    const { env, esign } = configDir();
    const liveKey = 'em_live_LIVELIVELIVELIVE1234';
    expect((await esign(['profiles', 'add', 'live-only', '--live-key-stdin', '--base-url', 'https://api.example.com'], liveKey)).code).toBe(0);
    // A profile whose keys were never stored (add needs a key): written as config.json would hold it.
    const configFile = join(env.ESIGN_CONFIG_DIR, 'config.json');
    const config = JSON.parse(readFileSync(configFile, 'utf8')) as { profiles: Record<string, unknown> };
    config.profiles['urls-only'] = { sandboxBaseUrl: emulator.url, baseUrl: 'https://api.example.com', keys: {} };
    writeFileSync(configFile, JSON.stringify(config));
    const withLive = await esign(['me', '--profile', 'live-only']);
    expect(withLive.stderr).toContain('Profile live-only has no test key.');
    expect(withLive.stderr).toContain('hint: Add it with `esign profiles add live-only`, or pass --live to use its live key.');
    const without = await esign(['me', '--profile', 'urls-only']);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('hint: Add it with `esign profiles add urls-only`.');
    const liveWithout = await esign(['me', '--live', '--profile', 'urls-only']);
    expect(liveWithout.stderr).toContain('hint: Add it with `esign profiles add urls-only`.');
  });
});

describe('a config folder esign cannot use', () => {
  it.each([
    ['is a file', (dir: string) => writeFileSync(dir, ''), 'config.json cannot be read (ENOTDIR)'],
    ['holds a folder named config.json', (dir: string) => mkdirSync(join(dir, 'config.json'), { recursive: true }), 'config.json cannot be read (EISDIR)'],
  ])('where the folder %s: exit 2 naming the file and what to check, never a bug', async (_case, arrange, says) => {
    const dir = join(tempDir('esign-config-unusable-'), 'esign');
    arrange(dir);
    for (const args of [['profiles', 'list'], ['profiles', 'add', 'p', '--test-key-stdin', '--sandbox-base-url', emulator.url]]) {
      const result = await runEsign(args, { env: { ESIGN_CONFIG_DIR: dir, ESIGN_NO_KEYRING: '1' }, input: emulator.key });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`CONFIG_UNREADABLE: ${join(dir, says.split(' ')[0]!)}${says.slice(says.indexOf(' '))}.`);
      expect(result.stderr).toContain('hint: Check ESIGN_CONFIG_DIR');
      expect(result.stderr).not.toContain('bug in esign');
    }
  });

  it('refuses a damaged credentials file without quoting any of it (it holds keys), and leaves it as it was', async () => {
    const { env, esign, add } = configDir();
    await add('kept');
    const credentials = join(env.ESIGN_CONFIG_DIR, 'credentials.json');
    const damaged = readFileSync(credentials, 'utf8').replace('{', '');
    writeFileSync(credentials, damaged);
    for (const args of [['me', '--profile', 'kept'], ['profiles', 'add', 'other', '--test-key-stdin', '--sandbox-base-url', emulator.url]]) {
      const result = await esign(args, emulator.key);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`CREDENTIALS_INVALID: ${credentials} is damaged`);
      expect(result.stderr).not.toContain('em_test_');
      expect(result.stderr).not.toContain('bug in esign');
    }
    expect(readFileSync(credentials, 'utf8')).toBe(damaged);
  });
});

describe('esign processes side by side', () => {
  it('ten `profiles add` at once keep every profile in config.json and every key in credentials.json', async () => {
    const { env, esign } = configDir();
    const names = Array.from({ length: 10 }, (_, index) => `p${index}`);
    const results = await Promise.all(names.map((name) => esign(['profiles', 'add', name, '--test-key-stdin', '--sandbox-base-url', emulator.url], emulator.key)));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    const config = JSON.parse(readFileSync(join(env.ESIGN_CONFIG_DIR, 'config.json'), 'utf8')) as { profiles: Record<string, unknown> };
    expect(Object.keys(config.profiles).sort()).toEqual(names);
    const credentials = JSON.parse(readFileSync(join(env.ESIGN_CONFIG_DIR, 'credentials.json'), 'utf8')) as Record<string, string>;
    // Each key under its own fresh id, the one config.json points at.
    const profiles = config.profiles as Record<string, { keys: { sandbox: { id: string } } }>;
    expect(Object.keys(credentials).sort()).toEqual(names.map((name) => `${name}:sandbox:${profiles[name]!.keys.sandbox.id}`));
    expect(existsSync(join(env.ESIGN_CONFIG_DIR, 'config.json.lock'))).toBe(false);
    expect(existsSync(join(env.ESIGN_CONFIG_DIR, 'credentials.json.lock'))).toBe(false);
  });
});

describe('esign files others can change or read', () => {
  it('a command using a profile warns of a config folder others can write and a credentials file others can read, and still runs', async () => {
    const { env, esign, add } = configDir();
    await add('shared');
    chmodSync(env.ESIGN_CONFIG_DIR, 0o777);
    chmodSync(join(env.ESIGN_CONFIG_DIR, 'credentials.json'), 0o644);
    const result = await esign(['me']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`${env.ESIGN_CONFIG_DIR} can be written by others (mode 0777): chmod 700 ${env.ESIGN_CONFIG_DIR}.`);
    expect(result.stderr).toContain(`credentials.json can be read by others (mode 0644); the keys in it are exposed: chmod 600`);
    chmodSync(env.ESIGN_CONFIG_DIR, 0o700);
    chmodSync(join(env.ESIGN_CONFIG_DIR, 'credentials.json'), 0o600);
    expect((await esign(['me'])).stderr).not.toContain('by others');
  });
});
