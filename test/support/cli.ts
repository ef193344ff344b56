import { spawn, type ChildProcess } from 'node:child_process';
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
  /** Runs under `ulimit -f` (KiB): a write past it fails with EFBIG. */
  fileSizeLimitKiB?: number;
  /** An executable to run instead of `node bin/esign.cjs`: an installed `esign` or the single executable. */
  executable?: string;
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

export interface RunningEsign {
  child: ChildProcess;
  /** Everything written so far (for waiting on a line before a signal). */
  readonly stderr: string;
  result: Promise<RunResult>;
}

/** Starts the built `esign` binary as a user would; the caller may signal it while it runs. */
/**
 * The command and arguments that run `commandLine`, under `ulimit -f` (KiB) when a limit is given: a write past it then
 * fails with EFBIG. bash counts 1024-byte blocks; exec keeps the pid, so a signal reaches the program itself.
 */
export function underFileSizeLimit(commandLine: readonly string[], fileSizeLimitKiB: number | undefined): [string, string[]] {
  return fileSizeLimitKiB === undefined ? [commandLine[0]!, commandLine.slice(1)] : ['bash', ['-c', 'ulimit -f "$0" && exec "$@"', String(fileSizeLimitKiB), ...commandLine]];
}

export function startEsign(args: readonly string[], options: RunOptions = {}): RunningEsign {
  const esign = options.executable === undefined ? [process.execPath, esignBin] : [options.executable];
  const [command, argv] = underFileSizeLimit([...esign, ...args], options.fileSizeLimitKiB);
  const child = spawn(command, argv, {
    cwd: options.cwd ?? tempDir('esign-cwd-'),
    env: baseEnv(options.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const result = new Promise<RunResult>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
  child.stdin!.end(options.input ?? '');
  return {
    child,
    get stderr() {
      return stderr;
    },
    result,
  };
}

/** Runs the built `esign` binary as a user would. */
export function runEsign(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return startEsign(args, options).result;
}

export function parseJson<T = Record<string, unknown>>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`not JSON: ${text}`);
  }
}

/** The JSON a probe (a module required through NODE_OPTIONS) wrote after `label` on stderr as the process exited. */
export function probeReport<T = Record<string, unknown>>(stderr: string, label: string): T {
  return parseJson<T>(stderr.slice(stderr.indexOf(label) + label.length));
}

/** Resolves once a running esign has printed text matching `pattern` on stderr (e.g. before sending it a signal). */
export async function stderrShows(running: RunningEsign, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  let exited = false;
  void running.result.then(() => (exited = true));
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(running.stderr)) {
    if (exited) throw new Error(`esign exited before stderr showed ${pattern}: ${running.stderr}`);
    if (Date.now() > deadline) throw new Error(`stderr never showed ${pattern}: ${running.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
