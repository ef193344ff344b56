/*
 * A real pseudo-terminal for tests: tmux runs the built binary with no CI variable, the test reads the screen and
 * types. Each tmux server has its own socket, so its environment is exactly the one given here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { baseEnv, esignBin, tempDir } from './cli.js';

export const tmuxBinary = ['/usr/bin/tmux', '/usr/local/bin/tmux', '/opt/homebrew/bin/tmux'].find((path) => existsSync(path));

export class Terminal {
  private readonly socket = `esign-test-${process.pid}-${Math.random().toString(36).slice(2)}`;

  constructor(private readonly env: Record<string, string>) {}

  private tmux(...args: string[]): string {
    return execFileSync(tmuxBinary!, ['-L', this.socket, ...args], { env: this.env, encoding: 'utf8' });
  }

  /**
   * Runs esign in a terminal of `columns` x 50 (200 unless told, in `cwd`); the shell prints the exit code and keeps the
   * pane open to be read. `stdoutTo` sends stdout to that file instead, stderr staying on the terminal. `columns` 0 is
   * a terminal that reports no size (0 x 0, a pseudo-terminal nobody sized, as `script` makes in a CI job): tmux draws
   * 200 columns, but esign is told 0.
   */
  run(args: readonly string[], cwd?: string, columns = 200, stdoutTo?: string): void {
    const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, esignBin, ...args].map(quote).join(' ') + (stdoutTo ? ` > ${quote(stdoutTo)}` : '');
    const unsized = columns === 0 ? 'stty cols 0 rows 0; ' : '';
    this.tmux('new-session', '-d', '-x', String(columns || 200), '-y', '50', '-s', 'esign', ...(cwd ? ['-c', cwd] : []), `${unsized}${command}; echo EXIT=$?; sleep 600`);
  }

  /** The visible text; with `escapes`, colours and attributes as escape sequences too. */
  screen(escapes = false): string {
    return this.tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 'esign');
  }

  /**
   * Everything printed (the lines scrolled off the top too), the lines the terminal wrapped joined again: a row wider
   * than the terminal shows as one.
   */
  joinedScreen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'esign');
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', '-t', 'esign', ...keys);
  }

  type(text: string): void {
    this.tmux('send-keys', '-t', 'esign', '-l', text);
  }

  async waitFor(pattern: RegExp, timeoutMs = 20_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (pattern.test(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`the screen never showed ${pattern}:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  stop(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}

/** A terminal whose esign talks to `env` (an emulator's), as a person at a keyboard: no CI, no tmux nesting. */
export function terminalWith(env: Record<string, string>, extra: Record<string, string | undefined> = {}): Terminal {
  return new Terminal(baseEnv({ ...env, CI: undefined, TMUX: undefined, TERM: 'xterm-256color', ESIGN_CONFIG_DIR: tempDir('esign-config-'), ...extra }));
}
