import { CommanderError } from 'commander';
import { isDryRunComplete } from './api/dry-run.js';
import { ExitCode, isEsignError, type ErrorBody } from './api/errors.js';
import type { ContextIO } from './cli/context.js';
import { invokedEntry, type Entry, type GlobalOptions, type LazyEntry } from './cli/command.js';
import { buildProgram, commanderToUsage } from './cli/program.js';
import { entries } from './commands/index.js';
import type { Output } from './output/output.js';

declare const ESIGN_VERSION: string;
export const version = typeof ESIGN_VERSION === 'string' ? ESIGN_VERSION : '0.0.0-dev';

/** For errors before a command's context exists (parse errors): imported only then, to keep start-up small. */
async function earlyOutput(argv: readonly string[], io: ContextIO): Promise<Output> {
  const { Output } = await import('./output/output.js');
  return new Output({ json: argv.includes('--json'), quiet: false, debug: argv.includes('--debug'), color: false, stdout: io.stdout, stderr: io.stderr });
}

/** Runs one command line and answers its exit code: the only place where errors become exit codes. */
export async function run(argv: readonly string[], io: ContextIO = process): Promise<number> {
  let exitCode: number = ExitCode.ok;
  let output: Output | undefined;
  let dispose: (() => Promise<void>) | undefined;
  const invoked = invokedEntry(argv, entries);
  const loaded = new Map<LazyEntry, Entry>(invoked ? [[invoked, await invoked.load()]] : []);
  const program = buildProgram(
    entries,
    loaded,
    version,
    async (spec, args, globals: GlobalOptions) => {
      const { createContext } = await import('./cli/context.js');
      const context = createContext(globals, io, version);
      output = context.output;
      dispose = () => context.dispose();
      if (spec.arguments?.some((argument) => argument.name === 'envelopeId')) {
        await (await import('./workflows/envelope-id.js')).resolveEnvelopeArguments(args, context);
      }
      await spec.handler(args as never, context);
    },
    { out: (text) => io.stdout.write(text), err: (text) => io.stderr.write(text) },
  );
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    const out = output ?? (await earlyOutput(argv, io));
    if (error instanceof CommanderError) {
      const usage = commanderToUsage(error);
      if (usage) {
        out.error(usage.toJSON(), usage.hint);
        exitCode = usage.exitCode;
      }
    } else if (isDryRunComplete(error)) {
      exitCode = error.exitCode;
    } else if (isEsignError(error)) {
      out.error(error.toJSON(), error.hint, error.stack);
      exitCode = error.exitCode;
    } else {
      const body: ErrorBody = { code: 'UNEXPECTED', message: (error as Error)?.message ?? String(error) };
      out.error(body, 'This is a bug in esign; run again with --debug and report the trace.', (error as Error)?.stack);
      exitCode = ExitCode.unexpected;
    }
  } finally {
    await dispose?.();
  }
  return exitCode;
}

const isEntryPoint = typeof ESIGN_VERSION === 'string';
if (isEntryPoint) {
  const code = await run(process.argv.slice(2));
  // Let stdout drain (it may be a pipe), then leave even if a keep-alive socket or a timer lingers.
  process.stdout.write('', () => process.exit(code));
}
