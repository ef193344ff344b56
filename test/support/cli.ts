import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const esignBin = join(repoRoot, 'bin', 'esign.cjs');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  cwd?: string;
  timeoutMs?: number;
}

export function tempDir(prefix = 'esign-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * A clean environment for the binary: nothing from the developer's own esign setup leaks in (keys, profiles, base
 * URLs), colour off, and the keychain off unless a test asks for it.
 */
export function baseEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('ESIGN_')) env[name] = value;
  }
  env.NO_COLOR = '1';
  env.ESIGN_NO_KEYRING = '1';
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Runs the built `esign` binary as a user would. */
export function runEsign(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [esignBin, ...args], {
      cwd: options.cwd ?? tempDir('esign-cwd-'),
      env: baseEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

export function parseJson<T = Record<string, unknown>>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON: ${text}`);
  }
}

export interface RunningEsign {
  /** Resolves once stderr has printed text matching `pattern`. */
  stderrShows(pattern: RegExp, timeoutMs?: number): Promise<void>;
  kill(signal: NodeJS.Signals): void;
  done: Promise<RunResult & { elapsedMs: number }>;
}

/** Starts the built binary without waiting for it, to watch its progress and send it signals (Ctrl-C, SIGTERM). */
export function startEsign(args: readonly string[], options: RunOptions = {}): RunningEsign {
  const child = spawn(process.execPath, [esignBin, ...args], {
    cwd: options.cwd ?? tempDir('esign-cwd-'),
    env: baseEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const started = Date.now();
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const watcher of watchers) watcher();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const done = new Promise<RunResult & { elapsedMs: number }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
  child.stdin.end(options.input ?? '');
  return {
    done,
    kill: (signal) => child.kill(signal),
    stderrShows(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(stderr)) return;
          watchers.delete(check);
          clearTimeout(expiry);
          resolve();
        };
        const expiry = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`stderr never showed ${pattern}: ${stderr}`));
        }, timeoutMs);
        watchers.add(check);
        void done.then(() => {
          if (watchers.has(check)) {
            watchers.delete(check);
            clearTimeout(expiry);
            reject(new Error(`esign exited before stderr showed ${pattern}: ${stderr}`));
          }
        });
        check();
      });
    },
  };
}
