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
