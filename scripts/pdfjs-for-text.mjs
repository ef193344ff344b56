// Changes to pdfjs-dist for esign, which reads text and never draws: made by esbuild as it bundles pdfjs, for the PDF
// engine under Node (scripts/build.mjs: the legacy build's library, the modern build's worker) and for the single
// executable (scripts/build-binary.mjs: the legacy build's). Each is checked, so that a pdfjs update that moves the
// code fails the build instead of quietly undoing it.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const verbosityErrors = ['let verbosity = VerbosityLevel.WARNINGS;', 'let verbosity = VerbosityLevel.ERRORS;'];
/**
 * Node 20 has no Response.prototype.bytes, and pdfjs adds it as it is evaluated: merely touching `Response` loads
 * Node's fetch (undici), tens of milliseconds, for a method pdfjs uses only on fetched URLs, and esign hands it bytes.
 */
const noResponsePolyfill = ['if (typeof Response.prototype.bytes !== "function") {', 'if (false) {'];

const changes = {
  'pdf.mjs': [
    // pdfjs loads @napi-rs/canvas (for drawing) with a require based at its own module URL: under Node a 32 MB native
    // addon loaded for nothing, in the single executable whatever addon a node_modules above the executable holds.
    // src/pdf/pdfjs.ts gives pdfjs the DOMMatrix it needs instead.
    ['try {\n      canvas = require("@napi-rs/canvas");', 'try {\n      throw new Error("esign reads text and never draws: no @napi-rs/canvas");'],
    // pdfjs warns on stderr when that fails, before any option can be passed; esign asks pdfjs for errors only
    // (src/pdf/text.ts), and the bundle starts pdfjs at that level so these warnings stay quiet too.
    verbosityErrors,
    noResponsePolyfill,
    // core-js (in the legacy build) learns the engine's stack format from an Error's stack as it is evaluated: the
    // first stack of a frame in the engine makes V8 find every line end of its megabytes of text, 3-4 ms of a small
    // document's start. Node's V8 writes stacks this way.
    ["var TEST = (function (arg) { return String(new $Error(arg).stack); })('zxcasd');", "var TEST = 'Error: zxcasd\\n    at <anonymous>:1:1';"],
  ],
  'pdf.worker.mjs': [
    verbosityErrors,
    noResponsePolyfill,
    // The Brotli decoder (for the rare BrotliDecode filter) unpacks its dictionary as the module is evaluated, a
    // quarter of pdfjs's start-up: made on its first use instead.
    ['let BrotliDecode = makeBrotliDecode();', 'let BrotliDecode = (...args) => (BrotliDecode = makeBrotliDecode())(...args);'],
    // pdfjs parses a page's operators in slices of 20 ms, and goes on after each through a resolved promise: a
    // microtask, so a page parsed in esign's main thread (small documents, src/pdf/text.ts) would keep Node's event
    // loop, and with it the SIGINT/SIGTERM handler, waiting for the whole page. This thenable goes on from the event
    // loop instead (setImmediate, after its I/O and signals), so a signal is handled within a slice.
    ['const deferred = Promise.resolve();', 'const deferred = { then: (resume) => void setImmediate(resume) };'],
    // pdfjs inflates a Flate stream by writing it into a DecompressionStream and reading the pieces back: web streams,
    // whose promises and queues cost more than inflating a page's small content streams, and whose first reader
    // released makes Node create a V8 context (a millisecond or two). The DecompressionStream src/pdf/pdfjs.ts gives
    // pdfjs inflates a whole stream at once when asked; a damaged one throws, and pdfjs then decodes it itself, as
    // after a stream's failure.
    [
      '    try {\n      const {\n        readable,\n        writable\n      } = new DecompressionStream(name);',
      '    try {\n      const atOnce = DecompressionStream.decompressAtOnce?.(name, bytes);\n      if (atOnce) return { decompressed: atOnce, compressed: bytes };\n      const {\n        readable,\n        writable\n      } = new DecompressionStream(name);',
    ],
  ],
};

/**
 * The worker modules (core-js's) the legacy build's worker evaluates and its library does not, that the modern worker
 * needs no polyfill for: Iterator.prototype.toArray (the worker's `toArray()` calls are its own builder class's) and
 * `self` (the worker reads it only outside Node).
 */
const WORKER_ONLY_POLYFILLS_NOT_NEEDED = new Set(['1806', '3611']);

/**
 * The engine takes pdfjs's modern worker, which has no core-js to evaluate (a third of the legacy engine's start), after
 * the legacy library, whose core-js polyfills what Node 20 lacks as the library is evaluated, before the worker. That
 * covers the worker: the legacy build polyfills the features a module's code uses, and its worker's set adds only modules
 * the modern worker needs none of. A pdfjs whose legacy worker polyfills more fails the build here.
 */
function checkModernWorkerCovered(legacyDirectory) {
  const polyfills = (file) => new Set(readFileSync(join(legacyDirectory, file), 'utf8').match(/__webpack_require__\(\d+\)/g).map((call) => call.slice(20, -1)));
  const library = polyfills('pdf.mjs');
  const uncovered = [...polyfills('pdf.worker.mjs')].filter((id) => !library.has(id) && !WORKER_ONLY_POLYFILLS_NOT_NEEDED.has(id));
  if (uncovered.length > 0) {
    throw new Error(`pdfjs's legacy worker polyfills what its library does not (core-js modules ${uncovered.join(', ')}): see whether the modern worker needs them (scripts/pdfjs-for-text.mjs)`);
  }
}

/** The esbuild plugin that makes the changes as it loads pdfjs's two modules. */
export const pdfjsForText = {
  name: 'pdfjs-for-text',
  setup(builder) {
    builder.onLoad({ filter: /pdfjs-dist[\\/](legacy[\\/])?build[\\/]pdf(\.worker)?\.mjs$/ }, ({ path }) => {
      let source = readFileSync(path, 'utf8');
      const name = path.replace(/^.*[\\/]/, '');
      const modern = !/[\\/]legacy[\\/]/.test(path);
      if (modern) checkModernWorkerCovered(join(dirname(path), '..', 'legacy', 'build'));
      // The modern worker has no Response polyfill to remove: it leaves Node's Response alone.
      for (const [from, to] of changes[name].filter((change) => !(modern && change === noResponsePolyfill))) {
        if (source.split(from).length !== 2) throw new Error(`${path} no longer holds "${from}" once: update scripts/pdfjs-for-text.mjs`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: 'js' };
    });
  },
};
