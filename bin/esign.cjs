#!/usr/bin/env node
// CommonJS on purpose: `esign --version` and every `--help` answer without starting Node's ESM loader or compiling
// the command tree (the help pages are written by the build from the real program, see help-pages.cjs; a test keeps
// them equal). Everything else runs the program (bin/program.cjs).
'use strict';
const args = process.argv.slice(2);

function runProgram() {
  require('./program.cjs').runProgram();
}

/**
 * A quick answer that stdout cannot take (a full disk) is left to the program, which says so (OUTPUT_LOST, exit 1)
 * as for any command, or ends quietly for a reader that left; never Node's "Unhandled 'error' event" trace.
 */
function answer(text) {
  process.stdout.once('error', runProgram);
  process.stdout.write(text);
}

const help = require('./help-pages.cjs').helpPage(args);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  answer(`${require('../package.json').version}\n`);
} else if (help !== undefined) {
  answer(help);
} else {
  runProgram();
}
