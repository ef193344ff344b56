import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson, runEsign, tempDir, type RunOptions } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { hostileTestKey, json, startHostileServer } from './support/hostile-server.js';

interface Report {
  ok: boolean;
  checks: { name: string; ok: boolean; detail: string; fix?: string }[];
}

const emulator = useEmulator();

/** A config dir with profile `acme` holding the emulator's key, in the 0600 file (no keychain in tests). */
async function configWithProfile(): Promise<string> {
  const configDir = tempDir('esign-doctor-config-');
  const added = await runEsign(['profiles', 'add', 'acme', '--test-key-stdin', '--sandbox-base-url', emulator.url], { env: { ESIGN_CONFIG_DIR: configDir }, input: emulator.key });
  expect(added.code, added.stderr).toBe(0);
  return configDir;
}

function doctor(args: readonly string[], options: RunOptions) {
  return runEsign(['doctor', ...args], options);
}

/** With --json a failing run prints nothing on stdout; the report is the error's details on stderr. */
function failedReport(result: { stdout: string; stderr: string }): Report {
  expect(result.stdout).toBe('');
  const { error } = parseJson<{ error: { code: string; details: { checks: Report['checks'] } } }>(result.stderr);
  expect(error.code).toBe('DOCTOR_CHECKS_FAILED');
  return { ok: false, checks: error.details.checks };
}

const failedNames = (report: Report) => report.checks.filter((check) => !check.ok).map((check) => check.name);

/** A loopback port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server on loopback that answers `me` for the given environment, its clock `offsetMs` from ours (Date header). */
function meServer(environment: string, offsetMs = 0) {
  return startHostileServer((request, response) => {
    response.setHeader('date', new Date(Date.now() + offsetMs).toUTCString());
    if (request.url === '/v4/api/me') json(response, 200, { environment, account: { id: 'a1', name: 'Account' } });
    else json(response, 404, { error: { code: 'NOT_FOUND', message: 'no' } });
  });
}

