import { CommanderError } from 'commander';
import { isDryRunComplete } from './api/dry-run.js';
import { ApiError, ExitCode, isEsignError, UsageError, type ErrorBody } from './core/errors.js';
import type { ContextIO } from './cli/context.js';
import { helpAsFlag, helpTopic, invokedEntry, type Entry, type GlobalOptions, type LazyEntry } from './cli/command.js';
import { interruptExitCodes, interruption, InterruptedError, type InterruptSignal } from './core/interrupt.js';
import { keyOptionFlags, refuseKeyShapedArguments } from './cli/key-arguments.js';
import { buildProgram, commanderToUsage, unknownHelpTopic } from './cli/program.js';
import { entries } from './commands/index.js';
import type { Output } from './output/output.js';
import { flushProtectedStream, protectStream } from './output/redact.js';
import { recordStreamFailures, streamFailure } from './output/stream-failure.js';

declare const ESIGN_VERSION: string;
export const version = typeof ESIGN_VERSION === 'string' ? ESIGN_VERSION : '0.0.0-dev';

/** For errors before a command's context exists (parse errors): imported only then, to keep start-up small. */
async function earlyOutput(argv: readonly string[], io: ContextIO): Promise<Output> {
  const { Output } = await import('./output/output.js');
  return new Output({ json: argv.includes('--json'), quiet: false, debug: argv.includes('--debug'), color: false, stdout: io.stdout, stderr: io.stderr });
}

/** Runs one command line and answers its exit code: the only place where errors become exit codes. */
export async function run(argv: readonly string[], io: ContextIO = process): Promise<number> {
  // Before anything can write: from here on every byte to stdout and stderr passes the redactor.
  protectStream(io.stdout);
  protectStream(io.stderr);
  recordStreamFailures(io.stdout);
  let exitCode: number = ExitCode.ok;
  let output: Output | undefined;
  let dispose: (() => Promise<void>) | undefined;
  let keyHint: (() => Promise<string | undefined>) | undefined;
  const invoked = invokedEntry(argv, entries);
  const loaded = new Map<LazyEntry, Entry>(invoked ? [[invoked, await invoked.load()]] : []);
  const program = buildProgram(
    entries,
    loaded,
    version,
    async (spec, args, globals: GlobalOptions) => {
      const { createContext } = await import('./cli/context.js');
      const context = createContext(globals, io, version, { setupWarnings: !spec.reportsSetup });
      output = context.output;
      dispose = () => context.dispose();
      keyHint = () => context.refusedKeyHint();
      if (spec.arguments?.some((argument) => argument.name === 'envelopeId' || argument.name === 'envelopeIds')) {
        await (await import('./workflows/envelope-id.js')).resolveEnvelopeArguments(args, context);
      }
      await spec.handler(args as never, context);
      // A global flag that did nothing must not pass for one that worked (`envelopes get --idempotency-key …`).
      if (globals.idempotencyKey !== undefined && !context.givenIdempotencyKeyUsed()) {
        context.output.warn('--idempotency-key was not used: this command sent no request that takes an Idempotency-Key.');
      }
    },
    { out: (text) => io.stdout.write(text), err: (text) => io.stderr.write(text) },
  );
  try {
    refuseKeyShapedArguments(argv, keyOptionFlags([...loaded.values()], argv));
    const unknownTopic = unknownHelpTopic(program, helpTopic(argv)?.filter((name) => name !== 'help') ?? []);
    if (unknownTopic !== undefined) throw new UsageError(`unknown command '${unknownTopic}'`, 'Run esign --help for the list of commands.');
    await program.parseAsync([...helpAsFlag(argv)], { from: 'user' });
  } catch (caught) {
    // Whatever a signal broke on its way out (an aborted request, a closed stream), the person stopped the work.
    const error = interruption.signal.aborted && !(caught instanceof InterruptedError) ? interruption.signal.reason : caught;
    const out = output ?? (await earlyOutput(argv, io));
    if (error instanceof CommanderError) {
      const usage = commanderToUsage(error);
      if (usage) {
        out.error({ ...usage.toJSON(), lines: usage.lines }, usage.hint);
        exitCode = usage.exitCode;
      }
    } else if (isDryRunComplete(error)) {
      exitCode = error.exitCode;
    } else if (isEsignError(error)) {
      if (error.unansweredIdempotencyKey) {
        const { explainUnanswered } = await import('./cli/repeat.js');
        const explained = explainUnanswered(error.toJSON(), argv, error.unansweredIdempotencyKey);
        out.error(explained.body, explained.hint, error.stack);
      } else {
        const refusedKey = error instanceof ApiError && error.status === 401 ? await keyHint?.() : undefined;
        const hint = error.hint ?? refusedKey ?? (error instanceof ApiError ? (await import('./cli/hints.js')).commandHint(error) : undefined);
        out.error({ ...error.toJSON(), lines: error.lines }, hint, error.stack);
      }
      exitCode = error.exitCode;
    } else {
      const body: ErrorBody = { code: 'UNEXPECTED', message: (error as Error)?.message ?? String(error) };
      out.error(body, 'This is a bug in esign; run again with --debug and report the trace.', (error as Error)?.stack);
      exitCode = ExitCode.unexpected;
    }
  } finally {
    await dispose?.();
    flushProtectedStream(io.stdout);
    flushProtectedStream(io.stderr);
  }
  // Output that could not be written fails a command that otherwise succeeded (one that failed has said why already).
  if (streamFailure(io.stdout) && exitCode === ExitCode.ok) {
    const lost = (await import('./output/output.js')).stdoutLost(io.stdout);
    if (lost) {
      (output ?? (await earlyOutput(argv, io))).error(lost.toJSON(), lost.hint);
      exitCode = lost.exitCode;
    }
  }
  return exitCode;
}

