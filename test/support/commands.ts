/* Every command of the CLI as data, for unit tests that check a rule across all of them. */
import { isGroup, type CommandSpec } from '../../src/cli/command.js';
import { entries } from '../../src/commands/index.js';

export interface NamedCommand {
  /** `envelopes history`, `me` */
  path: string;
  spec: CommandSpec<never>;
}

export async function everyCommand(): Promise<NamedCommand[]> {
  const found: NamedCommand[] = [];
  for (const entry of entries) {
    const loaded = await entry.load();
    if (!isGroup(loaded)) found.push({ path: entry.name, spec: loaded });
    else for (const spec of loaded.commands) found.push({ path: `${entry.name} ${spec.name}`, spec });
  }
  return found;
}
