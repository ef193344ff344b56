// Runs the single executable's program (the asset scripts/build-binary.mjs makes: the bundle's text wrapped in a
// function of Node's module parameters) under the Node binary the executable is made from, the way src/sea/main.ts
// runs it inside the executable. The build uses it to take the help text, to start an emulator, and to record V8's
// code cache of a real command: with ESIGN_CODE_CACHE_OUT set, the cache of every function compiled so far is
// written there when the process exits.
//   node24 scripts/binary-program.cjs <program.js> [esign arguments...]
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { constants, Script } = require('node:vm');

const [programFile, ...args] = process.argv.slice(2);
const script = new Script(readFileSync(programFile, 'utf8'), { filename: programFile, importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
const cacheFile = process.env.ESIGN_CODE_CACHE_OUT;
if (cacheFile) process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));
process.argv = [process.argv[0], programFile, ...args];
const programModule = { exports: {} };
script.runInThisContext()(programModule.exports, require, programModule, programFile, __dirname);
