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
