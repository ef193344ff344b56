/*
 * Issue #21, item 3: "`profiles add` is not all-or-nothing. Under `ulimit -f 1` it stored the new key in
 * credentials.json, failed on config.json, and said 'Nothing was replaced': the old key was gone. 100 `profiles add`
 * killed at random left 10 keys that no profile names and that no command removes. Ten concurrent `config trust` all
 * printed ✓ and 3 were kept."
 * config.json and credentials.json change together or not at all; keys left by earlier versions are found by
 * `doctor` and deleted by `profiles prune`; concurrent changes are all kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, runEsign, startEsign, tempDir, type RunResult } from '../support/cli.js';
import { useEmulator } from '../support/emulator.js';

interface ConfigJson {
  defaultProfile?: string;
  profiles: Record<string, { keys: Record<string, { id?: string; masked: string }> }>;
  trustedProjectConfigs?: { path: string }[];
}

const freshKey = () => `hx_test_${randomBytes(16).toString('hex')}`;

function configDir() {
  const dir = tempDir('esign-transactions-');
  const env = { ESIGN_CONFIG_DIR: dir, ESIGN_NO_KEYRING: '1' };
  const read = <T>(name: string): T | undefined => (existsSync(join(dir, name)) ? (JSON.parse(readFileSync(join(dir, name), 'utf8')) as T) : undefined);
  return {
    dir,
    env,
    config: () => read<ConfigJson>('config.json') ?? { profiles: {} },
    credentials: () => read<Record<string, string>>('credentials.json') ?? {},
    add: (name: string, key: string, options: { fileSizeLimitKiB?: number } = {}): Promise<RunResult> =>
      runEsign(['profiles', 'add', name, '--test-key-stdin', '--sandbox-base-url', 'http://127.0.0.1:9'], { env, input: `${key}\n`, ...options }),
  };
}

/** The credentials.json entry each profile's key is kept under: `name:sandbox:<id>`. */
function accountsInUse(config: ConfigJson): string[] {
  return Object.entries(config.profiles).flatMap(([name, profile]) => Object.entries(profile.keys).map(([mode, info]) => `${name}:${mode}${info.id ? `:${info.id}` : ''}`));
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('profiles add and remove: config.json and credentials.json change together', () => {
  it('under ulimit -f 1, a new key whose config.json cannot be written is deleted again, and the message says so', async () => {
    const { dir, env, add, credentials } = configDir();
    const oldKey = freshKey();
    expect((await add('acme', oldKey)).code).toBe(0);
    // A hand-written note makes config.json larger than the limit; credentials.json stays well under it.
    const configPath = join(dir, 'config.json');
    writeFileSync(configPath, JSON.stringify({ ...(JSON.parse(readFileSync(configPath, 'utf8')) as object), note: 'n'.repeat(2048) }, null, 2));
    const before = { config: sha256(configPath), credentials: sha256(join(dir, 'credentials.json')) };

    const failed = await add('acme', freshKey(), { fileSizeLimitKiB: 1 });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`Cannot write ${configPath}: the file is larger than this process may write (ulimit -f) (EFBIG).`);
    expect(failed.stderr).toContain('The key stored for it was deleted again: the profiles and their keys are as they were.');
    expect(failed.stderr).not.toMatch(/\n\s+at /);
    // Both files byte for byte as they were: the old key is still the one in use, and no new one is left behind.
    expect({ config: sha256(configPath), credentials: sha256(join(dir, 'credentials.json')) }).toEqual(before);
    expect(Object.values(credentials())).toEqual([oldKey]);
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'credentials.json']);
    const list = await runEsign(['--json', 'profiles', 'list'], { env });
    expect(parseJson<{ keys: { sandbox: { masked: string } } }[]>(list.stdout)[0]!.keys.sandbox.masked).toBe(`hx_test_…${oldKey.slice(-4)}`);
  });

  it('under ulimit -f 1, a key credentials.json cannot take changes nothing, and the message says no key was stored', async () => {
    const { dir, add } = configDir();
    expect((await add('acme', freshKey())).code).toBe(0);
    const credentialsPath = join(dir, 'credentials.json');
    writeFileSync(credentialsPath, JSON.stringify({ ...(JSON.parse(readFileSync(credentialsPath, 'utf8')) as object), note: 'n'.repeat(2048) }, null, 2));
    const before = { config: sha256(join(dir, 'config.json')), credentials: sha256(credentialsPath) };
    const failed = await add('other', freshKey(), { fileSizeLimitKiB: 1 });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`Cannot write ${credentialsPath}: the file is larger than this process may write (ulimit -f) (EFBIG).`);
    expect(failed.stderr).toContain('No key was stored: the profiles and their keys are as they were.');
    expect({ config: sha256(join(dir, 'config.json')), credentials: sha256(credentialsPath) }).toEqual(before);
  });

  it('100 `profiles add` and `remove` killed at random inside their change leave no key no profile uses and lose none', { timeout: 600_000 }, async () => {
    const { dir, env, add, config, credentials } = configDir();
    const names = ['a', 'b', 'c', 'd'];
    // Every key ever offered to a profile: the one it ends with must be one of them, and readable.
    const offered = new Map<string, Set<string>>(names.map((name) => [name, new Set<string>()]));
    for (const name of names) {
      const key = freshKey();
      offered.get(name)!.add(key);
      expect((await add(name, key)).code).toBe(0);
    }
    let killed = 0;
    for (let run = 0; run < 100; run += 1) {
      const name = names[run % names.length]!;
      const removing = run % 5 === 4;
      const key = freshKey();
      offered.get(name)!.add(key);
      const running = removing
        ? startEsign(['profiles', 'remove', name, '--yes'], { env })
        : startEsign(['profiles', 'add', name, '--test-key-stdin', '--sandbox-base-url', 'http://127.0.0.1:9'], { env, input: `${key}\n` });
      // Killed inside the change: a few milliseconds after it takes a lock or writes ahead, wherever that falls.
      let timer: NodeJS.Timeout | undefined;
      const watcher = watch(dir, (_, file) => {
        if (!timer && /\.lock$|^pending-keys\.json$/.test(String(file))) timer = setTimeout(() => running.child.kill('SIGKILL'), Math.random() * 12);
      });
      const result = await running.result;
      watcher.close();
      clearTimeout(timer);
      if (running.child.signalCode === 'SIGKILL') killed += 1;
      else expect([0, 2], result.stderr).toContain(result.code);
      // Whatever was killed where: every profile config.json names has its key, and it is one offered to it.
      const current = config();
      const stored = credentials();
      for (const [profileName, profile] of Object.entries(current.profiles)) {
        const account = accountsInUse({ profiles: { [profileName]: profile } })[0]!;
        expect(stored[account], `${profileName}'s key (${account}) after run ${run}`).toBeDefined();
        expect(offered.get(profileName)!.has(stored[account]!)).toBe(true);
      }
    }
    expect(killed).toBeGreaterThan(20);

    // The next change finishes what the last killed ones left: then every key kept is one a profile uses.
    expect((await add('e', freshKey())).code).toBe(0);
    expect(Object.keys(credentials()).sort()).toEqual(accountsInUse(config()).sort());
    expect(existsSync(join(dir, 'pending-keys.json'))).toBe(false);
    const doctor = await runEsign(['--json', 'doctor'], { env });
    expect(doctor.stdout + doctor.stderr).not.toContain('unused keys');
  });
});

