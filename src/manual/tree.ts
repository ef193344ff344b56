import { entries } from '../commands/index.js';
import { isGroup, type ArgumentSpec, type CommandSpec, type Completion, type Entry, type OptionSpec } from '../cli/command.js';
import { globalOptions, programDescription } from '../cli/program.js';

/**
 * Every command with everything its help shows, loaded from the command modules: the one source of the generated
 * completions and docs/commands.md, and of the test that holds every command's help to the same standard.
 */
export interface CommandNode {
  /** The words after `esign` that name it: [] for esign itself, ['envelopes', 'list']. */
  path: readonly string[];
  aliases: readonly string[];
  description: string;
  arguments: readonly ArgumentSpec[];
  options: readonly OptionSpec[];
  examples: readonly string[];
  /** A command, or a group with a command of its own (`esign emulator`); a group without one only lists its commands. */
  runs: boolean;
  subcommands: readonly CommandNode[];
}

/** Options commander adds to every command, and to esign itself. */
export const helpOption: OptionSpec = { flags: '-h, --help', description: 'display help for command' };
export const versionOption: OptionSpec = { flags: '-v, --version', description: 'print the version' };

function commandNode(path: readonly string[], spec: CommandSpec<never>): CommandNode {
  return {
    path,
    aliases: spec.aliases ?? [],
    description: spec.description,
    arguments: spec.arguments ?? [],
    options: spec.options ?? [],
    examples: spec.examples ?? [],
    runs: true,
    subcommands: [],
  };
}

function entryNode(entry: Entry): CommandNode {
  if (!isGroup(entry)) return commandNode([entry.name], entry);
  const own = entry.run ? commandNode([entry.name], entry.run) : undefined;
  return {
    path: [entry.name],
    aliases: entry.aliases ?? [],
    description: entry.description,
    arguments: own?.arguments ?? [],
    options: own?.options ?? [],
    examples: own?.examples ?? [],
    runs: own !== undefined,
    subcommands: entry.commands.map((spec) => commandNode([entry.name, spec.name], spec)),
  };
}

export async function loadCommandTree(): Promise<CommandNode> {
  const loaded = await Promise.all(entries.filter((entry) => !entry.hidden).map((entry) => entry.load()));
  return {
    path: [],
    aliases: [],
    description: programDescription,
    arguments: [],
    options: [versionOption, ...globalOptions],
    examples: [],
    runs: false,
    subcommands: loaded.map(entryNode),
  };
}

export function walk(node: CommandNode): CommandNode[] {
  return [node, ...node.subcommands.flatMap(walk)];
}

export interface ParsedFlags {
  short?: string;
  long: string;
  /** The value's name, e.g. `file` for `--out <file>`; none for a switch. */
  value?: string;
}

/** `-o, --out <file>` → { short: '-o', long: '--out', value: 'file' }. */
export function parseFlags(flags: string): ParsedFlags {
  const match = /^(?:(-\w), )?(--[\w-]+)(?: (?:<(.+)>|\[(.+)\]))?$/.exec(flags);
  if (!match) throw new Error(`Cannot read option flags "${flags}".`);
  const value = (match[3] ?? match[4])?.replace(/\.\.\.$/, '');
  return { ...(match[1] ? { short: match[1] } : {}), long: match[2]!, ...(value ? { value } : {}) };
}

/** What a shell offers for an option's value: its completion, else its choices, else anything (none for a switch). */
export function valueCompletion(option: OptionSpec): Completion | 'any' | undefined {
  if (!parseFlags(option.flags).value) return undefined;
  return option.completion ?? (option.choices ? { words: option.choices } : 'any');
}
