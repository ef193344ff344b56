import { access, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../core/errors.js';
import { defineCommand } from '../cli/command.js';

/** The scripts in the package's completions/ folder (written by `npm run completions`), by shell. */
const scripts = { bash: 'esign.bash', zsh: '_esign', fish: 'esign.fish' } as const;
type Shell = keyof typeof scripts;
const shells = Object.keys(scripts) as Shell[];

/** completions/ sits at the package root, above this module whether it runs from src/commands or dist/program. */
async function scriptPath(file: string): Promise<string> {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth++) {
    const candidate = join(dir, 'completions', file);
    if (await access(candidate).then(() => true, () => false)) return candidate;
    dir = dirname(dir);
  }
  throw new Error(`completions/${file} is missing from the esign package; reinstall esign.`);
}

export default defineCommand<{ shell: string }>({
  name: 'completion',
  description: 'Print the shell completion script for bash, zsh or fish (commands, options, values, files, profiles)',
  arguments: [{ name: 'shell', description: shells.join(', '), completion: { words: shells } }],
  examples: [
    'esign completion bash > ~/.local/share/bash-completion/completions/esign',
    'esign completion zsh > ~/.zfunc/_esign',
    'esign completion fish > ~/.config/fish/completions/esign.fish',
  ],
  async handler(args, ctx) {
    if (!(shells as string[]).includes(args.shell)) {
      throw new UsageError(`No completion script for the shell "${args.shell}".`, `Pass one of: ${shells.join(', ')}.`);
    }
    ctx.output.data(await readFile(await scriptPath(scripts[args.shell as Shell]), 'utf8'));
  },
});
