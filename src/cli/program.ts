import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../api/errors.js';
import { assertIdempotencyKey } from '../api/idempotency.js';
import { keyInputHint, looksLikeKeyOption } from './key-arguments.js';
import { isGroup, type CommandSpec, type Context, type Entry, type GlobalOptions, type LazyEntry } from './command.js';

export type Invoke = (spec: CommandSpec<never>, args: Record<string, unknown>, globals: GlobalOptions) => Promise<void>;

function parseTimeout(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new InvalidArgumentError('expected a positive number of seconds.');
  return seconds;
}

function parseIdempotencyKey(value: string): string {
  try {
    assertIdempotencyKey(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  return value;
}

function addCommand(parent: Command, spec: CommandSpec<never>, invoke: Invoke): void {
  const command = parent.command(spec.name).description(spec.description);
  for (const alias of spec.aliases ?? []) command.alias(alias);
  configureCommand(command, spec, invoke);
}

/** Arguments, options, examples and the action of a command spec, on a commander command. */
function configureCommand(command: Command, spec: CommandSpec<never>, invoke: Invoke): void {
  for (const argument of spec.arguments ?? []) {
    const name = `${argument.name}${argument.variadic ? '...' : ''}`;
    command.argument(argument.required === false ? `[${name}]` : `<${name}>`, argument.description);
  }
  for (const spec_ of spec.options ?? []) {
    const option = new Option(spec_.flags, spec_.description);
    if (spec_.defaultValue !== undefined) option.default(spec_.defaultValue);
    if (spec_.choices) option.choices(spec_.choices);
    if (spec_.parse) {
      const parse = spec_.parse;
      option.argParser((value: string, previous: unknown) => {
        try {
          return parse(value, previous);
        } catch (error) {
          throw new InvalidArgumentError((error as Error).message);
        }
      });
    }
    if (spec_.hidden) option.hideHelp();
    command.addOption(option);
  }
  if (spec.examples?.length) command.addHelpText('after', `\nExamples:\n${spec.examples.map((line) => `  $ ${line}`).join('\n')}`);
  command.action(async (...received: unknown[]) => {
    const self = received[received.length - 1] as Command;
    const args: Record<string, unknown> = { ...self.opts() };
    (spec.arguments ?? []).forEach((argument, index) => {
      if (received[index] !== undefined) args[argument.name] = received[index];
    });
    await invoke(spec, args, globalsFrom(self.optsWithGlobals()));
  });
}

function globalsFrom(options: Record<string, unknown>): GlobalOptions {
  return {
    ...(typeof options.profile === 'string' ? { profile: options.profile } : {}),
    live: options.live === true,
    json: options.json === true,
    quiet: options.quiet === true,
    debug: options.debug === true,
    color: options.color !== false,
    yes: options.yes === true,
    timeout: typeof options.timeout === 'number' ? options.timeout : 30,
    ...(typeof options.idempotencyKey === 'string' ? { idempotencyKey: options.idempotencyKey } : {}),
    dryRun: options.dryRun === true,
  };
}

/**
 * The command tree: `loaded` entries in full, the others as a name and a description for the top-level help (their
 * modules are not loaded unless the command line names them).
 */
export function buildProgram(
  entries: readonly LazyEntry[],
  loaded: ReadonlyMap<LazyEntry, Entry>,
  version: string,
  invoke: Invoke,
  write: { out(s: string): void; err(s: string): void },
): Command {
  const program = new Command('esign')
    .description('Operate electronic-signature envelopes through the Envelope API v4 (sandbox unless --live).')
    .version(version, '-v, --version', 'print the version')
    .option('--profile <name>', 'profile to use (else ESIGN_PROFILE, project config, default profile)')
    .option('--live', 'production: use the live key and the production base URL')
    .option('--json', 'print one JSON document on stdout; errors as JSON on stderr')
    .option('-q, --quiet', "print only the result's ids, one per line (for scripts: id=$(esign env create -q))")
    .option('--debug', 'trace requests and responses on stderr (keys redacted)')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('-y, --yes', 'assume yes for confirmations')
    .option('--dry-run', 'print the request a change would send (method, URL, headers, body; key redacted) and send nothing')
    .addOption(new Option('--timeout <seconds>', 'time limit for each request').argParser(parseTimeout).default(30))
    .addOption(new Option('--idempotency-key <key>', 'Idempotency-Key for the POST this command makes').argParser(parseIdempotencyKey))
    .showSuggestionAfterError(true)
    // One width everywhere, so the help bin/esign.cjs serves from dist/help.txt is the help the program prints.
    .configureHelp({ helpWidth: 80 })
    // Parse errors are reported by the entry point like every other error (and as JSON with --json).
    .configureOutput({ writeOut: write.out, writeErr: write.err, outputError: () => {} })
    .exitOverride();

  for (const listed of entries) {
    const entry = loaded.get(listed);
    if (!entry) {
      const stub = program.command(listed.name).description(listed.description);
      for (const alias of listed.aliases ?? []) stub.alias(alias);
      continue;
    }
    if (isGroup(entry)) {
      const group = program.command(entry.name).description(entry.description);
      for (const alias of entry.aliases ?? []) group.alias(alias);
      for (const spec of entry.commands) addCommand(group, spec, invoke);
      if (entry.run) configureCommand(group, entry.run, invoke);
    } else {
      addCommand(program, entry, invoke);
    }
  }
  return program;
}

/** Commander reports its own parse errors by throwing; they are usage errors (exit 2), except help and version. */
export function commanderToUsage(error: CommanderError): UsageError | undefined {
  if (error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
    return undefined;
  }
  const unknownOption = error.code === 'commander.unknownOption' ? /'(--?[\w-]+)/.exec(error.message)?.[1] : undefined;
  const hint = unknownOption && looksLikeKeyOption(unknownOption) ? keyInputHint : 'Run the command with --help for its usage.';
  return new UsageError(error.message.replace(/^error: /, ''), hint, 'USAGE');
}

export type { Context };
