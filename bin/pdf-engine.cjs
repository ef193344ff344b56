// The PDF engine under Node: pdfjs's library and worker bundled by the build (scripts/build.mjs) into one CommonJS
// module, dist/pdf-engine.cjs, changed for reading text (scripts/pdfjs-for-text.mjs), and V8's code caches of it,
// recorded by the build while it read a document (scripts/pdf-engine-cache.cjs). Compiling pdfjs's 3 MB is most of
// what a small document costs, and Node 20 has no compile cache (bin/code-cache.cjs).
// Used by src/pdf/pdfjs.ts and by that build step, which must compile the module the same way.
'use strict';
const { codeCacheName, compileCommonJs } = require('./code-cache.cjs');

/** The name of the engine's code cache beside it, for this V8 (codeCacheName). */
function pdfEngineCodeCacheName() {
  return codeCacheName('pdf-engine');
}

/**
 * Compiles the engine module at `engineFile` with the code cache at `cacheFile` (compileCommonJs). Answers undefined
 * when there is no engine: esign runs from its sources (unit tests), where pdfjs is imported as a package.
 */
function compilePdfEngine(engineFile, cacheFile) {
  return compileCommonJs(engineFile, cacheFile);
}

module.exports = { compilePdfEngine, pdfEngineCodeCacheName };
