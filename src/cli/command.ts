import type { ApiClient } from '../api/client.js';
import type { ResolvedCredentials } from '../auth/resolve.js';
import type { LoadedProjectConfig } from '../config/project.js';
import type { Output } from '../output/output.js';
import type { Prompter } from '../output/prompts.js';

export interface GlobalOptions {
  profile?: string;
  live: boolean;
  json: boolean;
  quiet: boolean;
  debug: boolean;
  color: boolean;
  /** Tables show every column and whole ids, as off a terminal, however narrow the terminal. */
  wide?: boolean;
  yes: boolean;
  /** Per-request time limit, in seconds. */
  timeout: number;
  idempotencyKey?: string;
  /** Print the first request that would change something, and send nothing. */
  dryRun: boolean;
}

/** Everything a handler may touch: no globals, so a command runs in-process in tests. */
export interface Context {
  readonly globals: GlobalOptions;
  readonly output: Output;
  readonly prompts: Prompter;
  readonly stdin: NodeJS.ReadableStream;
  readonly version: string;
  project(): Promise<LoadedProjectConfig | undefined>;
  credentials(): Promise<ResolvedCredentials>;
  /** Resolves credentials on first use (and prints the live banner); commands that need no key never call it. */
  client(): Promise<ApiClient>;
}

/**
 * What a shell offers for a value: file paths, the profile names in config.json, or known words (`list`: a
 * comma-separated list of them). Values an option enforces go in its `choices` instead.
 */
export type Completion = 'file' | 'profile' | { words: readonly string[]; list?: boolean };

export interface ArgumentSpec {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  completion?: Completion;
}

export interface OptionSpec {
  /** Commander syntax: `-o, --out <file>`, `--no-wait`, `--text <text...>`. */
  flags: string;
  description: string;
  defaultValue?: unknown;
  choices?: readonly string[];
  parse?: (value: string, previous: unknown) => unknown;
  /** Not shown in help (kept for scripts). */
  hidden?: boolean;
  /**
   * Takes an API key as its value on purpose, so key-shaped text is not refused there. Only the emulator's `--key`,
   * which names the made-up keys the emulator accepts; a real key is never an argument.
   */
  acceptsKey?: boolean;
  completion?: Completion;
  /**
   * Long flags of the same command this one cannot be given with (they set the same thing, or one makes the other
   * meaningless). A value option and its `--no-` form conflict without being listed.
   */
  conflicts?: readonly string[];
}

export interface CommandSpec<A = Record<string, unknown>> {
  name: string;
  aliases?: readonly string[];
  description: string;
  arguments?: readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  examples?: readonly string[];
  /**
   * The command reports the set-up itself (`doctor`): warnings about the key's files (one others can read, a config
   * folder others can write) are its checks, not lines printed beside them.
   */
  reportsSetup?: boolean;
  /** Positional arguments arrive under their names, options under their camelCase names. */
  handler(args: A, ctx: Context): Promise<void>;
}

export interface GroupSpec {
  name: string;
  aliases?: readonly string[];
  description: string;
  commands: readonly CommandSpec<never>[];
  /** What the group does when no subcommand is named (`esign emulator --port 0`), with its own options. */
  run?: CommandSpec<never>;
}

export type Entry = CommandSpec<never> | GroupSpec;

export function defineCommand<A>(spec: CommandSpec<A>): CommandSpec<A> {
  return spec;
}

export function defineGroup(spec: GroupSpec): GroupSpec {
  return spec;
}

export function isGroup(entry: Entry): entry is GroupSpec {
  return 'commands' in entry;
}

/** Repeatable options (`--text a --text b`). */
export function collect(value: string, previous: unknown): string[] {
  return [...((previous as string[] | undefined) ?? []), value];
}

/** A top-level command as `esign --help` lists it, with its module loaded only when it runs. */
export interface LazyEntry {
  name: string;
  aliases?: readonly string[];
  description: string;
  /** Left out of the help, the manual and the completions: plumbing for the completion scripts. */
  hidden?: boolean;
  load(): Promise<Entry>;
}

/** Global options that take a value: skipped when looking for the command a command line names. */
const valueOptions = new Set(['--profile', '--timeout', '--idempotency-key']);

/** Where the words of a command line that are not options or their values stand, up to `--` (at most `limit`). */
function operandIndexes(argv: readonly string[], limit = Infinity): number[] {
  const indexes: number[] = [];
  for (let index = 0; index < argv.length && indexes.length < limit; index++) {
    const token = argv[index]!;
    if (token === '--') break;
    if (token.startsWith('-')) {
      if (valueOptions.has(token)) index++;
      continue;
    }
    indexes.push(index);
  }
  return indexes;
}

/** The words of a command line that are not options or their values, up to `--` (at most `limit` of them). */
function operandsOf(argv: readonly string[], limit = Infinity): string[] {
  return operandIndexes(argv, limit).map((index) => argv[index]!);
}

/** The name of the top-level command a command line names (`help <command>` names its command), if any. */
function invokedName(argv: readonly string[]): string | undefined {
  const operands = operandsOf(argv, 2);
  return operands[0] === 'help' ? operands[1] : operands[0];
}

function entryNamed(name: string | undefined, entries: readonly LazyEntry[]): LazyEntry | undefined {
  return entries.find((entry) => entry.name === name || entry.aliases?.includes(name ?? ''));
}

/** The command of a group that a command line runs: the subcommand it names, else the group's own run. */
export function invokedGroupCommand(argv: readonly string[], group: GroupSpec): CommandSpec<never> | undefined {
  const operands = new Set(operandsOf(argv));
  return group.commands.find((command) => operands.has(command.name) || command.aliases?.some((alias) => operands.has(alias))) ?? group.run;
}

/** The top-level command a command line names (`help <command>` names its command), if any. */
export function invokedEntry(argv: readonly string[], entries: readonly LazyEntry[]): LazyEntry | undefined {
  return entryNamed(invokedName(argv), entries);
}

/** The command names after `esign help` (`help envelopes void` gives both), or undefined for another command line. */
export function helpTopic(argv: readonly string[]): string[] | undefined {
  const operands = operandsOf(argv);
  return operands[0] === 'help' ? operands.slice(1) : undefined;
}

/**
 * `esign help envelopes list` as `esign envelopes list --help`, as gh reads it: commander's help command shows the
 * help of its first word only (that of `envelopes`). `esign help` and `esign help help` stay commander's.
 */
export function helpAsFlag(argv: readonly string[]): readonly string[] {
  const [help, topic] = operandIndexes(argv, 2);
  if (help === undefined || topic === undefined || argv[help] !== 'help' || argv[topic] === 'help') return argv;
  return [...argv.slice(0, help), ...argv.slice(help + 1), '--help'];
}
