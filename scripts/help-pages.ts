// Bundled and run by scripts/build.mjs: prints, as JSON, every help page of the program as it prints it, for
// bin/help-pages.cjs to answer `--help` without loading a command's modules. Each text is kept once, with the
// command lines that print it (the words before `--help`: `envelopes list`, `env ls`; '' for esign itself).
import { Writable } from 'node:stream';
import { isGroup } from '../src/cli/command.js';
import type { ContextIO } from '../src/cli/context.js';
import { entries } from '../src/commands/index.js';
import { run } from '../src/main.js';

/** Every way to name every command: its name and each alias, under each name of its group. */
async function commandSpellings(): Promise<string[][]> {
  const spellings: string[][] = [[]];
  const names = (named: { name: string; aliases?: readonly string[] }) => [named.name, ...(named.aliases ?? [])];
  for (const lazy of entries) {
    const entry = await lazy.load();
    for (const top of names(lazy)) {
      spellings.push([top]);
      if (isGroup(entry)) for (const command of entry.commands) for (const name of names(command)) spellings.push([top, name]);
    }
  }
  return spellings;
}

/** What the program writes to stdout for one command line, run in this process through the entry point's run(). */
async function printed(argv: readonly string[]): Promise<string> {
  let text = '';
  const collect = (append: (chunk: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        append(chunk.toString('utf8'));
        done();
      },
    });
  let errors = '';
  const io = { stdin: process.stdin, stdout: collect((chunk) => (text += chunk)), stderr: collect((chunk) => (errors += chunk)) } as unknown as ContextIO;
  const code = await run(argv, io);
  if (code !== 0 || errors !== '') throw new Error(`esign ${argv.join(' ')} exited ${code}: ${errors}`);
  return text;
}

const texts: string[] = [];
const pages: Record<string, number> = {};
for (const words of await commandSpellings()) {
  const text = await printed([...words, '--help']);
  const known = texts.indexOf(text);
  pages[words.join(' ')] = known >= 0 ? known : texts.push(text) - 1;
}
process.stdout.write(JSON.stringify({ texts, pages }), () => process.exit(0));
