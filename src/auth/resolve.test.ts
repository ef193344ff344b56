import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../config/project.js';
import { resolveCredentials, selectBaseUrl, selectProfileName } from './resolve.js';
import type { ConfigFile } from './profiles.js';

const saved = { ...process.env };
const project = { filepath: '/repo/.esignrc', config: { profile: 'from-project', sandboxBaseUrl: 'https://project.example' } };
const config: ConfigFile = {
  defaultProfile: 'from-default',
  profiles: { 'from-default': { sandboxBaseUrl: 'https://profile.example', keys: {} } },
};

beforeEach(() => {
  for (const name of Object.keys(process.env)) if (name.startsWith('ESIGN_')) delete process.env[name];
  process.env.ESIGN_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'esign-unit-'));
});
afterEach(() => {
  process.env = { ...saved };
});

describe('precedence: flag > environment variable > project config > profile > default', () => {
  it('chooses the profile name', () => {
    expect(selectProfileName({ live: false, profileFlag: 'flag', project }, config).name).toBe('flag');
    process.env.ESIGN_PROFILE = 'env';
    expect(selectProfileName({ live: false, project }, config).name).toBe('env');
    delete process.env.ESIGN_PROFILE;
    expect(selectProfileName({ live: false, project }, config).name).toBe('from-project');
    expect(selectProfileName({ live: false }, config).name).toBe('from-default');
    expect(selectProfileName({ live: false }, { profiles: {} }).name).toBeUndefined();
  });

  it('chooses the base URL of the mode', () => {
    const profile = config.profiles['from-default'];
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://env.example';
    expect(selectBaseUrl('sandbox', project, profile).url).toBe('https://env.example');
    delete process.env.ESIGN_SANDBOX_BASE_URL;
    expect(selectBaseUrl('sandbox', project, profile).url).toBe('https://project.example');
    expect(selectBaseUrl('sandbox', undefined, profile).url).toBe('https://profile.example');
    expect(selectBaseUrl('production', undefined, profile).url).toBeUndefined();
  });

  it('reads the environment on every call, never a cached copy', () => {
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://one.example';
    expect(selectBaseUrl('sandbox', undefined, undefined).url).toBe('https://one.example');
    process.env.ESIGN_SANDBOX_BASE_URL = 'https://two.example';
    expect(selectBaseUrl('sandbox', undefined, undefined).url).toBe('https://two.example');
  });
});

describe('resolveCredentials', () => {
  it('uses ESIGN_API_KEY and refuses it when it does not match the mode', async () => {
    process.env.ESIGN_API_KEY = 'ab_test_AAAAAAAAAAAAAAAA1234';
    process.env.ESIGN_SANDBOX_BASE_URL = 'http://127.0.0.1:9';
    process.env.ESIGN_BASE_URL = 'https://api.example.com';
    const resolved = await resolveCredentials({ live: false, config: { profiles: {} } });
    expect(resolved).toMatchObject({ mode: 'sandbox', keySource: 'ESIGN_API_KEY', maskedKey: 'ab_test_…1234' });
    await expect(resolveCredentials({ live: true, config: { profiles: {} } })).rejects.toThrow(/test key.*production mode/);
  });

  it('asks for a base URL when none is configured', async () => {
    process.env.ESIGN_API_KEY = 'ab_test_AAAAAAAAAAAAAAAA1234';
    await expect(resolveCredentials({ live: false, config: { profiles: {} } })).rejects.toThrow(/No sandbox base URL/);
  });
});

describe('project config (cosmiconfig, module name esign)', () => {
  it('is found from the working directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-project-'));
    writeFileSync(join(dir, '.esignrc.yaml'), 'profile: acme\nsandboxBaseUrl: https://sandbox.example\n');
    const loaded = await loadProjectConfig(dir);
    expect(loaded?.config).toEqual({ profile: 'acme', sandboxBaseUrl: 'https://sandbox.example' });
  });

  it('refuses a file that contains an API key, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-project-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', esign: { profile: 'p', apiKey: 'ab_test_AAAAAAAAAAAAAAAA1234' } }));
    await expect(loadProjectConfig(dir)).rejects.toThrow(/package\.json contains an API key \(at apiKey\)/);
    const other = mkdtempSync(join(tmpdir(), 'esign-project-'));
    writeFileSync(join(other, '.esignrc'), JSON.stringify({ output: { json: true }, note: 'ab_live_AAAAAAAAAAAAAAAA1234' }));
    await expect(loadProjectConfig(other)).rejects.toThrow(/\.esignrc contains an API key/);
  });

  it('refuses unknown settings with the allowed list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-project-'));
    writeFileSync(join(dir, '.esignrc.yaml'), 'profle: acme\n');
    await expect(loadProjectConfig(dir)).rejects.toThrow(/profle|Unrecognized/);
  });
});
