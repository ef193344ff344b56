// The PDF engine under Node: pdfjs's library and worker bundled by the build (scripts/build.mjs) into one script,
// dist/pdf-engine.cjs, changed for reading text (scripts/pdfjs-for-text.mjs), and V8's code cache of that script,
// dist/pdf-engine.cache, recorded while it read a document (scripts/pdf-engine-cache.cjs). Compiling pdfjs's 3 MB is
// most of what a small document costs, and Node 20 has no compile cache; a script, unlike a module, takes a code cache
// on every Node. Used by src/pdf/pdfjs.ts and by that build step, which must compile the script the same way.
'use strict';
const { readFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
const { Script } = require('node:vm');

/**
 * Compiles the engine script at `engineFile`, with the code cache at `cacheFile` when one is named, there and V8 takes it
 * (it refuses one recorded by another V8 or under other V8 flags, and compiles the text). Answers undefined when there
 * is no engine script: esign runs from its sources (unit tests), where pdfjs is imported as a package.
 */
function compilePdfEngine(engineFile, cacheFile) {
  let source;
  try {
    // The build writes the engine in ASCII (esbuild escapes every other character): read as Latin-1 it is the same
    // text, without decoding 3 MB of UTF-8 (a tenth of the time a small document takes).
    source = readFileSync(engineFile, 'latin1');
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
  const script = new Script(source, { filename: engineFile, cachedData });
  return {
    script,
    cacheRejected: script.cachedDataRejected === true,
    /** Runs the engine once: pdfjs's modules, evaluated; pdfjs's own module URL is the engine's. */
    run() {
      const module = { exports: {} };
      script.runInThisContext()(module, pathToFileURL(engineFile).href);
      return module.exports;
    },
  };
}

module.exports = { compilePdfEngine };
