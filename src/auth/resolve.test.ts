import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LoadedProjectConfig } from '../config/project.js';
import { credentialStore } from './credential-store.js';
import { resolveCredentials, selectBaseUrl, selectProfileName } from './resolve.js';
import type { ConfigFile, Profile } from './profiles.js';

const saved = { ...process.env };
const testKey = 'ab_test_AAAAAAAAAAAAAAAA1234';
const project: LoadedProjectConfig = { filepath: '/repo/.esignrc', trust: 'trusted', config: { profile: 'from-project', sandboxBaseUrl: 'https://project.example' } };
const untrusted: LoadedProjectConfig = { ...project, trust: 'untrusted' };
const profile: Profile = { sandboxBaseUrl: 'https://profile.example', keys: {} };
const config: ConfigFile = { defaultProfile: 'from-default', profiles: { 'from-default': profile } };

beforeEach(() => {
  for (const name of Object.keys(process.env)) if (name.startsWith('ESIGN_')) delete process.env[name];
  process.env.ESIGN_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'esign-unit-'));
  process.env.ESIGN_NO_KEYRING = '1';
});
afterEach(() => {
  process.env = { ...saved };
});

function chosen(input: Parameters<typeof selectBaseUrl>[0]): string {
  return selectBaseUrl(input).url.href;
}

function refusal(run: () => unknown): { code: string; message: string; hint: string } {
  try {
    run();
  } catch (error) {
    const { code, message, hint } = error as { code: string; message: string; hint: string };
    return { code, message, hint };
  }
  throw new Error('expected a refusal');
}

describe('precedence: flag > environment variable > project config > profile > default', () => {
  it('chooses the profile name (an untrusted project file may choose one)', () => {
    expect(selectProfileName({ live: false, profileFlag: 'flag', project }, config).name).toBe('flag');
    process.env.ESIGN_PROFILE = 'env';
    expect(selectProfileName({ live: false, project }, config).name).toBe('env');
    delete process.env.ESIGN_PROFILE;
    expect(selectProfileName({ live: false, project: untrusted }, config).name).toBe('from-project');
    expect(selectProfileName({ live: false }, config).name).toBe('from-default');
    expect(selectProfileName({ live: false }, { profiles: {} }).name).toBeUndefined();
  });

  it('chooses the base URL of the mode for a key from the environment', () => {
    const input = { mode: 'sandbox', keyOrigin: 'environment', project, profile, profileName: 'p' } as const;
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://env.example';
    expect(chosen(input)).toBe('https://env.example/');
    delete process.env.ESIGN_SANDBOX_BASE_URL;
    expect(chosen(input)).toBe('https://project.example/');
    expect(() => selectBaseUrl({ ...input, mode: 'production' })).toThrow(/No production base URL/);
  });

  it('never sends a key from the environment to the base URL stored with a profile', () => {
    const input = { mode: 'sandbox', keyOrigin: 'environment', profile, profileName: 'p' } as const;
    const refused = refusal(() => selectBaseUrl(input));
    expect(refused.code).toBe('KEY_ORIGIN_MISMATCH');
    expect(refused.message).toContain('ESIGN_SANDBOX_BASE_URL is not set');
    expect(refused.message).toContain('profile p (https://profile.example/)');
    expect(refused.hint).toContain('Set ESIGN_SANDBOX_BASE_URL');
    expect(refused.hint).toContain('unset ESIGN_API_KEY and ESIGN_API_KEY_FILE');
    // Nor by way of an untrusted project file naming the profile's URL: that exemption is for the profile's own key.
    const same: LoadedProjectConfig = { ...untrusted, config: { sandboxBaseUrl: 'https://profile.example' } };
    expect(refusal(() => selectBaseUrl({ ...input, project: same })).code).toBe('PROJECT_CONFIG_UNTRUSTED');
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://profile.example';
    expect(chosen(input)).toBe('https://profile.example/');
  });

  it('reads the environment on every call, never a cached copy', () => {
    const input = { mode: 'sandbox', keyOrigin: 'environment' } as const;
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://one.example';
    expect(chosen(input)).toBe('https://one.example/');
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://two.example';
    expect(chosen(input)).toBe('https://two.example/');
  });
});

