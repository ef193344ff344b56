/**
 * Where pdfjs comes from and where it reads its predefined CMaps: the PDF engine the build writes beside the bundle
 * (bin/pdf-engine.cjs) under Node, the pdfjs-dist package when esign runs from its sources (unit tests), the single
 * executable's program and assets (scripts/build-binary.mjs) when esign runs as one.
 */
import { existsSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getRawAsset, isSea } from 'node:sea';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { compilePdfEngine, pdfEngineCodeCacheName, type PdfEngineModules } from '../../bin/pdf-engine.cjs';
import { currentWorkBudget } from './budget.js';
import { withNativeBuiltins } from './native-builtins.js';
import { countWorkInPdfjs } from './pdfjs-budgets.js';

export type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** The name prefix of the CMap assets in the single executable; the build script writes them under it. */
export const CMAP_ASSET_PREFIX = 'pdfjs-cmaps/';

declare global {
  // pdfjs runs its worker in this thread when this holds the worker module (its "fake worker").
  var pdfjsWorker: unknown;
  var DOMMatrix: unknown;
}

/**
 * The DOMMatrix pdfjs gets from the engine and in the single executable. The package takes the class from
 * @napi-rs/canvas, a 32 MB native addon for drawing, which esign never does; the engine and the executable do not load
 * it (scripts/pdfjs-for-text.mjs), and without a DOMMatrix pdfjs cannot even be evaluated (it makes a matrix as its
 * module is). Reading a Type3 font's bitmap glyphs, it also tries to outline them with a matrix's methods, which this
 * one lacks: it warns (errors only are shown) and reads the same text.
 */
class MatrixForNoDrawing {}

/** The engine module, beside the bundle's chunks in dist/ (scripts/build.mjs), with V8's code cache of it. */
const ENGINE_FILE = new URL('../pdf-engine.cjs', import.meta.url);

/**
 * The engine's modules. Compiled with the build's code cache when the build ran on this Node's V8; otherwise loaded
 * as a module when Node keeps a compile cache (22.1+; bin/esign.cjs turns it on), which then keeps the engine's from
 * the second run on; else compiled from its text. Undefined when there is no engine (esign run from its sources).
 */
function loadEngine(): PdfEngineModules | undefined {
  const engineFile = fileURLToPath(ENGINE_FILE);
  if (!existsSync(engineFile)) return undefined;
  globalThis.DOMMatrix ??= MatrixForNoDrawing;
  const cacheFile = join(dirname(engineFile), pdfEngineCodeCacheName());
  const { getCompileCacheDir } = nodeModule as { getCompileCacheDir?: () => string | undefined };
  if (!existsSync(cacheFile) && getCompileCacheDir?.() !== undefined) return createRequire(import.meta.url)(engineFile) as PdfEngineModules;
  return compilePdfEngine(engineFile, cacheFile)?.run();
}

/** pdfjs's two modules: from the engine the build wrote, else from the package (the single executable bundles it). */
function importPdfjs(): Promise<PdfEngineModules> {
  const engine = isSea() ? undefined : loadEngine();
  if (engine) return Promise.resolve(engine);
  if (isSea()) globalThis.DOMMatrix ??= MatrixForNoDrawing;
  return Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]).then(([library, worker]) => ({ library, worker }));
}

let pdfjs: Promise<Pdfjs> | undefined;

/**
 * pdfjs is large: loaded on first use so that commands without PDF work start fast. Its worker module is handed over
 * as `globalThis.pdfjsWorker`, so it runs in this thread without pdfjs importing a file by path, which a single
 * executable cannot do.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  pdfjs ??= withNativeBuiltins(importPdfjs).then(async ({ library, worker }) => {
    globalThis.pdfjsWorker ??= worker;
    countWorkInPdfjs();
    inflateInOneStep();
    await passOperatorListsWithoutCopy(library);
    return library;
  });
  return pdfjs;
}

/**
 * Node's own DecompressionStream, for the formats other than deflate: loaded when one is asked for. Node's global is
 * a getter that loads its web compression streams, a few milliseconds of a small document's start (and that puts
 * Node's class back in the global once called).
 */
const NativeDecompressionStream = (): typeof DecompressionStream =>
  (createRequire(import.meta.url)('node:stream/web') as typeof import('node:stream/web')).DecompressionStream as typeof DecompressionStream;

/**
 * pdfjs inflates every Flate stream through DecompressionStream. Node's runs each one through web streams over a zlib
 * stream on the thread pool: for the small streams of a page's content, the round trips cost more than the inflating
 * (a third of the time of reading a dense page's operators). This one inflates the whole stream at once when it is
 * closed; a damaged stream fails the same way, and pdfjs then decodes it itself, as it does after Node's. The engine's
 * pdfjs skips the stream and asks `decompressAtOnce` (scripts/pdfjs-for-text.mjs).
 */
