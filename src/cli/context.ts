import type { ApiClient } from '../api/client.js';
import type { DryRunRequest } from '../api/dry-run.js';
import type { ResolvedCredentials } from '../auth/resolve.js';
import { loadTrustedProjectConfigs } from '../auth/profiles.js';
import { env } from '../core/env.js';
import { loadProjectConfig, type LoadedProjectConfig } from '../config/project.js';
import { Output } from '../output/output.js';
import { createPrompter, type Prompter } from '../output/prompts.js';
import { redactor } from '../output/redact.js';
import { terminalJson } from '../output/sanitize.js';
import { reportedColumns } from '../output/terminal-width.js';
import type { Context, GlobalOptions } from './command.js';

export interface ContextIO {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

export interface CreatedContext extends Context {
  dispose(): Promise<void>;
  /** For a 401: which key was sent and where it came from, once credentials were resolved. */
  refusedKeyHint(): Promise<string | undefined>;
  /** Whether a request of the command carried `--idempotency-key` (false when it made none). */
  givenIdempotencyKeyUsed(): boolean;
}

/**
 * Only a terminal has a width to fit: piped or redirected, or a terminal that tells no width, a table keeps every
 * character.
 */
function terminalWidth(stdout: NodeJS.WriteStream): { terminalWidth?: number } {
  if (!stdout.isTTY) return {};
  const columns = env.columns() ?? reportedColumns(stdout);
  return columns ? { terminalWidth: columns } : {};
}

export function isInteractive(io: ContextIO): boolean {
  return Boolean(io.stdin.isTTY && io.stderr.isTTY) && !env.ci();
}

export function createContext(globals: GlobalOptions, io: ContextIO, version: string, options: { setupWarnings?: boolean } = {}): CreatedContext {
  const output = new Output({
    json: globals.json,
    quiet: globals.quiet,
    debug: globals.debug,
    color: globals.color && !env.noColor() && Boolean(io.stdout.isTTY),
    stderrColor: globals.color && !env.noColor() && Boolean(io.stderr.isTTY),
    ...(globals.wide ? {} : terminalWidth(io.stdout)),
    stdout: io.stdout,
    stderr: io.stderr,
  });
  const prompts: Prompter = createPrompter({ interactive: () => isInteractive(io), output: io.stderr });
  let project: Promise<LoadedProjectConfig | undefined> | undefined;
  let credentials: Promise<ResolvedCredentials> | undefined;
  let client: ApiClient | undefined;

  const context: CreatedContext = {
    globals,
    output,
    prompts,
    // process.stdin is created when first asked for: a command that reads no standard input should not pay for it.
    get stdin() {
      return io.stdin;
    },
    version,
    project: () => (project ??= loadProjectConfig(process.cwd(), loadTrustedProjectConfigs)),
    credentials: () =>
      (credentials ??= (async () => {
        // The key and the client are loaded by the first command that needs them: offline commands start without them.
        const { describeKeyOrigin, resolveCredentials } = await import('../auth/resolve.js');
        const resolved = await resolveCredentials({
          live: globals.live,
          project: await context.project(),
          ...(globals.profile ? { profileFlag: globals.profile } : {}),
        });
        if (options.setupWarnings !== false) {
          for (const warning of resolved.warnings ?? []) output.warn(warning);
          for (const exposure of resolved.exposures ?? []) output.warn(`${exposure.message}: ${exposure.fix}.`);
        }
        redactor.registerSecret(resolved.key);
        if (resolved.mode === 'production') {
          output.banner(`live · production · ${describeKeyOrigin(resolved)}`);
        }
        return resolved;
      })()),
    async client() {
      if (client) return client;
      const resolved = await context.credentials();
      const { ApiClient } = await import('../api/client.js');
      client ??= new ApiClient({
        baseUrl: resolved.baseUrl,
        key: resolved.key,
        userAgent: `esign-cli/${version}`,
        timeoutMs: globals.timeout * 1000,
        ...(globals.idempotencyKey ? { idempotencyKey: globals.idempotencyKey } : {}),
        ...(globals.debug ? { trace: (line: string) => output.debug(line) } : {}),
        ...(globals.dryRun ? { onDryRun: (request: DryRunRequest) => output.data(terminalJson(request, 2)) } : {}),
      });
      return client;
    },
    async dispose() {
      await client?.close();
    },
    givenIdempotencyKeyUsed() {
      return client?.givenIdempotencyKeyUsed ?? false;
    },
    async refusedKeyHint() {
      const resolved = await credentials?.catch(() => undefined);
      return resolved ? (await import('../auth/resolve.js')).refusedKeyHint(resolved) : undefined;
    },
  };
  return context;
}
