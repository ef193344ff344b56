// CommonJS modules compiled with V8's code cache, which Node 20 has no other way to use (its compile cache is 22.1+):
// the PDF engine (bin/pdf-engine.cjs) and the program (bin/program.cjs), both written and their caches recorded by
// the build (scripts/build.mjs). A script, unlike a module, takes a code cache; compiled with one, V8 skips compiling
// every function the build's run compiled.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname } = require('node:path');
const { Script } = require('node:vm');

/**
 * The name of `stem`'s code cache: V8 takes a cache only from its own version, so the name says which V8 recorded it,
 * and another Node never reads it. Nor does V8 take one recorded under other V8 flags, Node's own modules' included:
 * esign sets none at start (src/core/young-generation.ts), and the build records its caches under none.
 */
function codeCacheName(stem) {
  return `${stem}-v8-${process.versions.v8}.cache`;
}

/**
 * Compiles the CommonJS module at `file` as Node would wrap it, with the code cache at `cacheFile` when one is named
 * and V8 takes it (it refuses one recorded under other V8 flags, and compiles the text). `parameters` are passed to the
 * module after Node's five. Answers undefined when there is no such file.
 */
function compileCommonJs(file, cacheFile, parameters = []) {
  let body;
  try {
    // The build writes both in ASCII (esbuild escapes every other character): read as Latin-1 it is the same text,
    // without decoding megabytes of UTF-8.
    body = readFileSync(file, 'latin1');
  } catch (cause) {
    if (cause.code === 'ENOENT') return undefined;
    throw cause;
  }
  let cachedData;
  try {
    if (cacheFile !== undefined) cachedData = readFileSync(cacheFile);
  } catch (cause) {
    if (cause.code !== 'ENOENT') throw cause;
  }
  const wrapper = ['exports', 'require', 'module', '__filename', '__dirname', ...parameters].join(', ');
  const script = new Script(`(function (${wrapper}) {${body}\n})`, { filename: file, cachedData });
  return {
    script,
    cacheRejected: script.cachedDataRejected === true,
    /** Runs the module once, with `values` for its `parameters`; answers its exports. */
    run(...values) {
      const module = { exports: {} };
      script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), ...values);
      return module.exports;
    },
  };
}

module.exports = { codeCacheName, compileCommonJs };
