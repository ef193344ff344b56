#!/usr/bin/env node
// CommonJS on purpose: `esign --version` and `esign --help` answer without starting Node's ESM loader or compiling
// the command tree (dist/help.txt is written by the build from the real program; a test keeps them equal).
// Everything else runs the bundle.
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
  process.stdout.write(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'dist', 'help.txt'), 'utf8'));
} else {
  // Node 22.1+ keeps the compiled bundle and chunks on disk (NODE_COMPILE_CACHE, else the temp directory), so later
  // runs skip most of the compiling. Node 20 has no such cache and runs as before.
  // A command is short-lived, or (`batch run`, `envelopes wait`) a loop of small short-lived requests: V8's young
  // generation need not grow past its first size for it, and not growing it keeps peak memory flat in the amount of
  // work (bench: `batch run` peak RSS for 500 vs 50 envelopes 1.10x instead of 1.23x, CPU time unchanged). The
  // emulator, a server whose throughput counts, keeps V8's default. Set here, before anything is compiled: V8 code
  // caches record the flags, so a flag changed later would make every cache written at exit useless to the next run;
  // for the same reason the emulator, under other flags, neither reads nor writes the compile cache (it starts once
  // and then serves). The single executable does the same in src/sea/main.ts.
  const { enableCompileCache } = require('node:module');
  if (!args.includes('emulator')) {
    require('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
    if (typeof enableCompileCache === 'function') enableCompileCache();
  }
  import('../dist/esign.js');
}
