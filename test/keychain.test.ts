import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, esignBin, repoRoot, tempDir } from './support/cli.js';
import { useEmulator } from './support/emulator.js';

function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

const keyringAvailable = hasCommand('gnome-keyring-daemon') && hasCommand('dbus-run-session');
if (!keyringAvailable) {
  console.warn('keychain test skipped: gnome-keyring-daemon or dbus-run-session is not installed (.ci/run installs them)');
}

const emulator = useEmulator();

describe.skipIf(!keyringAvailable)('OS keychain (Secret Service via gnome-keyring)', () => {
  it('stores the key in the keychain, reads it back for a request, and deletes it on remove', () => {
    const configDir = tempDir();
    // A private D-Bus session with an unlocked login keyring: the same path a desktop session takes.
    const script = [
      'set -e',
      'printf %s esign-test-password | gnome-keyring-daemon --unlock --daemonize --components=secrets >/dev/null',
      `printf %s "$TEST_KEY" | node ${esignBin} profiles add kc --test-key-stdin --sandbox-base-url "$EMULATOR_URL"`,
      `node ${esignBin} --json profiles list > "$ESIGN_CONFIG_DIR/list.json"`,
      `node ${esignBin} me > "$ESIGN_CONFIG_DIR/me.txt"`,
      // The key's keychain entry is named by its profile, its mode and its own id (config.json points at it).
      `export ACCOUNT="kc:sandbox:$(node -p "require(process.env.ESIGN_CONFIG_DIR + '/config.json').profiles.kc.keys.sandbox.id")"`,
      `node -e "import('@napi-rs/keyring').then(async (k) => process.stdout.write(String(await new k.AsyncEntry('esign-cli', process.env.ACCOUNT).getPassword())))" > "$ESIGN_CONFIG_DIR/before.txt"`,
      `node ${esignBin} profiles remove kc --yes`,
      `node -e "import('@napi-rs/keyring').then(async (k) => process.stdout.write(String(await new k.AsyncEntry('esign-cli', process.env.ACCOUNT).getPassword())))" > "$ESIGN_CONFIG_DIR/after.txt"`,
    ].join('\n');
    // A keyring of its own (XDG_DATA_HOME): an existing login keyring with another password would ask to be unlocked.
    const env = baseEnv({ ESIGN_CONFIG_DIR: configDir, XDG_DATA_HOME: tempDir('esign-keyrings-'), ESIGN_NO_KEYRING: undefined, TEST_KEY: emulator.key, EMULATOR_URL: emulator.url });
    const run = spawnSync('dbus-run-session', ['--', 'bash', '-c', script], { env, cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('plain file');
    const list = JSON.parse(readFileSync(join(configDir, 'list.json'), 'utf8')) as { keys: { sandbox: { storage: string } } }[];
    expect(list[0]!.keys.sandbox.storage).toBe('keychain');
    expect(readFileSync(join(configDir, 'me.txt'), 'utf8')).toContain('from profile kc (keychain)');
    expect(existsSync(join(configDir, 'credentials.json'))).toBe(false);
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).not.toContain(emulator.key);
    expect(readFileSync(join(configDir, 'before.txt'), 'utf8')).toBe(emulator.key);
    expect(readFileSync(join(configDir, 'after.txt'), 'utf8')).toBe('null');
  });
});

describe.skipIf(!keyringAvailable)('doctor and profiles add agree on where keys go', () => {
  /** Runs `script` in a private D-Bus session whose keyring daemon runs, with `unlock` or with no collection to write to. */
  function inSession(script: string[], unlock: boolean) {
    const configDir = tempDir();
    const start = unlock
      ? 'printf %s esign-test-password | gnome-keyring-daemon --unlock --daemonize --components=secrets >/dev/null'
      : 'gnome-keyring-daemon --start --daemonize --components=secrets >/dev/null';
    const env = baseEnv({ ESIGN_CONFIG_DIR: configDir, XDG_DATA_HOME: tempDir('esign-keyrings-'), ESIGN_NO_KEYRING: undefined, TEST_KEY: emulator.key, EMULATOR_URL: emulator.url });
    const run = spawnSync('dbus-run-session', ['--', 'bash', '-c', ['set -e', start, ...script].join('\n')], { env, cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    return { run, configDir };
  }
  const doctor = `node ${esignBin} doctor > "$ESIGN_CONFIG_DIR/doctor.txt" 2>&1 || true`;
  const add = `printf %s "$TEST_KEY" | node ${esignBin} profiles add kc --test-key-stdin --sandbox-base-url "$EMULATOR_URL"`;
  /** Doctor's keychain line, without its mark and name. */
  const keychainLine = (configDir: string) => /keychain +(.*)/.exec(readFileSync(join(configDir, 'doctor.txt'), 'utf8'))?.[1];

  it('a keychain that answers reads but refuses writes: doctor says keys go to the file, as profiles add then does', () => {
    const { run, configDir } = inSession([doctor, add], false);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/stored in a plain file/);
    expect(keychainLine(configDir)).toMatch(/^cannot keep keys \(.+\); profiles add stores them in .*credentials\.json$/);
  });

  it('a keychain that keeps a test entry: doctor says so, and leaves no entry behind', () => {
    const probe = `node -e "import('@napi-rs/keyring').then(async (k) => process.stdout.write(String(await new k.AsyncEntry('esign-cli', 'esign-doctor-probe:sandbox').getPassword())))" > "$ESIGN_CONFIG_DIR/probe.txt"`;
    const { run, configDir } = inSession([doctor, probe], true);
    expect(run.status, run.stderr).toBe(0);
    expect(keychainLine(configDir)).toBe('works (a test entry was written, read back and deleted); profiles add stores new keys there');
    expect(readFileSync(join(configDir, 'probe.txt'), 'utf8')).toBe('null');
  });
});

describe('no keychain answering', () => {
  it('falls back to a 0600 credentials file when no Secret Service is reachable', () => {
    const configDir = tempDir();
    const env = baseEnv({ ESIGN_CONFIG_DIR: configDir, ESIGN_NO_KEYRING: undefined, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' });
    const run = spawnSync(process.execPath, [esignBin, 'profiles', 'add', 'fb', '--test-key-stdin', '--sandbox-base-url', emulator.url], { env, input: emulator.key, encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/No usable keychain .*stored in a plain file/);
    expect(readFileSync(join(configDir, 'credentials.json'), 'utf8')).toContain(emulator.key);
  });
});
