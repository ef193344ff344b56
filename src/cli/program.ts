import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../core/errors.js';
import { assertIdempotencyKey } from '../api/idempotency.js';
import { longestTimeLimitMs } from '../input/time-limit.js';
import { keyInputHint, looksLikeKeyOption } from './key-arguments.js';
import { isGroup, type CommandSpec, type Context, type Entry, type GlobalOptions, type LazyEntry, type OptionSpec } from './command.js';

export type Invoke = (spec: CommandSpec<never>, args: Record<string, unknown>, globals: GlobalOptions) => Promise<void>;

/** `--timeout`: seconds, in plain decimals (not 1e3 or 0x10), from a millisecond to the longest time limit (24 days). */
function parseTimeout(value: string): number {
  const seconds = /^\d+(?:\.\d+)?$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(seconds * 1000 >= 1 && seconds * 1000 <= longestTimeLimitMs)) {
    throw new InvalidArgumentError(`expected seconds from 0.001 to ${longestTimeLimitMs / 1000} (24 days), in plain digits such as 30 or 2.5.`);
  }
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

function commanderOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.defaultValue !== undefined) option.default(spec.defaultValue);
  if (spec.choices) option.choices(spec.choices);
  if (spec.parse || option.required) {
    // Commander's own handling when there is no parser: the last value, or every value of a variadic option.
    const parse = spec.parse ?? (option.variadic ? (value: string, previous: unknown) => (Array.isArray(previous) && previous !== spec.defaultValue ? [...(previous as unknown[]), value] : [value]) : (value: string) => value);
    option.argParser((value: string, previous: unknown) => {
      // `--journal ''` (an unset CI variable) would otherwise count as not given, and run something else than asked.
      // An option with a parser of its own says what an empty value means for it (`--title ''`: use list --all).
      if (option.required && value === '' && !spec.parse) throw new InvalidArgumentError('the value is empty; give one, or leave the option out.');
      try {
        return parse(value, previous);
      } catch (error) {
        throw new InvalidArgumentError((error as Error).message);
      }
    });
  }
  if (spec.hidden) option.hideHelp();
  return option;
}

export const programDescription = 'Operate electronic-signature envelopes through the Envelope API v4 (sandbox unless --live).';

/** Options every command takes (before or after the command's name), as data for the help, the manual and completions. */
export const globalOptions: readonly OptionSpec[] = [
  { flags: '--profile <name>', description: 'profile to use (else ESIGN_PROFILE, project config, default profile)', completion: 'profile' },
  { flags: '--live', description: 'production: use the live key and the production base URL' },
  { flags: '--json', description: 'print one JSON document on stdout; errors as JSON on stderr' },
  { flags: '-q, --quiet', description: "print only the result's ids, one per line (for scripts: id=$(esign env create -q))" },
  { flags: '--debug', description: 'trace requests and responses on stderr (keys redacted)' },
  { flags: '--no-color', description: 'no colour (also NO_COLOR)' },
  { flags: '--wide', description: 'tables show every column and whole ids, however narrow the terminal' },
  { flags: '-y, --yes', description: 'assume yes for confirmations' },
  { flags: '--dry-run', description: 'print the request a change would send (method, URL, headers, body; key redacted) and send nothing; a change to profiles, trusted configs or an --out file is described, not made' },
  { flags: '--timeout <seconds>', description: 'time limit for each request', parse: parseTimeout, defaultValue: 30 },
  { flags: '--idempotency-key <key>', description: 'Idempotency-Key for the POST this command makes', parse: parseIdempotencyKey },
];

function addCommand(parent: Command, spec: CommandSpec<never>, invoke: Invoke, options: { hidden?: boolean } = {}): void {
  const command = parent.command(spec.name, options).description(spec.description);
  for (const alias of spec.aliases ?? []) command.alias(alias);
  configureCommand(command, spec, invoke);
}

