// The PDF engine under Node: pdfjs's library and worker bundled by the build (scripts/build.mjs) into one CommonJS
// module, dist/pdf-engine.cjs, changed for reading text (scripts/pdfjs-for-text.mjs), and V8's code cache of it,
// recorded by the build while it read a document (scripts/pdf-engine-cache.cjs). Compiling pdfjs's 3 MB is most of
// what a small document costs, and Node 20 has no compile cache; a script, unlike a module, takes a code cache there.
// Used by src/pdf/pdfjs.ts and by that build step, which must compile the module the same way.
'use strict';
const { readFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { Script } = require('node:vm');

/**
 * The name of the code cache beside the engine for the thread that asks: V8 takes a cache only from its own version,
 * so the name says which V8 recorded it, and another Node never reads it. Nor does V8 take one recorded under other
 * flags, and on Node 20 the main thread and worker threads disagree there once esign has set its flags
 * (bin/v8-flags.cjs): the main thread, which reads small documents, refuses a cache recorded in a worker and the other
 * way round. The build records one for each.
 */
function pdfEngineCodeCacheName() {
  return `pdf-engine-v8-${process.versions.v8}-${require('node:worker_threads').isMainThread ? 'main' : 'worker'}.cache`;
}

/**
 * Compiles the engine module at `engineFile` as Node would wrap it, with the code cache at `cacheFile` when one is
 * named and V8 takes it (it refuses one recorded under other V8 flags, and compiles the text). Answers undefined when
 * there is no engine: esign runs from its sources (unit tests), where pdfjs is imported as a package.
 */
function compilePdfEngine(engineFile, cacheFile) {
  let body;
  try {
    // The build writes the engine in ASCII (esbuild escapes every other character): read as Latin-1 it is the same
    // text, without decoding 3 MB of UTF-8 (a tenth of the time a small document takes).
    body = readFileSync(engineFile, 'latin1');
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
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${body}\n})`, { filename: engineFile, cachedData });
  return {
    script,
    cacheRejected: script.cachedDataRejected === true,
    /** Runs the engine module once: pdfjs's modules, evaluated. */
    run() {
      const module = { exports: {} };
      script.runInThisContext()(module.exports, require, module, engineFile, dirname(engineFile));
      return module.exports;
    },
  };
}

module.exports = { compilePdfEngine, pdfEngineCodeCacheName };
