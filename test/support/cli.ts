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
