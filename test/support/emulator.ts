import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { join } from 'node:path';
import { baseEnv, esignBin, repoRoot, tempDir, underFileSizeLimit } from './cli.js';

export interface EmulatorProcess {
  url: string;
  key: string;
  keys: string[];
  environment: string;
  child: ChildProcess;
  /** Everything it wrote to stderr so far. */
  readonly stderr: string;
  /** Env for `runEsign` pointing at this emulator with its key. */
  env: Record<string, string>;
  /** GET/POST a path on the emulator (control routes or raw API calls). */
  fetch(path: string, init?: RequestInit & { key?: string | false }): Promise<Response>;
  stop(): Promise<void>;
}

/**
 * Starts `esign emulator` (the real binary and server) on a free loopback port; `executable` runs another esign than
 * `node bin/esign.cjs` (an installed one, the single executable), with `env` added to the clean environment.
 */
export async function startEmulatorProcess(
  args: readonly string[] = [],
  { executable, env, fileSizeLimitKiB }: { executable?: string; env?: Record<string, string | undefined>; fileSizeLimitKiB?: number } = {},
): Promise<EmulatorProcess> {
  const esign = [...(executable === undefined ? [process.execPath, esignBin] : [executable]), '--json', 'emulator', '--port', '0', ...args];
  const [command, argv] = underFileSizeLimit(esign, fileSizeLimitKiB);
  const child = spawn(command, argv, {
    env: baseEnv(env),
    cwd: tempDir('esign-emulator-'),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const started = await new Promise<{ url: string; keys: string[]; environment: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${stderr}`)), 20_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      try {
        const parsed = JSON.parse(stdout) as { url: string; keys: string[]; environment: string };
        clearTimeout(timer);
        resolve(parsed);
      } catch {
        // not complete yet
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with ${code}: ${stderr}`));
    });
  });
  const key = started.keys[0]!;
  const variable = started.environment === 'production' ? 'ESIGN_BASE_URL' : 'ESIGN_SANDBOX_BASE_URL';
  // With ESIGN_PRISM (CI's validated-traffic run), clients reach the emulator through the validating proxy.
  const proxy = process.env.ESIGN_PRISM ? await startValidatingProxy(started.url) : undefined;
  const url = proxy?.url ?? started.url;
  return {
    ...started,
    url,
    key,
    child,
    get stderr() {
      return stderr;
    },
    env: { [variable]: url, ESIGN_API_KEY: key },
    fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      if (init.key !== false && path.startsWith('/v')) headers.set('authorization', `Bearer ${init.key ?? key}`);
      return fetch(`${url}${path}`, { ...init, headers });
    },
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
      await proxy?.stop();
    },
  };
}

export interface ValidatingProxy {
  url: string;
  /** Stops the proxy; rejects with Prism's violations of docs/openapi.json when there were any. */
  stop(): Promise<void>;
}

/** scripts/validating-proxy.mjs in front of `url`: Prism checks every request and answer against docs/openapi.json. */
export async function startValidatingProxy(url: string): Promise<ValidatingProxy> {
  // Its standard input stays open while this process lives: the proxy stops when it ends.
  const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'validating-proxy.mjs'), url], { env: process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const started = await new Promise<{ url: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the validating proxy did not start: ${stderr}`)), 60_000);
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!stdout.includes('\n')) return;
      clearTimeout(timer);
      resolve(JSON.parse(stdout) as { url: string });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the validating proxy exited with ${code}: ${stderr}`));
    });
  });
  return {
    url: started.url,
    async stop() {
      child.stdin!.end();
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`traffic through the validating proxy did not conform to docs/openapi.json (exit ${code}):\n${stderr}`);
    },
  };
}

/**
 * The emulator of a test file or describe block: started before its first test, stopped after its last. The handle
 * reads through to the running emulator, so it is declared where the tests are and used inside tests and hooks.
 */
export function useEmulator(args: readonly string[] = []): EmulatorProcess {
  return useEmulators(args)[0];
}

/** Several emulators for a file or describe block (`useEmulator` for each), started side by side. */
export function useEmulators<const T extends readonly (readonly string[])[]>(...argLists: T): { [K in keyof T]: EmulatorProcess } {
  const started: (EmulatorProcess | undefined)[] = [];
  beforeAll(async () => {
    await Promise.all(argLists.map(async (args, index) => (started[index] = await startEmulatorProcess(args))));
  });
  afterAll(async () => {
    await Promise.all(started.map((emulator) => emulator?.stop()));
  });
  return argLists.map((args, index) => lazyHandle(args, () => started[index])) as { [K in keyof T]: EmulatorProcess };
}

function lazyHandle(args: readonly string[], current: () => EmulatorProcess | undefined): EmulatorProcess {
  const running = (): EmulatorProcess => {
    const emulator = current();
    if (!emulator) throw new Error(`the emulator (${args.join(' ') || 'no options'}) is started in beforeAll: use it inside a test or a hook`);
    return emulator;
  };
  return {
    get url() {
      return running().url;
    },
    get key() {
      return running().key;
    },
    get keys() {
      return running().keys;
    },
    get environment() {
      return running().environment;
    },
    get child() {
      return running().child;
    },
    get stderr() {
      return running().stderr;
    },
    get env() {
      return running().env;
    },
    fetch: (path, init) => running().fetch(path, init),
    stop: () => running().stop(),
  };
}

/** An emulator for one test: started, handed to `run`, and stopped whatever `run` does. */
export async function withEmulator<T>(args: readonly string[], run: (emulator: EmulatorProcess) => Promise<T>): Promise<T> {
  const emulator = await startEmulatorProcess(args);
  try {
    return await run(emulator);
  } finally {
    await emulator.stop();
  }
}
