import { CommanderError } from 'commander';
import { isGroup, type CommandSpec, type Entry, type LazyEntry } from '../../src/cli/command.js';
import { buildProgram } from '../../src/cli/program.js';
import { entries } from '../../src/commands/index.js';

const loaded = new Map<LazyEntry, Entry>(await Promise.all(entries.map(async (entry) => [entry, await entry.load()] as const)));
const pathOf = new Map<CommandSpec<never>, string>();
for (const entry of loaded.values()) {
  if (!isGroup(entry)) pathOf.set(entry, entry.name);
  else {
    if (entry.run) pathOf.set(entry.run, entry.name);
    for (const spec of entry.commands) pathOf.set(spec, `${entry.name} ${spec.name}`);
  }
}

export interface Parsed {
  /** The command the line reaches (`envelopes list`), unless it only asked for help or failed to parse. */
  path?: string;
  error?: string;
  /** What commander printed (help). */
  out: string;
}

/** Parses an esign command line as the binary would, with the whole command tree loaded, and runs nothing. */
export async function parseCommandLine(argv: readonly string[]): Promise<Parsed> {
  let reached: string | undefined;
  let out = '';
  const program = buildProgram(entries, loaded, '0.0.0-test', async (spec) => void (reached = pathOf.get(spec)), {
    out: (text) => (out += text),
    err: (text) => (out += text),
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return { ...(reached ? { path: reached } : {}), out };
  } catch (error) {
    if (error instanceof CommanderError && (error.code === 'commander.helpDisplayed' || error.code === 'commander.version')) return { out };
    return { error: (error as Error).message, out };
  }
}
