// Changes to pdfjs-dist's legacy build for esign, which reads text and never draws: made by esbuild as it bundles
// pdfjs, for the PDF engine under Node (scripts/build.mjs) and for the single executable (scripts/build-binary.mjs).
// Each is checked, so that a pdfjs update that moves the code fails the build instead of quietly undoing it.
import { readFileSync } from 'node:fs';

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
  ],
};

/** The esbuild plugin that makes the changes as it loads pdfjs's two modules. */
export const pdfjsForText = {
  name: 'pdfjs-for-text',
  setup(builder) {
    builder.onLoad({ filter: /pdfjs-dist[\\/]legacy[\\/]build[\\/]pdf(\.worker)?\.mjs$/ }, ({ path }) => {
      let source = readFileSync(path, 'utf8');
      for (const [from, to] of changes[path.replace(/^.*[\\/]/, '')]) {
        if (source.split(from).length !== 2) throw new Error(`${path} no longer holds "${from}" once: update scripts/pdfjs-for-text.mjs`);
        source = source.replace(from, to);
      }
      return { contents: source, loader: 'js' };
    });
  },
};