describe('esign doctor', () => {
  it('passes every check against the emulator with a stored profile: one line each, exit 0', async () => {
    const configDir = await configWithProfile();
    const result = await doctor([], { env: { ESIGN_CONFIG_DIR: configDir } });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^✓ /);
    const names = lines.map((line) => line.slice(2).split(/\s{2,}/)[0]!.trim());
    expect(names).toEqual(['node', 'config', 'credentials file', 'keychain', 'project config', 'profile', 'key', 'base URL profile acme (sandbox)', 'api', 'clock']);
    expect(result.stdout).toMatch(/credentials file +\S+credentials\.json \(mode 0600\)/);
    expect(result.stdout).toMatch(/keychain +cannot keep keys \(ESIGN_NO_KEYRING is set\); profiles add stores them in /);
    expect(result.stdout).toMatch(/profile +profile acme \(file\), the default profile · sandbox mode/);
    expect(result.stdout).toContain('esign me answers: account Emulated Account');
    expect(result.stdout).toMatch(/clock +within \d+ s of http:\/\/127\.0\.0\.1:\d+/);
    expect(result.stdout + result.stderr).not.toContain(emulator.key);

    const asJson = await doctor(['--json'], { env: { ESIGN_CONFIG_DIR: configDir } });
    expect(asJson.code).toBe(0);
    const report = parseJson<Report>(asJson.stdout);
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => check.name)).toEqual(names);
  });

  it('a credentials file others can read fails with `chmod 600` as the fix (exit 2)', async () => {
    const configDir = await configWithProfile();
    chmodSync(join(configDir, 'credentials.json'), 0o644);
    const result = await doctor([], { env: { ESIGN_CONFIG_DIR: configDir } });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^✗ credentials file +\S+credentials\.json can be read by others \(mode 0644\).* → fix: chmod 600 \S+credentials\.json/m);
    expect(result.stderr).toContain('DOCTOR_CHECKS_FAILED');
    const report = failedReport(await doctor(['--json'], { env: { ESIGN_CONFIG_DIR: configDir } }));
    expect(failedNames(report)).toEqual(['credentials file']);
  });

  it('an ESIGN_API_KEY_FILE others can read fails as a check of its own, and is not printed again beside the report', async () => {
    const keyFile = join(tempDir('esign-doctor-key-file-'), 'key');
    writeFileSync(keyFile, `${emulator.key}\n`, { mode: 0o644 });
    chmodSync(keyFile, 0o644);
    const env = { ESIGN_CONFIG_DIR: tempDir('esign-doctor-empty-'), ESIGN_API_KEY_FILE: keyFile, ESIGN_SANDBOX_BASE_URL: emulator.url };
    const result = await doctor([], { env });
    expect(result.code, result.stdout + result.stderr).toBe(2);
    expect(result.stdout).toMatch(/^✗ key file +ESIGN_API_KEY_FILE=\S+ can be read by other users \(mode 0644\)/m);
    expect(result.stderr).not.toContain('can be read by other users');
    expect(failedNames(failedReport(await doctor(['--json'], { env })))).toEqual(['key file']);
  });

  it('a config folder that is a file fails the config checks with what to do, never a bug (exit 2)', async () => {
    const configDir = join(tempDir('esign-doctor-config-file-'), 'esign');
    writeFileSync(configDir, '');
    const result = await doctor([], { env: { ESIGN_CONFIG_DIR: configDir } });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^✗ config +\S+ is not a folder → fix: Move it away, or set ESIGN_CONFIG_DIR to a folder\./m);
    expect(result.stderr).not.toContain('bug in esign');
    const report = failedReport(await doctor(['--json'], { env: { ESIGN_CONFIG_DIR: configDir } }));
    expect(failedNames(report)).toEqual(['config', 'config', 'profile and key', 'api']);
  });

  it('an untrusted .esignrc in the working directory fails until it is trusted', async () => {
    const configDir = await configWithProfile();
    const project = tempDir('esign-doctor-project-');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, '.esignrc.json'), JSON.stringify({ profile: 'acme' }));
    const untrusted = await doctor(['--json'], { cwd: project, env: { ESIGN_CONFIG_DIR: configDir } });
    expect(untrusted.code).toBe(2);
    const report = failedReport(untrusted);
    expect(failedNames(report)).toContain('project config');
    const check = report.checks.find((entry) => entry.name === 'project config')!;
    expect(check.detail).toContain('.esignrc.json is not trusted');
    expect(check.fix).toContain('esign config trust');

    expect((await runEsign(['config', 'trust'], { cwd: project, env: { ESIGN_CONFIG_DIR: configDir } })).code).toBe(0);
    const trusted = await doctor([], { cwd: project, env: { ESIGN_CONFIG_DIR: configDir } });
    expect(trusted.code, trusted.stdout).toBe(0);
    expect(trusted.stdout).toMatch(/project config +\S+\.esignrc\.json \(trusted\)/);
  });

  it('an unreachable base URL fails with exit 7, and the API is not asked', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await doctor(['--json'], { env: { ESIGN_SANDBOX_BASE_URL: url, ESIGN_API_KEY: emulator.key } });
    expect(result.code).toBe(7);
    const report = failedReport(result);
    expect(failedNames(report)).toEqual(['base URL ESIGN_SANDBOX_BASE_URL', 'api']);
    expect(report.checks.find((check) => check.name === 'base URL ESIGN_SANDBOX_BASE_URL')!.detail).toMatch(/does not answer \(ECONNREFUSED\)/);
  });

  it('a plain-http base URL that is not loopback fails before anything is sent', async () => {
    const result = await doctor(['--json'], { env: { ESIGN_SANDBOX_BASE_URL: 'http://api.example.com', ESIGN_API_KEY: emulator.key } });
    expect(result.code).toBe(2);
    const report = failedReport(result);
    expect(report.checks.find((check) => check.name === 'base URL ESIGN_SANDBOX_BASE_URL')).toMatchObject({ ok: false, detail: expect.stringMatching(/plain http:\/\//) });
  });

  it('a refused key fails the api check with exit 3, naming the key masked and where it came from', async () => {
    const result = await doctor([], { env: { ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY: 'em_test_REVOKEDREVOKED7777' } });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^✗ api +401 .*→ fix: The test key em_test_…7777 from ESIGN_API_KEY was refused/m);
    expect(result.stdout).not.toContain('REVOKEDREVOKED');
  });

  it("a server whose clock is far from ours fails the clock check (its Date header)", async () => {
    const server = await meServer('sandbox', -10 * 60_000);
    try {
      const result = await doctor(['--json'], { env: { ESIGN_SANDBOX_BASE_URL: server.url, ESIGN_API_KEY: hostileTestKey } });
      expect(result.code).toBe(2);
      const report = failedReport(result);
      expect(failedNames(report)).toEqual(['clock']);
      expect(report.checks.find((check) => check.name === 'clock')!.detail).toMatch(/^(59\d|60\d) s ahead of http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await server.close();
    }
  });

  it('a host of the other environment fails the api check: a test key was sent to a production host', async () => {
    const server = await meServer('production');
    try {
      const result = await doctor(['--json'], { env: { ESIGN_SANDBOX_BASE_URL: server.url, ESIGN_API_KEY: hostileTestKey } });
      expect(result.code).toBe(2);
      const report = failedReport(result);
      expect(failedNames(report)).toEqual(['api']);
      expect(report.checks.find((check) => check.name === 'api')!.detail).toMatch(/is a production host, but a test key was sent to it/);
    } finally {
      await server.close();
    }
  });
});
