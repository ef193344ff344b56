// `--help` at start-up speed (bin/help-pages.cjs, from dist/help.json written by the build): for every command path,
// under every spelling of its names, the page served without loading the command tree is exactly what commander
// prints for it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpPage } from '../bin/help-pages.cjs';
import { isGroup } from '../src/cli/command.js';
import { entries } from '../src/commands/index.js';
import { repoRoot, runEsign } from './support/cli.js';
import { parseCommandLine } from './support/parse-command-line.js';

const names = (named: { name: string; aliases?: readonly string[] }) => [named.name, ...(named.aliases ?? [])];
const spellings: string[][] = [];
for (const lazy of entries) {
  const entry = await lazy.load();
  for (const top of names(lazy)) {
    spellings.push([top]);
    if (isGroup(entry)) for (const command of entry.commands) for (const name of names(command)) spellings.push([top, name]);
  }
}

describe('help pages served by bin/esign.cjs', () => {
  // esign's own help is compared with the bundle's below: this parser loads every command, which widens its columns.
  it.each(spellings.map((words) => [words.join(' '), words] as const))('esign %s --help, -h and help …', async (_, words) => {
    const { out, error } = await parseCommandLine([...words, '--help']);
    expect(error).toBeUndefined();
    expect(out).toMatch(/^Usage: esign/);
    expect(helpPage([...words, '--help'])).toBe(out);
    expect(helpPage([...words, '-h'])).toBe(out);
    expect(helpPage(['help', ...words])).toBe(out);
  });

  it('leaves to the program every command line that is not only command names and a help flag', () => {
    for (const args of [['envelopes', 'get', 'abc', '--help'], ['--json', 'envelopes', '--help'], ['envelopes', 'bogus', '--help'], ['help'], ['help', 'help'], ['envelopes', 'list'], []]) {
      expect(helpPage(args), args.join(' ')).toBeUndefined();
    }
  });

  it('prints, through the binary, what the bundle prints when it builds the command tree', async () => {
    for (const args of [['envelopes', 'list', '--help'], ['env', 'ls', '-h'], ['help', 'batch', 'run'], ['emulator', '--help'], ['--help'], ['-h']]) {
      const fast = await runEsign(args);
      const bundle = spawnSync(process.execPath, [join(repoRoot, 'dist', 'program', 'esign.cjs'), ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect(fast.code, args.join(' ')).toBe(0);
      expect(fast.stdout, args.join(' ')).toBe(bundle.stdout);
    }
  });
});
