#!/usr/bin/env node
// CommonJS on purpose: `esign --version` and every `--help` answer without starting Node's ESM loader or compiling
// the command tree (the help pages are written by the build from the real program, see help-pages.cjs; a test keeps
// them equal). Everything else runs the bundle.
'use strict';
const args = process.argv.slice(2);

function runProgram() {
  // Node 22.1+ keeps the compiled bundle and chunks on disk (NODE_COMPILE_CACHE, else the temp directory), so later
  // runs skip most of the compiling. Node 20 has no such cache and runs as before.
  // The emulator runs under other V8 flags (bin/v8-flags.cjs), so it neither reads nor writes the compile cache: a
  // cache written under one set of flags is refused under the other. It starts once and then serves.
  const { enableCompileCache } = require('node:module');
  if (require('./v8-flags.cjs').applyV8Flags(args) && typeof enableCompileCache === 'function') enableCompileCache();
  import('../dist/esign.js');
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