describe('a project file is trusted explicitly (esign config trust)', () => {
  it('refuses an untrusted or changed file’s base URL with any key, naming the file, the URL and the trust command', () => {
    for (const keyOrigin of ['environment', 'profile'] as const) {
      for (const trust of ['untrusted', 'changed'] as const) {
        const refused = refusal(() => selectBaseUrl({ mode: 'sandbox', keyOrigin, project: { ...project, trust }, profile, profileName: 'p' }));
        expect(refused.code).toBe('PROJECT_CONFIG_UNTRUSTED');
        expect(refused.message).toContain('/repo/.esignrc sets sandboxBaseUrl to https://project.example/');
        expect(refused.message).toMatch(trust === 'changed' ? /changed since you trusted it/ : /not trusted/);
        expect(refused.hint).toContain('`esign config trust /repo/.esignrc`');
      }
    }
  });

  it('uses a trusted file’s base URL, with a stored key too', () => {
    expect(chosen({ mode: 'sandbox', keyOrigin: 'profile', project, profile, profileName: 'p' })).toBe('https://project.example/');
    expect(chosen({ mode: 'sandbox', keyOrigin: 'environment', project, profile, profileName: 'p' })).toBe('https://project.example/');
  });

  it('needs no trust for a base URL that is the profile’s own', () => {
    const same: LoadedProjectConfig = { ...untrusted, config: { sandboxBaseUrl: 'https://PROFILE.example:443/' } };
    expect(chosen({ mode: 'sandbox', keyOrigin: 'profile', project: same, profile, profileName: 'p' })).toBe('https://profile.example/');
  });

  it('ignores an untrusted file’s base URL when an environment variable overrides it', () => {
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://env.example';
    expect(chosen({ mode: 'sandbox', keyOrigin: 'environment', project: untrusted })).toBe('https://env.example/');
  });
});

describe('a stored key is bound to the base URL stored with it', () => {
  const bound = { mode: 'sandbox', keyOrigin: 'profile', profile, profileName: 'acme' } as const;

  it('accepts an environment base URL equal to the profile’s after normalisation', () => {
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://Profile.Example:443//';
    expect(chosen(bound)).toBe('https://profile.example/');
  });

  it('refuses another environment base URL, naming both and the ways out', () => {
    for (const other of ['https://env.example', 'https://profile.example/other', 'https://profile.example:8443', 'http://127.0.0.1:9']) {
      process.env.ESIGN_SANDBOX_BASE_URL = other;
      const refused = refusal(() => selectBaseUrl(bound));
      expect(refused.code, other).toBe('KEY_ORIGIN_MISMATCH');
      expect(refused.message).toContain(`ESIGN_SANDBOX_BASE_URL (${new URL(other).origin}`);
      expect(refused.message).toContain('profile acme (https://profile.example/)');
      expect(refused.hint).toContain('esign profiles set acme --sandbox-base-url');
      expect(refused.hint).toContain('ESIGN_API_KEY');
    }
  });

  it('sends a key of a profile without a base URL for the mode nowhere', () => {
    const refused = refusal(() => selectBaseUrl({ ...bound, mode: 'production' }));
    expect(refused).toMatchObject({ code: 'BASE_URL_MISSING', message: expect.stringContaining('Profile acme has no production base URL') });
    expect(refused.hint).toContain('esign profiles set acme --base-url URL');
    process.env.ESIGN_BASE_URL = 'https://env.example';
    expect(refusal(() => selectBaseUrl({ ...bound, mode: 'production' })).code).toBe('KEY_ORIGIN_MISMATCH');
  });

  it('accepts an environment base URL equal to a trusted project file’s', () => {
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://project.example';
    expect(chosen({ ...bound, project })).toBe('https://project.example/');
    expect(refusal(() => selectBaseUrl({ ...bound, project: untrusted })).code).toBe('KEY_ORIGIN_MISMATCH');
  });

  it('refuses an environment base URL for a key resolved from a stored profile, end to end', async () => {
    await credentialStore.save({ profile: 'acme', mode: 'sandbox' }, testKey);
    const stored: ConfigFile = { defaultProfile: 'acme', profiles: { acme: { sandboxBaseUrl: 'https://profile.example', keys: { sandbox: { storage: 'file', masked: 'x' } } } } };
    expect((await resolveCredentials({ live: false, config: stored })).baseUrl.href).toBe('https://profile.example/');
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://env.example';
    await expect(resolveCredentials({ live: false, config: stored })).rejects.toMatchObject({ code: 'KEY_ORIGIN_MISMATCH' });
    process.env.ESIGN_API_KEY = testKey;
    expect(await resolveCredentials({ live: false, config: stored })).toMatchObject({ keySource: 'ESIGN_API_KEY', baseUrl: new URL('https://env.example') });
  });
});

