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
 * Packages the program imports, bundled by the build (scripts/build.mjs) into CommonJS scripts beside it, each compiled
 * with V8's code cache the build recorded while a command used it (scripts/program-cache.cjs). Imported as packages,
 * Node started its ES module loader, then resolved and compiled every file of them from its text on every run:
 * - input-packages: yaml and the full zod, for the commands that read input files (specs, fields, participants,
 *   batches, config): zod's hundred modules and yaml's eighty were some 70 ms of `fields check --local`. Not in the
 *   program: esbuild makes a bundled module's namespace as the program starts, and zod's namespaces hold thousands of
 *   names, which every command would make.
 * - emulator-packages: fastify, with the 250 files of its dependencies (ajv, semver, find-my-way...), for the emulator.
 * - prompt-packages, spinner-packages: @inquirer/prompts and ora, on a terminal, before a question (about 70 ms) or a
 *   spinner (about 60 ms) shows.
 * - drawing-packages: pdf-lib, which draws (`fields preview`, the emulator's sealed PDFs and template documents): about
 *   150 ms.
 */
const PACKAGE_SCRIPTS = {
  'input-packages': ['yaml', 'zod'],
  'emulator-packages': ['fastify'],
  'prompt-packages': ['@inquirer/prompts'],
  'spinner-packages': ['ora'],
  'drawing-packages': ['pdf-lib'],
};
const scriptOfPackage = new Map(Object.entries(PACKAGE_SCRIPTS).flatMap(([stem, names]) => names.map((name) => [name, stem])));

/** The script the build writes for `stem` (a key of PACKAGE_SCRIPTS), and the code cache beside it for this V8. */
const packageScriptFile = (stem) => join(__dirname, '..', 'dist', `${stem}.cjs`);
const packageScriptCacheFile = (stem) => join(__dirname, '..', 'dist', codeCacheName(stem));

/** Compiles the packages script `stem` (compileCommonJs), with the build's code cache by default; undefined without it. */
function compilePackageScript(stem, cacheFile = packageScriptCacheFile(stem)) {
  return compileCommonJs(packageScriptFile(stem), cacheFile);
}

/**
 * What the program's `import()` of a package becomes (scripts/build.mjs): Node 20 runs no import() in a script compiled
 * by vm, so the program asks this function. A package of PACKAGE_SCRIPTS comes from its script, compiled by `compile`
 * on the first import of one of its packages; any other (and those where the build wrote no script) from Node's import().
 */
function packageImporter(compile = compilePackageScript) {
  const scripts = new Map();
  return (specifier) => {
    const stem = scriptOfPackage.get(specifier);
    if (stem !== undefined) {
      try {
        if (!scripts.has(stem)) scripts.set(stem, compile(stem)?.run().packages ?? null);
      } catch (cause) {
        return Promise.reject(cause);
      }
      const packages = scripts.get(stem);
      if (packages) return Promise.resolve(packages[specifier]);
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

module.exports = { PACKAGE_SCRIPTS, compilePackageScript, compileProgram, packageImporter, packageScriptCacheFile, programCacheFile, runProgram };
