/*
 * docs/commands.md, written from the command tree by `npm run docs` (like gh's manual): every command with its
 * summary, usage, arguments, options with defaults and examples, as `--help` shows them.
 */
import type { ArgumentSpec, OptionSpec } from '../cli/command.js';
import { helpOption, walk, type CommandNode } from './tree.js';

const name = (node: CommandNode) => ['esign', ...node.path].join(' ');
const anchor = (node: CommandNode) => name(node).replace(/ /g, '-');

/** Markdown table cells: a pipe would end the cell, a newline the row. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function argumentUsage(argument: ArgumentSpec): string {
  const text = `${argument.name}${argument.variadic ? '...' : ''}`;
  return argument.required === false ? `[${text}]` : `<${text}>`;
}

export function usage(node: CommandNode): string {
  const parts = [name(node)];
  if (node.subcommands.length) parts.push(node.runs ? '[command]' : '<command>');
  parts.push('[options]', ...node.arguments.map(argumentUsage));
  return parts.join(' ');
}

function optionsTable(options: readonly OptionSpec[]): string[] {
  const shown = options.filter((option) => !option.hidden);
  return [
    '| option | meaning | default |',
    '|---|---|---|',
    ...shown.map((option) => {
      const choices = option.choices ? ` (one of: ${option.choices.join(', ')})` : '';
      const fallback = option.defaultValue === undefined ? '' : `\`${cell(String(option.defaultValue))}\``;
      return `| \`${cell(option.flags)}\` | ${cell(option.description + choices)} | ${fallback} |`;
    }),
  ];
}

function section(node: CommandNode): string[] {
  const lines = [`## ${name(node)}`, '', node.description, ''];
  if (node.aliases.length) lines.push(`Aliases: ${node.aliases.map((alias) => `\`${alias}\``).join(', ')}`, '');
  lines.push('```', usage(node), '```', '');
  if (node.subcommands.length) {
    lines.push('| command | what it does |', '|---|---|');
    for (const sub of node.subcommands) lines.push(`| [\`${sub.path.at(-1)}\`](#${anchor(sub)}) | ${cell(sub.description)} |`);
    lines.push('');
  }
  if (node.arguments.length) {
    lines.push('| argument | meaning |', '|---|---|');
    for (const argument of node.arguments) lines.push(`| \`${argumentUsage(argument)}\` | ${cell(argument.description)} |`);
    lines.push('');
  }
  if (node.runs) lines.push(...optionsTable([...node.options, helpOption]), '');
  if (node.examples.length) lines.push('```sh', ...node.examples, '```', '');
  return lines;
}

export function commandsManual(root: CommandNode): string {
  const commands = walk(root).slice(1);
  const lines = [
    '# esign commands',
    '',
    '<!-- Generated from the command tree by `npm run docs`: do not edit (a test fails when it is out of date). -->',
    '',
    root.description,
    '',
    'Every command also takes the global options, before or after its name:',
    '',
    ...optionsTable([...root.options, helpOption]),
    '',
    'Exit codes: [usage.md](usage.md#exit-codes); environment variables and configuration files: [profiles.md](profiles.md).',
    '',
    ...commands.map((node) => `${'  '.repeat(node.path.length - 1)}- [${name(node)}](#${anchor(node)})`),
    '',
    ...commands.flatMap(section),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
