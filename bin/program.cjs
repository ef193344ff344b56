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
 * yaml and the full zod, which the commands that read input files (specs, fields, participants, batches, config)
 * import: one CommonJS script the build writes (scripts/build.mjs), with V8's code cache of it recorded while
 * `fields check --local` read a YAML file (scripts/program-cache.cjs). Imported as packages, Node started its ES
 * module loader, resolved and compiled zod's hundred modules and yaml's eighty from their text: some 40 ms of such a
 * command. Not in the program: esbuild makes a bundled module's namespace as the program starts, and zod's namespaces
 * hold thousands of names, which every command would make.
 */
const INPUT_PACKAGES_FILE = join(__dirname, '..', 'dist', 'input-packages.cjs');
const INPUT_PACKAGES = new Set(['yaml', 'zod']);

/** The code cache the build wrote beside the input packages for this Node's V8 (codeCacheName). */
const inputPackagesCacheFile = () => join(INPUT_PACKAGES_FILE, '..', codeCacheName('input-packages'));

/** Compiles the input packages (compileCommonJs), with the build's code cache by default; undefined without the file. */
function compileInputPackages(cacheFile = inputPackagesCacheFile()) {
  return compileCommonJs(INPUT_PACKAGES_FILE, cacheFile);
}

/**
 * What the program's `import()` of a package becomes (scripts/build.mjs): Node 20 runs no import() in a script compiled
 * by vm, so the program asks this function. yaml and zod come from the input packages, compiled by `compile` once, on
 * the first import of either; other packages (and those two where the build wrote no input packages) from Node's import().
 */
function packageImporter(compile = compileInputPackages) {
  let inputPackages;
  return (specifier) => {
    if (INPUT_PACKAGES.has(specifier)) {
      try {
        inputPackages ??= compile()?.run() ?? null;
      } catch (cause) {
        return Promise.reject(cause);
      }
      if (inputPackages) return Promise.resolve(inputPackages[specifier]);
    }
    return import(specifier);
  };
}

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
    compileProgram(cacheFile).run(packageImporter());
    return;
  }
  if (typeof enableCompileCache === 'function') enableCompileCache();
  require(PROGRAM_FILE);
}

module.exports = { compileInputPackages, compileProgram, inputPackagesCacheFile, packageImporter, programCacheFile, runProgram };
