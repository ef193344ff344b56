/**
 * Where pdfjs comes from and where it reads its predefined CMaps: the pdfjs-dist package on disk under Node, the
 * assets of the single executable (scripts/build-binary.mjs) when esign runs as one.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getRawAsset, isSea } from 'node:sea';
import { withNativeBuiltins } from './native-builtins.js';

export type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** The name prefix of the CMap assets in the single executable; the build script writes them under it. */
export const CMAP_ASSET_PREFIX = 'pdfjs-cmaps/';

declare global {
  // pdfjs runs its worker in this thread when this holds the worker module (its "fake worker").
  var pdfjsWorker: unknown;
  var DOMMatrix: unknown;
}

/**
 * The DOMMatrix pdfjs gets in the single executable. Under Node pdfjs takes the class from @napi-rs/canvas, a 32 MB
 * native addon for drawing, which esign never does, and the executable does not carry; without one pdfjs cannot even
 * be imported (it makes a matrix as its module is evaluated). Reading a Type3 font's bitmap glyphs, it also tries to
 * outline them with a matrix's methods, which this one lacks: it warns (errors only are shown) and reads the same text.
 */
class MatrixForNoDrawing {}

let pdfjs: Promise<Pdfjs> | undefined;

/**
 * pdfjs is large: loaded on first use so that commands without PDF work start fast. Its worker module is handed over
 * as `globalThis.pdfjsWorker`, so it runs in this thread without pdfjs importing a file by path, which a single
 * executable cannot do.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  if (isSea()) globalThis.DOMMatrix ??= MatrixForNoDrawing;
  pdfjs ??= withNativeBuiltins(() => Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('pdfjs-dist/legacy/build/pdf.worker.mjs')])).then(([library, worker]) => {
    globalThis.pdfjsWorker ??= worker;
    return library;
  });
  return pdfjs;
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
