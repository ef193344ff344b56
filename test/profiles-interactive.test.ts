import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from './support/cli.js';
import { useEmulator } from './support/emulator.js';
import { terminalWith, tmuxBinary, type Terminal } from './support/terminal.js';

if (!tmuxBinary) console.warn('interactive profiles test skipped: tmux is not installed (.ci/run installs it)');

const emulator = useEmulator();
let terminal: Terminal | undefined;
afterAll(async () => {
  terminal?.stop();
});

describe.skipIf(!tmuxBinary)('profiles add on a terminal', () => {
  it('asks for the keys with masked prompts (either may be skipped) and for the base URL, never echoing a key', async () => {
    const configDir = tempDir();
    terminal = terminalWith({}, { ESIGN_CONFIG_DIR: configDir, ESIGN_NO_KEYRING: '1' });
    terminal.run(['profiles', 'add', 'acme']);
    await terminal.waitFor(/Test key \(Enter to skip\)/);
    terminal.type('ab_live_NOTATESTKEYNOTATEST');
    terminal.keys('Enter');
    await terminal.waitFor(/this prompt wants the test key/);
    terminal.keys('C-u');
    terminal.type(emulator.key);
    terminal.keys('Enter');
    await terminal.waitFor(/Live key \(Enter to skip\)/);
    terminal.keys('Enter');
    await terminal.waitFor(/Sandbox base URL/);
    // Empty is refused: a key saved without a base URL could never be used.
    terminal.keys('Enter');
    await terminal.waitFor(/A base URL is needed: the key is sent only there/);
    terminal.type('http://example.com');
    terminal.keys('Enter');
    await terminal.waitFor(/plain http:\/\//);
    terminal.keys('C-u');
    terminal.type(emulator.url);
    terminal.keys('Enter');
    const screen = await terminal.waitFor(/EXIT=\d+/);
    expect(screen).toContain('EXIT=0');
    expect(screen).toContain(`Profile acme saved: em_test_…${emulator.key.slice(-4)} (file)`);
    expect(screen).not.toContain(emulator.key);
    expect(screen).not.toContain('NOTATESTKEY');
    const config = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ defaultProfile: 'acme', profiles: { acme: { sandboxBaseUrl: emulator.url, keys: { sandbox: { storage: 'file' } } } } });
    expect(config.profiles.acme.keys.production).toBeUndefined();
  });
});
