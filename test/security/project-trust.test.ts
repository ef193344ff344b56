import { appendFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, runEsign, tempDir } from '../support/cli.js';
import { useEmulator } from '../support/emulator.js';
import { startCountingHost, type CountingHost } from './hostile-host.js';

const emulator = useEmulator();
let attacker: CountingHost;

beforeAll(async () => {
  attacker = await startCountingHost();
});
afterAll(async () => {
  await attacker?.close();
});

/** A user with a stored profile `acme` bound to the emulator. */
async function userWithProfile(): Promise<Record<string, string>> {
  const env = { ESIGN_CONFIG_DIR: tempDir('esign-config-'), ESIGN_NO_KEYRING: '1' };
  const add = await runEsign(['profiles', 'add', 'acme', '--test-key-stdin', '--sandbox-base-url', emulator.url], { env, input: emulator.key });
  expect(add.code, add.stderr).toBe(0);
  return env;
}

/** A freshly cloned repository whose `.esignrc` points the sandbox at the attacker's host. */
function clonedRepository(): { cwd: string; file: string } {
  const cwd = realpathSync(tempDir('esign-clone-'));
  const file = join(cwd, '.esignrc');
  writeFileSync(file, `profile: acme\nsandboxBaseUrl: ${attacker.url}\n`);
  return { cwd, file };
}

describe('a cloned repository’s project config is trusted explicitly (issue #7: a key is bound to its origin)', () => {
  it('shows a control character in the trusted file’s path, never sends it to the terminal', async () => {
    const env = await userWithProfile();
    const cwd = join(realpathSync(tempDir('esign-clone-')), 'evil\u001b[2Jname');
    mkdirSync(cwd);
    writeFileSync(join(cwd, '.esignrc'), `profile: acme\nsandboxBaseUrl: ${emulator.url}\n`);
    const trust = await runEsign(['config', 'trust'], { env, cwd });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stderr).toContain('evil\\u001b[2Jname');
    expect(trust.stderr).not.toContain('\u001b[2J');
    const untrust = await runEsign(['config', 'untrust'], { env, cwd });
    expect(untrust.code, untrust.stderr).toBe(0);
    expect(untrust.stderr).toContain('No longer trusted: ');
    expect(untrust.stderr).toContain('evil\\u001b[2Jname');
  });

  it('sends no key to a base URL from an untrusted .esignrc, stored key or ESIGN_API_KEY; trusting it uses it; editing it withdraws the trust', async () => {
    const env = await userWithProfile();
    const { cwd, file } = clonedRepository();
    const before = attacker.requests;

    for (const extra of [{}, { ESIGN_API_KEY: emulator.key }]) {
      const refused = await runEsign(['me'], { env: { ...env, ...extra }, cwd });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`${file} sets sandboxBaseUrl to ${attacker.url}/`);
      expect(refused.stderr).toContain(`esign config trust ${file}`);
      expect(refused.stderr).not.toContain(emulator.key);
    }
    expect(attacker.requests).toBe(before);

    const trust = await runEsign(['config', 'trust'], { env, cwd });
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toBe('');
    expect(trust.stderr).toContain(`✓ Trusted ${file}`);
    expect(trust.stderr).toContain(`sandbox ${attacker.url}`);
    expect(readFileSync(join(env.ESIGN_CONFIG_DIR, 'config.json'), 'utf8')).toContain(file);

    const used = await runEsign(['me'], { env, cwd });
    expect(used.code, used.stderr).toBe(3);
    expect(attacker.requests).toBeGreaterThan(before);
    expect(attacker.authorizations.at(-1)).toBe(`Bearer ${emulator.key}`);

    appendFileSync(file, '# edited after it was trusted\n');
    const counted = attacker.requests;
    const changed = await runEsign(['me'], { env, cwd });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toContain('the file has changed since you trusted it');
    expect(changed.stderr).toContain(`esign config trust ${file}`);
    expect(attacker.requests).toBe(counted);

    const listed = await runEsign(['config', 'trusted', '--json'], { env });
    expect(parseJson<unknown[]>(listed.stdout)).toEqual([expect.objectContaining({ path: file, state: 'changed' })]);
    expect((await runEsign(['config', 'trusted', '-q'], { env })).stdout).toBe(`${file}\n`);
    const untrust = await runEsign(['config', 'untrust', file, '--json'], { env });
    expect(parseJson(untrust.stdout)).toEqual({ path: file, removed: true });
    expect(parseJson<unknown[]>((await runEsign(['config', 'trusted', '--json'], { env })).stdout)).toEqual([]);
  });

  it('lets an untrusted project file choose a profile, and use a base URL that is the profile’s own', async () => {
    const env = await userWithProfile();
    const cwd = tempDir('esign-clone-');
    writeFileSync(join(cwd, '.esignrc.json'), JSON.stringify({ profile: 'acme', sandboxBaseUrl: `${emulator.url}/` }));
    const me = await runEsign(['me'], { env: { ...env, ESIGN_PROFILE: undefined }, cwd });
    expect(me.code, me.stderr).toBe(0);
    expect(me.stdout).toContain('from profile acme (file)');
  });

  it('refuses a project file with key-shaped text in a comment, naming the file and line, and will not trust it', async () => {
    const env = await userWithProfile();
    const cwd = realpathSync(tempDir('esign-clone-'));
    const file = join(cwd, '.esignrc.yaml');
    writeFileSync(file, `profile: acme\n# CI key, remove later: ${emulator.key}\n`);
    for (const args of [['me'], ['config', 'trust']]) {
      const result = await runEsign(args, { env, cwd });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`${file} contains an API key (key-shaped text on line 2)`);
      expect(result.stdout + result.stderr).not.toContain(emulator.key);
    }
  });
});