describe('resolveCredentials', () => {
  it('uses ESIGN_API_KEY and refuses it when it does not match the mode', async () => {
    process.env.ESIGN_API_KEY = testKey;
    process.env.ESIGN_SANDBOX_BASE_URL = 'http://127.0.0.1:9';
    process.env.ESIGN_BASE_URL = 'https://api.example.com';
    const resolved = await resolveCredentials({ live: false, config: { profiles: {} } });
    expect(resolved).toMatchObject({ mode: 'sandbox', keySource: 'ESIGN_API_KEY', maskedKey: 'ab_test_…1234' });
    await expect(resolveCredentials({ live: true, config: { profiles: {} } })).rejects.toThrow(/test key.*production mode/);
  });

  it('asks for a base URL when none is configured', async () => {
    process.env.ESIGN_API_KEY = testKey;
    await expect(resolveCredentials({ live: false, config: { profiles: {} } })).rejects.toThrow(/No sandbox base URL/);
  });
});

describe('ESIGN_API_KEY_FILE (the _FILE convention of container secrets)', () => {
  const directory = () => mkdtempSync(join(tmpdir(), 'esign-keyfile-'));
  function keyFile(content: string, mode = 0o600): string {
    const path = join(directory(), 'key');
    writeFileSync(path, content);
    chmodSync(path, mode);
    return path;
  }
  beforeEach(() => {
    process.env.ESIGN_SANDBOX_BASE_URL = 'http://127.0.0.1:9';
  });

  it('reads the key, trimming one trailing newline, and says where it came from', async () => {
    for (const content of [testKey, `${testKey}\n`, `${testKey}\r\n`]) {
      process.env.ESIGN_API_KEY_FILE = keyFile(content);
      const resolved = await resolveCredentials({ live: false, config: { profiles: {} } });
      expect(resolved).toMatchObject({ key: testKey, keySource: `ESIGN_API_KEY_FILE (${process.env.ESIGN_API_KEY_FILE})` });
      expect(resolved.warnings).toBeUndefined();
    }
  });

  it('warns, without refusing, when other users can read the file', async () => {
    process.env.ESIGN_API_KEY_FILE = keyFile(testKey, 0o644);
    const resolved = await resolveCredentials({ live: false, config: { profiles: {} } });
    expect(resolved.warnings).toEqual([expect.stringContaining('can be read by other users (mode 0644)')]);
  });

  it('refuses both ESIGN_API_KEY and ESIGN_API_KEY_FILE at once', async () => {
    process.env.ESIGN_API_KEY = testKey;
    process.env.ESIGN_API_KEY_FILE = keyFile(testKey);
    await expect(resolveCredentials({ live: false, config: { profiles: {} } })).rejects.toMatchObject({ code: 'KEY_AMBIGUOUS', exitCode: 2 });
  });

  it('names the variable and the path of a missing, empty, oversized or directory file, and never its content', async () => {
    const secret = 'NOTAKEY-but-some-other-secret-value';
    const cases: Array<[string, RegExp, string]> = [
      [join(directory(), 'absent'), /no such file/, 'KEY_FILE_UNREADABLE'],
      [keyFile(''), /is empty/, 'KEY_FILE_UNREADABLE'],
      [keyFile('\n'), /is empty/, 'KEY_FILE_UNREADABLE'],
      [keyFile(`${secret}\n`.repeat(200)), /more than 4096 bytes/, 'KEY_FILE_UNREADABLE'],
      [directory(), /a folder, not a file/, 'KEY_FILE_UNREADABLE'],
      [keyFile(`${secret}\n`), /is not a valid key/, 'KEY_INVALID'],
      [keyFile(`${testKey}\n\n`), /is not a valid key/, 'KEY_INVALID'],
    ];
    for (const [path, message, code] of cases) {
      process.env.ESIGN_API_KEY_FILE = path;
      const error = await resolveCredentials({ live: false, config: { profiles: {} } }).then(
        () => undefined,
        (failure: unknown) => failure as { message: string; hint?: string; code: string },
      );
      expect(error, path).toBeDefined();
      expect(error!.message, path).toMatch(message);
      expect(error!.message).toContain(path);
      expect(error!.message).toContain('ESIGN_API_KEY_FILE');
      expect(error!.code).toBe(code);
      expect(`${error!.message}${error!.hint ?? ''}`).not.toContain(secret);
      expect(`${error!.message}${error!.hint ?? ''}`).not.toContain('AAAAAAAAAAAAAAAA');
    }
  });
});
