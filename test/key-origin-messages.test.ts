import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runEsign, tempDir } from './support/cli.js';
import { useEmulators } from './support/emulator.js';

const liveKey = 'ko_live_LIVEKEYLIVEKEY4321';
/** Well-formed, but not a key the emulator knows: the service answers 401. */
const revokedTestKey = 'em_test_REVOKEDREVOKED7777';
const revokedLiveKey = 'ko_live_REVOKEDREVOKED8888';
const [sandbox, production] = useEmulators([], ['--environment', 'production', '--key', liveKey]);

/** A config dir holding profile `acme` with the given keys, bound to both emulators. */
async function configWith(testKey: string, live?: string): Promise<string> {
  const configDir = tempDir('esign-config-');
  const args = ['profiles', 'add', 'acme', '--test-key-stdin', '--sandbox-base-url', sandbox.url, '--base-url', production.url, ...(live ? ['--live-key-stdin'] : [])];
  const added = await runEsign(args, { env: { ESIGN_CONFIG_DIR: configDir }, input: live ? `${testKey}\n${live}\n` : testKey });
  expect(added.code, added.stderr).toBe(0);
  return configDir;
}

describe('a 401 names the key that was refused and where it came from', () => {
  it('ESIGN_API_KEY: kind and masked key, from the environment (exit 3)', async () => {
    const result = await runEsign(['me'], { env: { ESIGN_SANDBOX_BASE_URL: sandbox.url, ESIGN_API_KEY: revokedTestKey } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('hint: The test key em_test_…7777 from ESIGN_API_KEY was refused.');
    expect(result.stderr).toContain('set ESIGN_API_KEY to a current test key');
    expect(result.stdout + result.stderr).not.toContain(revokedTestKey);
  });

  it('ESIGN_API_KEY_FILE: names the file', async () => {
    const file = join(tempDir('esign-key-'), 'key');
    writeFileSync(file, `${revokedTestKey}\n`, { mode: 0o600 });
    const result = await runEsign(['me'], { env: { ESIGN_SANDBOX_BASE_URL: sandbox.url, ESIGN_API_KEY_FILE: file } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`The test key em_test_…7777 from ESIGN_API_KEY_FILE (${file}) was refused.`);
    expect(result.stdout + result.stderr).not.toContain(revokedTestKey);
  });

  it('a profile: its name, storage and what chose it (--profile, ESIGN_PROFILE, the default)', async () => {
    const configDir = await configWith(revokedTestKey);
    const flagged = await runEsign(['me', '--profile', 'acme'], { env: { ESIGN_CONFIG_DIR: configDir } });
    expect(flagged.code).toBe(3);
    expect(flagged.stderr).toContain('The test key em_test_…7777 from profile acme (file), chosen by --profile was refused.');
    expect(flagged.stderr).toContain('store a current one with `esign profiles add acme`');
    const byVariable = await runEsign(['me'], { env: { ESIGN_CONFIG_DIR: configDir, ESIGN_PROFILE: 'acme' } });
    expect(byVariable.stderr).toContain('from profile acme (file), chosen by ESIGN_PROFILE was refused.');
    const byDefault = await runEsign(['me'], { env: { ESIGN_CONFIG_DIR: configDir } });
    expect(byDefault.stderr).toContain('from profile acme (file), the default profile was refused.');
    expect(flagged.stderr + byVariable.stderr + byDefault.stderr).not.toContain(revokedTestKey);
  });

  it('a live key refused names its kind', async () => {
    const configDir = await configWith(sandbox.key, revokedLiveKey);
    const result = await runEsign(['me', '--live', '--profile', 'acme'], { env: { ESIGN_CONFIG_DIR: configDir } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('The live key ko_live_…8888 from profile acme (file), chosen by --profile was refused.');
  });
});

describe('the live banner names where the key came from', () => {
  it('a profile key: the profile, its storage and what chose it', async () => {
    const configDir = await configWith(sandbox.key, liveKey);
    const result = await runEsign(['me', '--live', '--profile', 'acme'], { env: { ESIGN_CONFIG_DIR: configDir } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^live · production · profile acme \(file\), chosen by --profile$/m);
  });

  it('ESIGN_API_KEY beside --profile: the variable, never the profile whose key was not used', async () => {
    const configDir = await configWith(sandbox.key, liveKey);
    const result = await runEsign(['me', '--live', '--profile', 'acme'], { env: { ESIGN_CONFIG_DIR: configDir, ESIGN_API_KEY: liveKey, ESIGN_BASE_URL: production.url } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^live · production · ESIGN_API_KEY$/m);
    expect(result.stderr).not.toContain('acme');
  });
});

describe('a live key never goes to a URL configured as a sandbox URL', () => {
  it('ESIGN_BASE_URL equal to ESIGN_SANDBOX_BASE_URL: refused before sending, naming both (exit 2)', async () => {
    const before = await (await sandbox.fetch('/_emulator/request-log')).json();
    const result = await runEsign(['--live', 'me'], { env: { ESIGN_SANDBOX_BASE_URL: sandbox.url, ESIGN_BASE_URL: sandbox.url, ESIGN_API_KEY: liveKey } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`The live key from ESIGN_API_KEY would go to ${sandbox.url}/ (the production base URL from ESIGN_BASE_URL), which ESIGN_SANDBOX_BASE_URL names as a sandbox URL; nothing was sent.`);
    expect(result.stderr).not.toContain('revoked or mistyped');
    expect(result.stdout + result.stderr).not.toContain(liveKey);
    expect(await (await sandbox.fetch('/_emulator/request-log')).json()).toEqual(before);
  });

  it("a profile whose production base URL is its own sandbox base URL: refused, naming the profile's setting", async () => {
    const configDir = tempDir('esign-config-');
    const args = ['profiles', 'add', 'mixed', '--test-key-stdin', '--live-key-stdin', '--sandbox-base-url', sandbox.url, '--base-url', sandbox.url];
    expect((await runEsign(args, { env: { ESIGN_CONFIG_DIR: configDir }, input: `${sandbox.key}\n${liveKey}\n` })).code).toBe(0);
    const result = await runEsign(['--live', 'me'], { env: { ESIGN_CONFIG_DIR: configDir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('which profile mixed (sandbox base URL) names as a sandbox URL; nothing was sent.');
  });
});

describe('profiles add --verify with a key the service refuses', () => {
  it('names the key (masked) and where it was read from, and says nothing was saved', async () => {
    const configDir = tempDir('esign-config-');
    const result = await runEsign(['profiles', 'add', 'acme', '--test-key-stdin', '--sandbox-base-url', sandbox.url, '--verify'], { env: { ESIGN_CONFIG_DIR: configDir }, input: revokedTestKey });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`The test key em_test_…7777 from standard input (--test-key-stdin) was refused at ${new URL(sandbox.url).origin}; nothing was saved (profile acme is as it was).`);
    expect(result.stdout + result.stderr).not.toContain(revokedTestKey);
    expect(existsSync(join(configDir, 'config.json'))).toBe(false);
  });
});