/**
 * Time a command gets to stop by itself and say what it did, after the first Ctrl-C or SIGTERM: the promise is an end
 * within a second, and Node takes a few tens of milliseconds more to leave once process.exit is called.
 */
const INTERRUPT_GRACE_MS = 750;

/**
 * The first SIGINT/SIGTERM aborts `interruption.signal` so the running work can stop and report; a second one, or work
 * that does not stop within the grace time (but for work a stop must finish, `interruption.finishing`), ends the
 * process at once after removing temporary files. This thread is
 * never busy for long (PDFs are read in worker threads, a small one here in slices between which pdfjs yields to the
 * event loop: src/pdf/text.ts), so the handler always runs.
 */
function installInterruptHandlers(): void {
  const forceExit = (signal: InterruptSignal) => {
    interruption.runForcedExitCleanups();
    process.exit(interruptExitCodes[signal]);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interruption.signal.aborted) forceExit(signal);
      interruption.trigger(signal);
      const forceUnlessFinishing = () => (interruption.isFinishing ? setTimeout(forceUnlessFinishing, 50).unref() : forceExit(signal));
      setTimeout(forceUnlessFinishing, INTERRUPT_GRACE_MS).unref();
    });
  }
}

/**
 * `esign envelopes list | head -1`: the reader left, so there is nobody to tell; stop quietly, as `cat` would. Any
 * other failure of stdout (a full disk) is the command's to report (`stdoutLost`); one of stderr leaves nowhere to.
 */
function exitQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') return;
      interruption.runForcedExitCleanups();
      process.exit(ExitCode.ok);
    });
  }
}

const isEntryPoint = typeof ESIGN_VERSION === 'string';
if (isEntryPoint) {
  installInterruptHandlers();
  exitQuietlyOnClosedPipe();
  // No top-level await: the single executable's bundle of this module is CommonJS.
  void run(process.argv.slice(2)).then((code) => {
    // Let stdout and stderr drain (either may be a pipe, which takes 64 KiB at a time: a long --json error document
    // on stderr was cut there), then leave even if a keep-alive socket or a timer lingers.
    const drained = (stream: NodeJS.WriteStream) => new Promise<void>((resolve) => stream.write('', () => resolve()));
    void Promise.all([drained(process.stdout), drained(process.stderr)]).then(() => process.exit(code));
  });
}