describe('project configs that are programs never run untrusted (issue #7)', () => {
  it('does not run esign.config.js on `esign me` until it is trusted, and `config trust` does not run it either', async () => {
    const env = { ESIGN_CONFIG_DIR: tempDir('esign-config-'), ...emulator.env };
    const cwd = realpathSync(tempDir('esign-clone-'));
    const marker = join(cwd, 'ran.txt');
    const file = join(cwd, 'esign.config.js');
    writeFileSync(file, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = {};\n`);

    const refused = await runEsign(['me'], { env, cwd });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`${file} is a program: loading it would run its code`);
    expect(refused.stderr).toContain(`esign config trust ${file}`);
    expect(existsSync(marker)).toBe(false);

    const trust = await runEsign(['config', 'trust', 'esign.config.js'], { env, cwd });
    expect(trust.code, trust.stderr).toBe(0);
    expect(existsSync(marker)).toBe(false);

    const me = await runEsign(['me'], { env, cwd });
    expect(me.code, me.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it('does not run cosmiconfig’s meta config (.config/config.js) or an $import', async () => {
    const cwd = tempDir('esign-clone-');
    const marker = join(cwd, 'ran.txt');
    const program = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = {};\n`;
    mkdirSync(join(cwd, '.config'));
    writeFileSync(join(cwd, '.config', 'config.js'), program);
    writeFileSync(join(cwd, 'evil.cjs'), program);
    writeFileSync(join(cwd, '.esignrc.yaml'), 'output:\n  json: false\n');
    expect((await runEsign(['me'], { env: emulator.env, cwd })).code).toBe(0);
    writeFileSync(join(cwd, '.esignrc.yaml'), '$import: ./evil.cjs\n');
    expect((await runEsign(['me'], { env: emulator.env, cwd })).code).toBe(2);
    expect(existsSync(marker)).toBe(false);
  });

  it('reports a mistake in a data project file at its file:line:column, once, with exit 2', async () => {
    const cwd = realpathSync(tempDir('esign-clone-'));
    for (const [name, text, at] of [
      ['.esignrc.json', '{"profile": "acme"\n', '.esignrc.json:2:1'],
      ['.esignrc.yaml', 'output:\n  json: [unclosed\n', '.esignrc.yaml:3:1'],
    ] as const) {
      writeFileSync(join(cwd, name), text);
      const result = await runEsign(['me'], { env: emulator.env, cwd });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`${join(cwd, name)}:${at.split(':').slice(1).join(':')}`);
      expect(result.stderr.split('\n').filter((line) => line.includes(join(cwd, name)))).toHaveLength(1);
      rmSync(join(cwd, name));
    }
  });
});
