// Every command's --help, walked over the whole command tree: a one-line summary, its arguments, its options with their
// defaults, and examples that are real command lines (each one parses, and names the command it illustrates).
import { describe, expect, it } from 'vitest';
import { loadCommandTree, parseFlags, walk, type CommandNode } from '../src/manual/tree.js';
import { parseCommandLine as parse } from './support/parse-command-line.js';
import { esignInvocations } from './support/shell-words.js';

const everyNode = walk(await loadCommandTree());
const runnable = everyNode.filter((node) => node.runs);

const squeezed = (text: string) => text.replace(/\s+/g, ' ');

describe('every --help fits 80 columns', () => {
  it.each(everyNode.map((node) => [node.path.join(' '), node] as const))('esign %s --help', async (_, node: CommandNode) => {
    const { out } = await parse([...node.path, '--help']);
    // An example is a command line, and one word cannot be cut: both may run past the edge; nothing else does.
    const over = out.split('\n').filter((line) => line.length > 80 && !line.startsWith('  $ ') && line.trim().includes(' '));
    expect(over).toEqual([]);
  });
});

describe.each(runnable.map((node) => [node.path.join(' '), node] as const))('esign %s --help', (name, node: CommandNode) => {
  it('has a one-line summary', () => {
    expect(node.description).toMatch(/^[A-Z]/);
    expect(node.description).not.toContain('\n');
    expect(node.description.length).toBeLessThanOrEqual(150);
  });

  it('shows the summary, usage, every argument and every option with its default', async () => {
    const { out } = await parse([...node.path, '--help']);
    const help = squeezed(out);
    expect(help).toContain(`Usage: esign ${name}`);
    expect(help).toContain(squeezed(node.description));
    for (const argument of node.arguments) {
      expect(argument.description, `argument ${argument.name}`).not.toBe('');
      expect(help).toContain(squeezed(argument.description));
    }
    for (const option of node.options.filter((candidate) => !candidate.hidden)) {
      expect(option.description, option.flags).not.toBe('');
      expect(help).toContain(option.flags);
      if (option.defaultValue !== undefined) expect(help).toContain(`default: ${JSON.stringify(option.defaultValue)})`);
    }
  });

  it('lists the global options it inherits (--json, --yes, --profile, --wide), as gh lists INHERITED FLAGS', async () => {
    const { out } = await parse([...node.path, '--help']);
    const inherited = out.slice(out.indexOf('\nGlobal Options:\n'));
    expect(out).toContain('\nGlobal Options:\n');
    for (const flag of ['--json', '-y, --yes', '--profile <name>', '--wide', '--live']) expect(inherited).toContain(flag);
  });

  it('has examples of real use: each parses, and one runs this command', async () => {
    expect(node.examples.length, `${name} has no example`).toBeGreaterThan(0);
    const { out } = await parse([...node.path, '--help']);
    expect(out).toContain('Examples:');
    const reached: string[] = [];
    for (const example of node.examples) {
      expect(out).toContain(`$ ${example}`);
      const invocations = esignInvocations(example);
      expect(invocations.length, `${example} runs no esign command`).toBeGreaterThan(0);
      for (const argv of invocations) {
        const parsed = await parse(argv);
        expect(parsed.error, `${example}: ${parsed.error}`).toBeUndefined();
        if (parsed.path) reached.push(parsed.path);
      }
    }
    expect(reached).toContain(name);
  });

  it('completes file paths for every option and argument that takes a file', () => {
    for (const option of node.options) {
      const value = parseFlags(option.flags).value;
      if (value && /^(file|path)$|\.\w+$/.test(value)) expect(option.completion, option.flags).toBe('file');
    }
    for (const argument of node.arguments) {
      if (/^(file|files|specs)$/.test(argument.name)) expect(argument.completion, argument.name).toBe('file');
    }
  });
});

describe('help says what a list shows without --limit', () => {
  it.each([['envelopes', 'history'], ['participants', 'list'], ['documents', 'list']])('esign %s %s shows every entry, and says so', async (...path) => {
    const { out } = await parse([...path, '--help']);
    expect(squeezed(out)).toContain('--limit <n> show one page of this size, 1 to 100 (default: every entry)');
    expect(out).not.toContain('(default 20)');
  });
});
