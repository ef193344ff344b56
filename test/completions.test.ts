// The generated completion scripts, driven as the shells drive them: bash through its real programmable-completion
// variables (COMP_WORDS, COMP_CWORD, COMPREPLY), fish through `complete -C`, zsh on a terminal with Tab. Profile names come
// from the built binary reading the local config (a server stands at the profiles' base URL to prove it is never asked).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, esignBin, repoRoot, runEsign, tempDir } from './support/cli.js';
import { tmuxBinary } from './support/terminal.js';

const scripts = { bash: join(repoRoot, 'completions', 'esign.bash'), zsh: join(repoRoot, 'completions', '_esign'), fish: join(repoRoot, 'completions', 'esign.fish') };
const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const missing = (shell: string) => `SKIPPED: ${shell} is not installed (apt-get install -y ${shell}; .ci/run installs it)`;

let work: string;
let env: Record<string, string>;
let server: Server;
let requests = 0;

beforeAll(async () => {
  work = tempDir('esign-completions-');
  // `esign` on PATH, as an installed one would be: the scripts call it by the name the command line used.
  mkdirSync(join(work, 'bin'));
  symlinkSync(esignBin, join(work, 'bin', 'esign'));
  mkdirSync(join(work, 'files', 'contracts'), { recursive: true });
  for (const file of ['nda.pdf', 'notes.txt', 'contracts/lease.pdf']) writeFileSync(join(work, 'files', file), '');
  server = createServer((_request, response) => {
    requests++;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  env = baseEnv({ ESIGN_CONFIG_DIR: join(work, 'config'), PATH: `${join(work, 'bin')}:${process.env.PATH}` });
  for (const name of ['acme', 'ci-sandbox']) {
    const added = await runEsign(['profiles', 'add', name, '--test-key-stdin', '--sandbox-base-url', url], { env, input: 'emu_test_0123456789abcdefXYZ' });
    expect(added.code, added.stderr).toBe(0);
  }
});

afterAll(() => server?.close());

/** Completes the last word of `line` (empty when the line ends in a space) the way bash does on Tab. */
function bashComplete(line: string): string[] {
  const words = line.split(' ');
  const script = [
    'source "$1"; shift',
    'COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}',
    '_esign',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const out = execFileSync('bash', ['-c', script, 'bash', scripts.bash, ...words], { cwd: join(work, 'files'), env, encoding: 'utf8' });
  return out.split('\n').filter(Boolean).sort();
}

describe('bash completion (the generated _esign function, through COMP_WORDS/COMP_CWORD/COMPREPLY)', () => {
  it.skipIf(!has('bash'))('offers the top-level commands and their aliases, never the hidden plumbing', () => {
    const offered = bashComplete('esign ');
    expect(offered).toEqual(expect.arrayContaining(['me', 'profiles', 'profile', 'envelopes', 'env', 'completion', 'api']));
    expect(offered).not.toContain('__complete');
  });

  it.skipIf(!has('bash'))('completes a command from its prefix, and a subcommand under an alias', () => {
    expect(bashComplete('esign env')).toEqual(['env', 'envelopes']);
    expect(bashComplete('esign env l')).toEqual(['list', 'ls']);
    expect(bashComplete('esign emulator s')).toEqual(['sign']);
  });

  it.skipIf(!has('bash'))("offers a command's own flags with the global ones, after global options and their values", () => {
    const offered = bashComplete('esign --profile acme env ls --');
    expect(offered).toEqual(expect.arrayContaining(['--status', '--folder', '--all', '--jsonl', '--help', '--json', '--profile', '--live']));
    expect(offered).not.toContain('--until');
    expect(bashComplete('esign --profile acme env')).toEqual(['env', 'envelopes']);
  });

  it.skipIf(!has('bash'))('offers the envelope statuses for --status, also written --status=', () => {
    const statuses = ['COMPLETED', 'DECLINED', 'DRAFT', 'EXPIRED', 'SENT', 'VOIDED'];
    expect(bashComplete('esign envelopes list --status ')).toEqual(statuses);
    expect(bashComplete('esign env ls --status S')).toEqual(['SENT']);
    // bash splits `--status=` at the `=` (COMP_WORDBREAKS): the value is the word after it.
    expect(bashComplete('esign env ls --status = ')).toEqual(statuses);
    expect(bashComplete('esign env wait 3f6c1a2b --until ')).toEqual(['COMPLETED', 'SENT', 'VOIDED']);
  });

  it.skipIf(!has('bash'))('offers occurrence words, delivery methods, roles and option choices', () => {
    expect(bashComplete('esign anchors find --local nda.pdf --occurrence ')).toEqual(['all', 'first']);
    expect(bashComplete('esign part set 3f6c1a2b --add x --delivery ')).toEqual(['EMAIL', 'SMS', 'WHATSAPP']);
    expect(bashComplete('esign participants correct 3f6c1a2b --delivery-method W')).toEqual(['WHATSAPP']);
    expect(bashComplete('esign participants set 3f6c1a2b --role ')).toEqual(['APPROVER', 'SIGNER']);
    expect(bashComplete('esign emulator --environment ')).toEqual(['production', 'sandbox']);
    expect(bashComplete('esign webhooks deliveries 8c2d --status ')).toEqual(['failed', 'pending', 'succeeded']);
  });

  it.skipIf(!has('bash'))('completes webhook event names as a comma-separated list', () => {
    expect(bashComplete('esign webhooks create --events ')).toEqual(['ENVELOPE_COMPLETED', 'ENVELOPE_DECLINED', 'ENVELOPE_SENT', 'ENVELOPE_VOIDED']);
    expect(bashComplete('esign webhooks create --events ENVELOPE_SENT,ENVELOPE_C')).toEqual(['ENVELOPE_SENT,ENVELOPE_COMPLETED']);
  });

  it.skipIf(!has('bash'))('completes file paths where a flag or an argument takes a file, and nowhere else', () => {
    expect(bashComplete('esign fields check --local n')).toEqual(['nda.pdf', 'notes.txt']);
    expect(bashComplete('esign fields check --local contracts/')).toEqual(['contracts/lease.pdf']);
    expect(bashComplete('esign documents upload 3f6c1a2b ')).toEqual(['contracts', 'nda.pdf', 'notes.txt']);
    expect(bashComplete('esign documents upload 3f6c1a2b nda.pdf n')).toEqual(['nda.pdf', 'notes.txt']);
    // The envelope id is not a file; a title is free text.
    expect(bashComplete('esign documents upload ')).toEqual([]);
    expect(bashComplete('esign envelopes create --title n')).toEqual([]);
  });

  it.skipIf(!has('bash'))('offers the profile names from the local config, without asking any server', () => {
    expect(bashComplete('esign --profile ')).toEqual(['acme', 'ci-sandbox']);
    expect(bashComplete('esign profiles use a')).toEqual(['acme']);
    expect(bashComplete('esign profile show c')).toEqual(['ci-sandbox']);
    expect(requests).toBe(0);
  });

  it.skipIf(!has('bash'))('offers `help`, then command names after it (as `esign help envelopes list` reads them), and nothing else', () => {
    const topLevel = bashComplete('esign ');
    expect(topLevel).toContain('help');
    expect(bashComplete('esign help ')).toEqual(topLevel.filter((name) => name !== 'help'));
    expect(bashComplete('esign help env l')).toEqual(['list', 'ls']);
    // A help topic takes no options, no arguments (no files), and no second `help`.
    expect(bashComplete('esign help envelopes list ')).toEqual([]);
    expect(bashComplete('esign help envelopes list --')).toEqual([]);
    expect(bashComplete('esign help documents upload ')).toEqual([]);
    expect(bashComplete('esign help h')).toEqual([]);
  });

  it.skipIf(!has('bash'))('offers the shells to `esign completion`, and nothing once its argument is given', () => {
    expect(bashComplete('esign completion ')).toEqual(['bash', 'fish', 'zsh']);
    expect(bashComplete('esign completion bash ')).toEqual([]);
  });
});

/**
 * Types `line` and Tab into an interactive zsh (no rc files, the generated script on its fpath) in a tmux terminal, and
 * answers the screen once every word of `offered` shows after the line: zsh lists the candidates under it.
 */
async function zshComplete(line: string, offered: readonly string[]): Promise<string> {
  const socket = `esign-zsh-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const tmux = (...args: string[]) => execFileSync(tmuxBinary!, ['-L', socket, ...args], { env: { ...env, TERM: 'xterm-256color' }, encoding: 'utf8' });
  const screenAfter = async (done: (screen: string) => boolean, what: string): Promise<string> => {
    for (const deadline = Date.now() + 15_000; ; ) {
      const screen = tmux('capture-pane', '-p');
      if (done(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`zsh never showed ${what}:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  try {
    tmux('new-session', '-d', '-x', '200', '-y', '50', '-c', join(work, 'files'), 'zsh -f');
    tmux('send-keys', '-l', `PS1='zsh> '; fpath=(${dirname(scripts.zsh)} $fpath); autoload -Uz compinit; compinit -u -D; clear`);
    tmux('send-keys', 'Enter');
    await screenAfter((screen) => /^zsh>\s*$/m.test(screen), 'its prompt');
    tmux('send-keys', '-l', line);
    tmux('send-keys', 'Tab');
    const words = (screen: string) => new Set(screen.slice(screen.lastIndexOf('zsh>')).split(/\s+/));
    return await screenAfter((screen) => offered.every((word) => words(screen).has(word)), offered.join(', '));
  } finally {
    tmux('kill-server');
  }
}

describe('zsh and fish completion', () => {
  it.skipIf(!has('zsh'))(has('zsh') ? 'the zsh script parses (zsh -n)' : missing('zsh'), () => {
    expect(spawnSync('zsh', ['-n', scripts.zsh], { encoding: 'utf8' }).stderr).toBe('');
    expect(spawnSync('zsh', ['-n', scripts.zsh]).status).toBe(0);
  });

  it.skipIf(!has('fish'))(has('fish') ? 'the fish script parses (fish -n)' : missing('fish'), () => {
    const checked = spawnSync('fish', ['-n', scripts.fish], { encoding: 'utf8' });
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  it.skipIf(!has('zsh') || !tmuxBinary)(has('zsh') && tmuxBinary ? 'zsh completes commands, value sets (also --option=value), profiles and files (zsh on a terminal, Tab typed)' : missing(tmuxBinary ? 'zsh' : 'tmux'), async () => {
    for (const [line, offered] of [
      ['esign env l', ['list', 'ls']],
      ['esign envelopes list --status ', ['COMPLETED', 'DECLINED', 'DRAFT', 'EXPIRED', 'SENT', 'VOIDED']],
      ['esign --profile ', ['acme', 'ci-sandbox']],
      ['esign fields check --local n', ['nda.pdf', 'notes.txt']],
      ['esign help env l', ['list', 'ls']],
      // One word, --option=value: the value completes as after a space.
      ['esign envelopes list --status=', ['COMPLETED', 'DECLINED', 'DRAFT', 'EXPIRED', 'SENT', 'VOIDED']],
      ['esign env ls --status=SE', ['--status=SENT']],
    ] as const) {
      const shown = await zshComplete(line, offered);
      expect(shown, line).not.toMatch(/_esign:|command not found|parse error/);
    }
  }, 60_000);

  it.skipIf(!has('fish'))(has('fish') ? 'fish completes commands, value sets, lists and profiles (complete -C)' : missing('fish'), () => {
    const fish = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source ${scripts.fish}; complete -C ${JSON.stringify(line)}`], { cwd: join(work, 'files'), env, encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((candidate) => candidate.split('\t')[0]!)
        .sort();
    expect(fish('esign env l')).toEqual(['list', 'ls']);
    expect(fish('esign envelopes list --status ')).toEqual(['COMPLETED', 'DECLINED', 'DRAFT', 'EXPIRED', 'SENT', 'VOIDED']);
    expect(fish('esign webhooks create --events ENVELOPE_SENT,ENVELOPE_V')).toEqual(['ENVELOPE_SENT,ENVELOPE_VOIDED']);
    expect(fish('esign --profile ')).toEqual(['acme', 'ci-sandbox']);
    expect(fish('esign fields check --local n')).toEqual(['nda.pdf', 'notes.txt']);
    expect(fish('esign ')).toContain('help');
    expect(fish('esign help env l')).toEqual(['list', 'ls']);
    expect(fish('esign help envelopes list --')).toEqual([]);
    expect(fish('esign help documents upload ')).toEqual([]);
    expect(fish('esign help ')).not.toContain('help');
  });

});

describe('esign completion <shell>', () => {
  it.each(Object.entries(scripts))('prints the committed %s script', async (shell, path) => {
    const printed = await runEsign(['completion', shell], { env });
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toBe(readFileSync(path, 'utf8'));
  });

  it('refuses a shell it has no script for, naming the ones it has (exit 2)', async () => {
    const refused = await runEsign(['completion', 'tcsh'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('tcsh');
    expect(refused.stderr).toContain('bash, zsh, fish');
    expect(refused.stdout).toBe('');
  });
});
