// Records V8's code cache of the PDF engine for scripts/build.mjs: compiles the engine as esign does
// (bin/pdf-engine.cjs, under V8's default flags: V8 refuses a cache recorded under others), reads the text of a
// document with it as `anchors find --local` does, and writes the cache of every function compiled so far, so that
// the functions reading a document start compiled. The main thread, where esign reads small documents, and the
// worker threads that read the others (src/pdf/text.ts) take the same cache.
//   node scripts/pdf-engine-cache.cjs <engine module>   (writes the cache beside it)
'use strict';
const { writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { compilePdfEngine, pdfEngineCodeCacheName } = require('../bin/pdf-engine.cjs');

const [engineFile] = process.argv.slice(2);

/** A document of two pages of text in a standard font, with a filled form field (annotations are read as text). */
async function sampleDocument() {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < 2; index++) {
    const page = document.addPage([612, 792]);
    for (let line = 0; line < 20; line++) page.drawText(`Line ${line} of the sample, signed here: ANCHOR`, { x: 72, y: 720 - line * 16, size: 11, font });
  }
  const field = document.getForm().createTextField('name');
  field.setText('Filled in');
  field.addToPage(document.getPage(0), { x: 72, y: 100, width: 200, height: 20 });
  return document.save();
}

async function record() {
  const engine = compilePdfEngine(engineFile);
  // As src/pdf/pdfjs.ts does: a DOMMatrix for pdfjs, which draws nothing here, and its worker in this thread.
  globalThis.DOMMatrix ??= class {};
  const { library, worker } = engine.run();
  globalThis.pdfjsWorker = worker;
  const loading = library.getDocument({ data: await sampleDocument(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: library.VerbosityLevel.ERRORS });
  const pdf = await loading.promise;
  for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
    const page = await pdf.getPage(pageNumber);
    page.getViewport({ scale: 1 });
    await page.getOperatorList({ annotationMode: library.AnnotationMode.ENABLE });
    page.cleanup();
  }
  await loading.destroy();
  writeFileSync(join(dirname(engineFile), pdfEngineCodeCacheName()), engine.script.createCachedData());
}

function failed(cause) {
  console.error(cause);
  process.exitCode = 1;
}

module.exports = { sampleDocument };

if (require.main !== module) {
  // Required for sampleDocument (scripts/program-cache.cjs).
} else {
  record().catch(failed);
}
