// `esign … --help` at start-up speed: the help pages the build took from the program itself (dist/help.json, written
// by scripts/build.mjs through scripts/help-pages.ts), answered without loading the command tree. A command line this
// does not know (an option, an argument, an unknown name) goes to the program, which prints the same help or an error.
'use strict';

const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The words naming the command whose help a command line asks for, and nothing else: `envelopes list --help`,
 * `env ls -h`, `help envelopes list` (the program reads that as `envelopes list --help`); '' for esign itself.
 */
function helpTopic(args) {
  const words = (list) => list.every((word) => !word.startsWith('-'));
  const last = args[args.length - 1];
  if ((last === '--help' || last === '-h') && words(args.slice(0, -1))) return args.slice(0, -1).join(' ');
  if (args[0] === 'help' && args.length > 1 && args[1] !== 'help' && words(args)) return args.slice(1).join(' ');
  return undefined;
}

/** The help text the program would print for `args`, or undefined when only the program can answer. */
function helpPage(args, file = join(__dirname, '..', 'dist', 'help.json')) {
  const topic = helpTopic(args);
  if (topic === undefined) return undefined;
  const { texts, pages } = JSON.parse(readFileSync(file, 'utf8'));
  return Object.hasOwn(pages, topic) ? texts[pages[topic]] : undefined;
}

module.exports = { helpPage };
