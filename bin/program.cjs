// The program under Node: src/main.ts bundled by the build (scripts/build.mjs) into one CommonJS script,
// dist/program/esign.cjs, with V8's code cache of it recorded while it searched a small local PDF
// (scripts/program-cache.cjs). As ES modules (one per chunk), Node 20 compiled a command's module graph on every run:
// a third of what `anchors find --local` on a small document cost.
'use strict';
const { existsSync } = require('node:fs');
const { enableCompileCache } = require('node:module');
const { join } = require('node:path');
const { codeCacheName, compileCommonJs } = require('./code-cache.cjs');

const PROGRAM_FILE = join(__dirname, '..', 'dist', 'program', 'esign.cjs');

/**
 * What the program's `import()` of a package becomes (scripts/build.mjs): Node 20 runs no import() in a script compiled
 * by vm, so the program asks this module, whose import() Node runs.
 */
const importPackage = (specifier) => import(specifier);

/** The code cache the build wrote beside the program for this Node's V8 (codeCacheName). */
const programCacheFile = () => join(PROGRAM_FILE, '..', codeCacheName('esign'));

/**
 * Compiles the program, for `runProgram` or for the build step that records its code cache (which must compile it the
 * same way); `cacheFile` defaults to the one the build wrote for this Node's V8.
 */
function compileProgram(cacheFile = programCacheFile()) {
  return compileCommonJs(PROGRAM_FILE, cacheFile, ['__esignImport']);
}

/**
 * Runs the program: with the build's code cache when the build ran on this Node's V8. Otherwise it is loaded as a
 * module: Node 22.1+ then keeps its compiled code on disk (its compile cache, in NODE_COMPILE_CACHE or the temp
 * directory), so later runs skip most of the compiling.
 */
function runProgram() {
  const cacheFile = programCacheFile();
  if (existsSync(cacheFile)) {
    compileProgram(cacheFile).run(importPackage);
    return;
  }
  if (typeof enableCompileCache === 'function') enableCompileCache();
  require(PROGRAM_FILE);
}

module.exports = { compileProgram, importPackage, programCacheFile, runProgram };