/** Arguments, options, examples and the action of a command spec, on a commander command. */
function configureCommand(command: Command, spec: CommandSpec<never>, invoke: Invoke): void {
  for (const argument of spec.arguments ?? []) {
    const name = `${argument.name}${argument.variadic ? '...' : ''}`;
    command.argument(argument.required === false ? `[${name}]` : `<${name}>`, argument.description);
  }
  // Which flags the command line gave: commander keeps one value per attribute, so `--deadline 7d --no-deadline`
  // leaves only the last, and its Option.conflicts() cannot tell an option from its --no- form.
  const given = new Set<string>();
  for (const option of spec.options ?? []) {
    const added = commanderOption(option);
    command.addOption(added);
    command.on(`option:${added.name()}`, () => given.add(added.long!));
  }
  if (spec.examples?.length) command.addHelpText('after', `\nExamples:\n${spec.examples.map((line) => `  $ ${line}`).join('\n')}`);
  command.action(async (...received: unknown[]) => {
    const self = received[received.length - 1] as Command;
    refuseConflictingFlags(spec.options ?? [], given);
    const args: Record<string, unknown> = { ...self.opts() };
    (spec.arguments ?? []).forEach((argument, index) => {
      if (received[index] !== undefined) args[argument.name] = received[index];
    });
    await invoke(spec, args, globalsFrom(self.optsWithGlobals()));
  });
}

/** Two flags that set the same thing (or undo each other) are refused, instead of the last one silently winning. */
function refuseConflictingFlags(options: readonly OptionSpec[], given: ReadonlySet<string>): void {
  for (const option of options) {
    const long = new Option(option.flags).long!;
    const negated = long.startsWith('--no-') ? undefined : `--no-${long.slice(2)}`;
    for (const other of [...(option.conflicts ?? []), ...(negated ? [negated] : [])]) {
      if (given.has(long) && given.has(other)) throw new UsageError(`${long} and ${other} do not go together.`, `Give one of them.`);
    }
  }
}

function globalsFrom(options: Record<string, unknown>): GlobalOptions {
  return {
    ...(typeof options.profile === 'string' ? { profile: options.profile } : {}),
    live: options.live === true,
    json: options.json === true,
    quiet: options.quiet === true,
    debug: options.debug === true,
    color: options.color !== false,
    ...(options.wide === true ? { wide: true } : {}),
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
    .description(programDescription)
    .version(version, '-v, --version', 'print the version')
    .showSuggestionAfterError(true)
    // One width everywhere, so the help bin/esign.cjs serves from dist/help.json is the help the program prints. Long
    // option names leave descriptions a narrow column: commander stops wrapping below 40, and the lines ran past 80.
    .configureHelp({ helpWidth: 80, minWidthToWrap: 20, showGlobalOptions: true })
    // Parse errors are reported by the entry point like every other error (and as JSON with --json).
    .configureOutput({ writeOut: write.out, writeErr: write.err, outputError: () => {} })
    .exitOverride();
  for (const option of globalOptions) program.addOption(commanderOption(option));

  for (const listed of entries) {
    const entry = loaded.get(listed);
    const hidden = { hidden: listed.hidden === true };
    if (!entry) {
      const stub = program.command(listed.name, hidden).description(listed.description);
      for (const alias of listed.aliases ?? []) stub.alias(alias);
      continue;
    }
    if (isGroup(entry)) {
      const group = program.command(entry.name, hidden).description(entry.description);
      for (const alias of entry.aliases ?? []) group.alias(alias);
      for (const spec of entry.commands) addCommand(group, spec, invoke);
      if (entry.run) configureCommand(group, entry.run, invoke);
    } else {
      addCommand(program, entry, invoke, hidden);
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
  // Commander puts its suggestion on a line of its own; the rest of its message may quote the command line, whose
  // control characters stay visible.
  const [problem, suggestion] = error.message.replace(/^error: /, '').split(/\n(?=\(Did you mean [^\n]*\?\)$)/);
  return new UsageError(suggestion === undefined ? [problem!] : [problem!, suggestion], hint, 'USAGE');
}

export type { Context };

/**
 * The first name of `esign help <names…>` that is no command there (`help envelopes bogus` gives `envelopes bogus`):
 * commander would print the nearest help it finds and exit 0, while `esign envelopes bogus` is exit 2.
 */
export function unknownHelpTopic(program: Command, topic: readonly string[]): string | undefined {
  let command = program;
  for (const [index, name] of topic.entries()) {
    const next = command.commands.find((candidate) => candidate.name() === name || candidate.aliases().includes(name));
    if (!next) return topic.slice(0, index + 1).join(' ');
    command = next;
  }
  return undefined;
}
