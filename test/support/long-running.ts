import { spawn, type ChildProcess } from 'node:child_process';
import { baseEnv, esignBin, tempDir } from './cli.js';

export interface RunningEsign {
  child: ChildProcess;
  /** Every stdout line so far, parsed as JSON (the command runs with --json). */
  lines: any[];
  stderr(): string;
  /** Waits for a line that `match` accepts (at most ~15 s). */
  waitForLine(match: (line: any) => boolean, what: string): Promise<any>;
  /** Sends the signal and answers the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The built binary, left running (e.g. `webhooks listen`), its --json lines read as they come. */
export function spawnEsign(args: readonly string[], env: Record<string, string>, input?: string): RunningEsign {
  const child = spawn(process.execPath, [esignBin, '--json', ...args], { env: baseEnv(env), cwd: tempDir('esign-cwd-'), stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: any[] = [];
  let pending = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const line of complete) if (line.trim()) lines.push(JSON.parse(line));
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin!.end(input ?? '');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => stderr,
    async waitForLine(match, what) {
      for (let tries = 0; tries < 300; tries++) {
        const found = lines.find(match);
        if (found) return found;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no line for ${what}; lines: ${JSON.stringify(lines)}; stderr: ${stderr}`);
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