class OneStepDecompressionStream extends TransformStream<Uint8Array, Uint8Array> {
  /** The whole of `compressed` inflated, for the formats this class inflates itself; undefined for the others. */
  static decompressAtOnce(format: string, compressed: Uint8Array): Uint8Array | undefined {
    return format === 'deflate' ? inflateWithinBudget(compressed) : undefined;
  }

  constructor(format: string) {
    if (format !== 'deflate') return new (NativeDecompressionStream())(format as 'deflate') as OneStepDecompressionStream;
    const chunks: Uint8Array[] = [];
    super({
      transform: (chunk) => void chunks.push(chunk),
      flush: (controller) => controller.enqueue(inflateWithinBudget(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks))),
    });
  }
}

/**
 * Inflates no further than the reading's budget (budget.ts) allows. Past it, the stream is given as empty rather than
 * refused: refused, pdfjs would inflate it again itself; the reading is stopped by then anyway.
 */
function inflateWithinBudget(compressed: Uint8Array): Uint8Array {
  const budget = currentWorkBudget();
  let inflated: Buffer;
  try {
    inflated = inflateSync(compressed, { maxOutputLength: Math.max(1, budget.remaining('inflatedBytes')) });
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw cause;
    budget.refuse('inflatedBytes');
    return new Uint8Array(0);
  }
  budget.spend('inflatedBytes', inflated.length);
  return inflated;
}

function inflateInOneStep(): void {
  globalThis.DecompressionStream = OneStepDecompressionStream as unknown as typeof DecompressionStream;
}

/** Whether a message of pdfjs's worker is a chunk of an operator list: {chunk: {fnArray, argsArray, ...}, ...}. */
function isOperatorListChunk(message: unknown): message is { chunk: { fnArray: unknown[]; argsArray: unknown[] } } {
  const chunk = (message as { chunk?: { fnArray?: unknown; argsArray?: unknown } } | null)?.chunk;
  return Array.isArray(chunk?.fnArray) && Array.isArray(chunk.argsArray);
}

/**
 * pdfjs's worker runs in this thread and answers through a port that deep-copies every message (structuredClone), as
 * a real worker's would. An operator list holds an object per drawn glyph: copying them costs as much as reading
 * them, and the copies as much again in garbage collection. The worker empties the two arrays of a chunk once it is
 * sent, and never changes the operations' arguments (glyphs are shared, cached by font): a chunk is passed with copies
 * of the two arrays only. Other messages are copied as before.
 */
async function passOperatorListsWithoutCopy(library: Pdfjs): Promise<void> {
  const probe = new library.PDFWorker();
  try {
    await probe.promise;
    const port = Object.getPrototypeOf(probe.port) as { postMessage(message: unknown, transfer?: unknown[]): void };
    const postMessage = port.postMessage;
    port.postMessage = function (message, transfer) {
      if (!isOperatorListChunk(message)) return postMessage.call(this, message, transfer);
      // Operators past the reading's budget are not passed on: the reading is stopped, and must not hold them meanwhile.
      const within = currentWorkBudget().spend('operators', message.chunk.fnArray.length);
      const passed = { ...message, chunk: { ...message.chunk, fnArray: within ? message.chunk.fnArray.slice() : [], argsArray: within ? message.chunk.argsArray.slice() : [] } };
      // The port copies with the global structuredClone: for this one synchronous call, the copy is the shallow one.
      const deepCopy = globalThis.structuredClone;
      globalThis.structuredClone = (() => passed) as typeof structuredClone;
      try {
        postMessage.call(this, message, transfer);
      } finally {
        globalThis.structuredClone = deepCopy;
      }
    };
  } finally {
    probe.destroy();
  }
}

/** Answers pdfjs's requests for CMap files from the single executable's assets. */
class AssetCMapFactory {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    if (kind !== 'cMapUrl') throw new Error(`the single executable holds no pdfjs ${kind} data (${filename})`);
    return new Uint8Array(getRawAsset(`${CMAP_ASSET_PREFIX}${filename}`) as ArrayBuffer);
  }
}

let cMapOptions: { cMapUrl: string; cMapPacked: true; BinaryDataFactory?: typeof AssetCMapFactory } | undefined;

/**
 * getDocument options for the predefined CJK CMaps: they ship inside pdfjs-dist and are only read when a PDF names one;
 * without them the text of such fonts cannot be decoded. Resolved lazily so that merely importing this module touches
 * nothing.
 */
export function pdfjsCMapOptions(): NonNullable<typeof cMapOptions> {
  cMapOptions ??= isSea()
    ? { cMapUrl: CMAP_ASSET_PREFIX, cMapPacked: true, BinaryDataFactory: AssetCMapFactory }
    : { cMapUrl: join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'cmaps') + '/', cMapPacked: true };
  return cMapOptions;
}