describe('keys left by earlier versions', () => {
  it('doctor names the keys no profile uses; profiles prune deletes them (--yes without a terminal) and keeps the ones in use', async () => {
    const { dir, env, add, config, credentials } = configDir();
    expect((await add('acme', freshKey())).code).toBe(0);
    // As versions before the transactions left them: named without an id, for a profile that is not there.
    const orphan = freshKey();
    writeFileSync(join(dir, 'credentials.json'), JSON.stringify({ ...credentials(), 'gone:sandbox': orphan, 'webhook:8c2d': 'whsec_kept' }, null, 2), { mode: 0o600 });

    const doctor = await runEsign(['doctor'], { env });
    expect(doctor.code).toBe(2);
    expect(doctor.stdout).toContain(`unused keys`);
    expect(doctor.stdout).toContain(`holds 1 key no profile uses: gone:sandbox (hx_test_…${orphan.slice(-4)}) → fix: esign profiles prune`);
    expect(doctor.stdout).not.toContain(orphan);

    const asked = await runEsign(['profiles', 'prune'], { env });
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('Pass --yes.');
    expect(credentials()['gone:sandbox']).toBe(orphan);

    const pruned = await runEsign(['profiles', 'prune', '--yes'], { env });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stderr).toContain('Deleted 1 key no profile used');
    expect(Object.keys(credentials()).sort()).toEqual([...accountsInUse(config()), 'webhook:8c2d'].sort());
    expect((await runEsign(['doctor'], { env })).stdout).not.toContain('unused keys');
  });
});

describe('config changes at once', () => {
  it('ten concurrent `config trust` are all kept', { timeout: 120_000 }, async () => {
    const { env, config } = configDir();
    const projects = Array.from({ length: 10 }, (_, index) => {
      const cwd = tempDir(`esign-project-${index}-`);
      writeFileSync(join(cwd, '.esignrc.yaml'), `sandboxBaseUrl: http://127.0.0.1:${9000 + index}\n`);
      return cwd;
    });
    const results = await Promise.all(projects.map((cwd) => runEsign(['config', 'trust'], { env, cwd })));
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    expect(config().trustedProjectConfigs?.map((entry) => entry.path).sort()).toEqual(projects.map((cwd) => join(cwd, '.esignrc.yaml')).sort());
  });
});

describe('a webhook secret the service made but credentials.json cannot take', () => {
  const emulator = useEmulator();
  it('webhooks create under ulimit -f 1: the secret is still shown once, the failure says it is not stored, exit 1', async () => {
    const { dir, env, credentials } = configDir();
    // Larger than the limit: the secret cannot be added to it.
    writeFileSync(join(dir, 'credentials.json'), JSON.stringify({ note: 'n'.repeat(2048) }), { mode: 0o600 });
    const result = await runEsign(['--json', 'webhooks', 'create', '--url', 'https://hooks.example.com/unstored', '--events', 'ENVELOPE_COMPLETED'], {
      env: { ...env, ...emulator.env },
      fileSizeLimitKiB: 1,
    });
    expect(result.code).toBe(1);
    const created = parseJson<{ id: string; secret: string }>(result.stdout);
    expect(created.secret).toMatch(/^whsec_/);
    expect(result.stderr).toContain('it could NOT be stored (see below): keep it now, and give it to `esign webhooks listen --secret-stdin`.');
    expect(result.stderr).toContain(`The new signing secret of webhook endpoint ${created.id} (shown above) is not stored: Cannot write ${join(dir, 'credentials.json')}: the file is larger than this process may write (ulimit -f) (EFBIG).`);
    expect(credentials()).toEqual({ note: 'n'.repeat(2048) });
  });
});
