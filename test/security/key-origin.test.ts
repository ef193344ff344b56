import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, runEsign, tempDir } from '../support/cli.js';
import { useEmulator } from '../support/emulator.js';
import { startCountingHost, type CountingHost } from './hostile-host.js';

const emulator = useEmulator();
let attacker: CountingHost;

async function emulatorRequests(): Promise<number> {
  return ((await (await emulator.fetch('/_emulator/request-log')).json()) as { requests: number }).requests;
}

beforeAll(async () => {
  attacker = await startCountingHost();
});
afterAll(async () => {
  await attacker?.close();
});

describe('a stored key goes only to the base URL stored with it (issue #7)', () => {
  it('refuses ESIGN_SANDBOX_BASE_URL pointing elsewhere, naming both URLs and the ways out, with no request anywhere', async () => {
    const env = { ESIGN_CONFIG_DIR: tempDir('esign-config-') };
    const add = await runEsign(['profiles', 'add', 'acme', '--test-key-stdin', '--sandbox-base-url', emulator.url], { env, input: emulator.key });
    expect(add.code, add.stderr).toBe(0);
    const before = { attacker: attacker.requests, emulator: await emulatorRequests() };

    const refused = await runEsign(['me'], { env: { ...env, ESIGN_SANDBOX_BASE_URL: attacker.url } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`ESIGN_SANDBOX_BASE_URL (${attacker.url}/) is not the sandbox base URL stored with profile acme (${emulator.url}/)`);
    expect(refused.stderr).toContain(`esign profiles set acme --sandbox-base-url ${attacker.url}/`);
    expect(refused.stderr).toContain('ESIGN_API_KEY');
    expect(attacker.requests).toBe(before.attacker);
    expect(await emulatorRequests()).toBe(before.emulator);

    const same = await runEsign(['me'], { env: { ...env, ESIGN_SANDBOX_BASE_URL: `${emulator.url}/` } });
    expect(same.code, same.stderr).toBe(0);
  });

  it('still sends a key from the environment to the environment base URL', async () => {
    const before = attacker.requests;
    const result = await runEsign(['me'], { env: { ESIGN_SANDBOX_BASE_URL: attacker.url, ESIGN_API_KEY: 'zz_test_NOTTHEUSERSKEY00000' } });
    expect(result.code).toBe(3);
    expect(attacker.requests).toBeGreaterThan(before);
  });

  it('never sends a key from the environment to the base URL stored with the default profile', async () => {
    const env = { ESIGN_CONFIG_DIR: tempDir('esign-config-') };
    const add = await runEsign(['profiles', 'add', 'acme', '--test-key-stdin', '--sandbox-base-url', attacker.url], { env, input: emulator.key });
    expect(add.code, add.stderr).toBe(0);
    const before = attacker.requests;

    const refused = await runEsign(['--debug', 'me'], { env: { ...env, ESIGN_API_KEY: 'zz_test_NOTTHEUSERSKEY00000' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('KEY_ORIGIN_MISMATCH: ESIGN_SANDBOX_BASE_URL is not set');
    expect(refused.stderr).toContain(`profile acme (${attacker.url}/)`);
    expect(refused.stderr).toContain('unset ESIGN_API_KEY and ESIGN_API_KEY_FILE');
    expect(refused.stderr).not.toContain('[debug] >');
    expect(attacker.requests).toBe(before);
  });
});

describe('loopback means exactly localhost, 127.0.0.0/8 and ::1, as written (issue #7)', () => {
  it('refuses plain http to hosts that are loopback only by a suffix or a rewritten form, sending nothing', async () => {
    const before = attacker.requests;
    for (const url of [`http://evil.localhost:${attacker.port}`, `http://127.0.0.1.nip.io:${attacker.port}`, `http://127.1:${attacker.port}`, `http://0x7f000001:${attacker.port}`, `http://[::ffff:127.0.0.1]:${attacker.port}`]) {
      const result = await runEsign(['me', '--json'], { env: { ESIGN_SANDBOX_BASE_URL: url, ESIGN_API_KEY: emulator.key } });
      expect(result.code, url).toBe(2);
      expect(parseJson<{ error: { code: string } }>(result.stderr).error.code, url).toBe('BASE_URL_INSECURE');
    }
    expect(attacker.requests).toBe(before);
    const literal = await runEsign(['me'], { env: { ESIGN_SANDBOX_BASE_URL: `http://localhost:${new URL(emulator.url).port}`, ESIGN_API_KEY: emulator.key } });
    expect(literal.code, literal.stderr).toBe(0);
  });
});

describe('ESIGN_API_KEY_FILE (issue #7)', () => {
  function keyFile(content: string, mode = 0o600): string {
    const path = join(tempDir('esign-secret-'), 'esign-key');
    writeFileSync(path, content);
    chmodSync(path, mode);
    return path;
  }

  it('reads the key from a file, against the real emulator, and says where it came from', async () => {
    const path = keyFile(`${emulator.key}\n`);
    const result = await runEsign(['me'], { env: { ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY_FILE: path } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`em_test_…${emulator.key.slice(-4)} from ESIGN_API_KEY_FILE (${path})`);
    expect(result.stderr).toBe('');
    expect(result.stdout + result.stderr).not.toContain(emulator.key);
  });

  it('warns when other users can read the file', async () => {
    const path = keyFile(emulator.key, 0o644);
    const result = await runEsign(['me', '--json'], { env: { ESIGN_SANDBOX_BASE_URL: emulator.url, ESIGN_API_KEY_FILE: path } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`ESIGN_API_KEY_FILE=${path} can be read by other users (mode 0644)`);
  });

  it('fails with exit 2 naming the variable and path, never printing the file’s content', async () => {
    const secret = 'DB_PASSWORD=hunter2-not-an-esign-key';
    const cases: Array<[Record<string, string>, string]> = [
      [{ ESIGN_API_KEY_FILE: join(tempDir(), 'absent') }, 'no such file'],
      [{ ESIGN_API_KEY_FILE: keyFile('') }, 'is empty'],
      [{ ESIGN_API_KEY_FILE: keyFile(`${secret}\n`) }, 'is not a valid key'],
      [{ ESIGN_API_KEY_FILE: keyFile(`${secret}\n`), ESIGN_API_KEY: emulator.key }, 'Both ESIGN_API_KEY and ESIGN_API_KEY_FILE are set'],
    ];
    for (const [extra, message] of cases) {
      for (const flags of [[], ['--json'], ['--debug']]) {
        const result = await runEsign(['me', ...flags], { env: { ESIGN_SANDBOX_BASE_URL: emulator.url, ...extra } });
        expect(result.code, message).toBe(2);
        expect(result.stderr, message).toContain(message);
        expect(result.stderr).toContain('ESIGN_API_KEY_FILE');
        if (!extra.ESIGN_API_KEY) expect(result.stderr).toContain(extra.ESIGN_API_KEY_FILE);
        expect(result.stdout + result.stderr).not.toContain('hunter2');
      }
    }
  });
});
