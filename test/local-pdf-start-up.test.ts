import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { HEAVY_PDF_TEXT, inflationBombPdf, manyOperatorsPdf, manyPagesPdf } from './support/heavy-pdfs.js';
import { simplePdf } from './support/pdfs.js';
import { parseJson, probeReport, repoRoot, runEsign, tempDir, type RunResult } from './support/cli.js';

describe('the program the build writes (bin/program.cjs)', () => {
  it("takes the build's code cache, so a command's code is not compiled again", () => {
    const script = [
      "process.stdout.write(require('./bin/program.cjs').compileProgram().cacheRejected ? 'refused' : 'taken');",
    ].join('\n');
    expect(execFileSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8' })).toBe('taken');
  });
});

describe('the packages scripts the build writes (bin/program.cjs: yaml and zod, fastify, prompts, ora, pdf-lib)', () => {
  it("takes the build's code cache for each, so the packages are not compiled again", () => {
    const script = [
      "const { PACKAGE_SCRIPTS, compilePackageScript } = require('./bin/program.cjs');",
      "process.stdout.write(JSON.stringify(Object.keys(PACKAGE_SCRIPTS).map((stem) => [stem, compilePackageScript(stem).cacheRejected ? 'refused' : 'taken'])));",
    ].join('\n');
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8' }))).toEqual([
      ['input-packages', 'taken'],
      ['emulator-packages', 'taken'],
      ['prompt-packages', 'taken'],
      ['spinner-packages', 'taken'],
      ['drawing-packages', 'taken'],
    ]);
  });

  it('answers the import() of each package with what Node’s import() of it gives, and they work', () => {
    const script = [
      "const { PACKAGE_SCRIPTS, packageImporter } = require('./bin/program.cjs');",
      'const importPackage = packageImporter();',
      'const names = Object.values(PACKAGE_SCRIPTS).flat();',
      'Promise.all(names.map(async (name) => [name, await importPackage(name), await import(name)])).then((imported) => {',
      '  const missing = Object.fromEntries(imported.map(([name, ours, node]) => [name, Object.keys(node).filter((key) => !(key in ours))]));',
      '  const { yaml, zod, fastify } = Object.fromEntries(imported.map(([name, ours]) => [name, ours]));',
      '  const document = yaml.parseDocument("a: [1, 2]\\n", { keepSourceTokens: true });',
      '  const parsed = zod.z.object({ a: zod.z.array(zod.z.number()) }).safeParse(document.toJS());',
      '  const failed = zod.z.object({ a: zod.z.string() }).safeParse(document.toJS());',
      '  const server = fastify.default();',
      "  server.post('/echo', { schema: { body: { type: 'object', required: ['a'] } } }, async (request) => ({ got: request.body.a }));",
      "  Promise.all([server.inject({ method: 'POST', url: '/echo', payload: { a: 1 } }), server.inject({ method: 'POST', url: '/echo', payload: {} })]).then(([ok, refused]) => {",
      '    process.stdout.write(JSON.stringify({ missing, parsed: parsed.data, issue: failed.error.issues[0].message, echo: ok.json(), refused: refused.statusCode }));',
      '  });',
      '});',
    ].join('\n');
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8' }))).toEqual({
      missing: { yaml: [], zod: [], fastify: [], '@inquirer/prompts': [], ora: [], 'pdf-lib': [] },
      parsed: { a: [1, 2] },
      issue: 'Invalid input: expected string, received array',
      echo: { got: 1 },
      refused: 400,
    });
  });
});

describe('the PDF engine the build writes (bin/pdf-engine.cjs)', () => {
  it("takes the build's code cache on the main thread, which reads small documents", () => {
    const script = [
      "const { compilePdfEngine, pdfEngineCodeCacheName } = require('./bin/pdf-engine.cjs');",
      "const engine = compilePdfEngine('dist/pdf-engine.cjs', 'dist/' + pdfEngineCodeCacheName());",
      "process.stdout.write(engine.cacheRejected ? 'refused' : 'taken');",
    ].join('\n');
    expect(execFileSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8' })).toBe('taken');
  });

  it("takes the same code cache in the worker threads that read PDFs, so pdfjs is not compiled again", () => {
    const compile = [
      "const { compilePdfEngine, pdfEngineCodeCacheName } = require('./bin/pdf-engine.cjs');",
      "const engine = compilePdfEngine('dist/pdf-engine.cjs', 'dist/' + pdfEngineCodeCacheName());",
      "require('node:worker_threads').parentPort.postMessage(engine.cacheRejected ? 'refused' : 'taken');",
    ].join('\n');
    const script = [
      "const { Worker } = require('node:worker_threads');",
      `new Worker(${JSON.stringify(compile)}, { eval: true }).on('message', (answer) => process.stdout.write(answer));`,
    ].join('\n');
    expect(execFileSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8' })).toBe('taken');
  });
});

/**
 * `anchors find --local` of `bytes` for `text`, with `probe` (lines of CommonJS) required before esign starts:
 * NODE_OPTIONS, as a user's could be. What the probe writes to stderr as the process exits ends the answer's stderr.
 */
async function searchWithProbe(bytes: Uint8Array, text: string, probe: string[]): Promise<RunResult> {
  const dir = tempDir('esign-probe-');
  writeFileSync(join(dir, 'document.pdf'), bytes);
  writeFileSync(join(dir, 'probe.cjs'), probe.join('\n'));
  return runEsign(['--json', 'anchors', 'find', '--local', 'document.pdf', '--text', text], { cwd: dir, env: { NODE_OPTIONS: `--require ${join(dir, 'probe.cjs')}` } });
}

const twoPages = () => simplePdf({ pages: [['Sign here please'], ['and here']] });

describe('V8 flags', () => {
  it('a command sets none: Node’s own modules, and the code caches, compile from their caches as V8 takes only under its own flags', async () => {
    // A code cache made as the process starts, before esign runs, is taken again as it exits only if no V8 flag changed.
    const result = await searchWithProbe(await twoPages(), 'here', [
      "const { Script } = require('node:vm');",
      "const text = 'function probe() { return 1; }';",
      // Another file name each time: V8 would answer the same script from its own memory, not from the cache.
      "const cachedData = new Script(text, { filename: 'before.js' }).createCachedData();",
      "process.on('exit', () => process.stderr.write('cache: ' + (new Script(text, { filename: 'after.js', cachedData }).cachedDataRejected ? 'refused' : 'taken')));",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/cache: taken$/);
  });
});

describe('anchors find --local, what it loads: a small document is searched at start-up speed', () => {
  it('neither the canvas addon nor Node’s fetch (pdfjs), nor the HTTP client (API commands), nor child_process, tty, crypto, worker threads or standard input: none reads text', async () => {
    // What the process loaded, written as it exits: Node's fetch is its undici; the addon is required as a package;
    // the API client speaks node:http.
    const result = await searchWithProbe(await twoPages(), 'here', [
      "const loaded = (name) => process.moduleLoadList.includes('NativeModule ' + name);",
      // Node creates process.stdin (a stream over fd 0) when it is first read.
      "const stdin = Object.getOwnPropertyDescriptor(process, 'stdin');",
      'let stdinCreated = false;',
      "Object.defineProperty(process, 'stdin', { ...stdin, get() { stdinCreated = true; return stdin.get.call(process); } });",
      "process.on('exit', () => process.stderr.write('loaded: ' + JSON.stringify({",
      "  fetch: process.moduleLoadList.some((name) => name.includes('undici')),",
      "  canvas: Object.keys(require.cache).some((name) => name.includes('canvas')),",
      "  http: loaded('http') || loaded('_http_client'),",
      // commander spawns a command's own program with it, and esign has none (scripts/packages-for-esign.mjs).
      "  childProcess: loaded('child_process'),",
      // chalk's colour detection loads tty, and esign decides colour itself (scripts/packages-for-esign.mjs); nothing is
      // hashed (src/shared/crypto.ts).
      "  tty: loaded('tty'),",
      "  crypto: loaded('crypto'),",
      // A small document is read in the main thread (src/pdf/text.ts); nothing is read from standard input.
      "  workerThreads: loaded('worker_threads'),",
      '  stdinCreated,',
      '})));',
    ]);
    expect(result.code).toBe(0);
    expect(parseJson<{ matches: { page: number }[] }>(result.stdout).matches.map((match) => match.page)).toEqual([1, 2]);
    expect(probeReport(result.stderr, 'loaded: ')).toEqual({
      fetch: false,
      canvas: false,
      http: false,
      childProcess: false,
      tty: false,
      crypto: false,
      workerThreads: false,
      stdinCreated: false,
    });
  });
});

describe('fields check --local of a YAML file, what it loads', () => {
  it("neither Node's ES module loader nor yaml's or zod's package files: both come from the build's input packages", async () => {
    const dir = tempDir('esign-probe-');
    writeFileSync(join(dir, 'document.pdf'), await twoPages());
    writeFileSync(join(dir, 'fields.yaml'), 'fields:\n  - { participantId: p1, type: SIGNATURE, anchor: { text: here }, size: { width: 150, height: 30 } }\n');
    writeFileSync(
      join(dir, 'probe.cjs'),
      [
        "process.on('exit', () => process.stderr.write('loaded: ' + JSON.stringify({",
        "  moduleLoader: process.moduleLoadList.includes('NativeModule internal/modules/esm/module_job'),",
        "  packages: Object.keys(require.cache).filter((name) => /node_modules[\\\\/](yaml|zod)[\\\\/]/.test(name)),",
        '})));',
      ].join('\n'),
    );
    const result = await runEsign(['fields', 'check', '--local', 'document.pdf', '--file', 'fields.yaml'], { cwd: dir, env: { NODE_OPTIONS: `--require ${join(dir, 'probe.cjs')}` } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^fields\.yaml:2:5 +SIGNATURE +p1 +1 /m);
    expect(probeReport(result.stderr, 'loaded: ')).toEqual({ moduleLoader: false, packages: [] });
  });
});

describe('anchors find --local, which thread reads', () => {
  /** Runs the search with a probe that counts the worker threads started (PDF readers: src/pdf/text.ts). */
  async function searchCountingReaders(bytes: Uint8Array, text: string): Promise<RunResult & { readers: number }> {
    const result = await searchWithProbe(bytes, text, [
      "const threads = require('node:worker_threads');",
      'if (threads.isMainThread) {',
      '  let started = 0;',
      '  const { Worker } = threads;',
      // Replaced before esign imports the module: its import takes the replacement.
      '  threads.Worker = class extends Worker { constructor(...args) { super(...args); started++; } };',
      "  process.on('exit', () => process.stderr.write('readers: ' + started));",
      '}',
    ]);
    return { ...result, readers: Number(/readers: (\d+)$/.exec(result.stderr)?.[1]) };
  }

  const pages = (result: RunResult) => parseJson<{ matches: { page: number }[] }>(result.stdout).matches.map((match) => match.page);

  it('reads a document of at most 3 pages and 1 MB in the main thread, starting no reader thread', async () => {
    const result = await searchCountingReaders(await simplePdf({ pages: [['Sign here please'], ['and here'], ['and here too']] }), 'here');
    expect(result.code, result.stderr).toBe(0);
    expect(pages(result)).toEqual([1, 2, 3]);
    expect(result.readers).toBe(0);
  });

  it('reads a longer document in reader threads, also one whose page objects are compressed (counted once opened)', async () => {
    const longer = await searchCountingReaders(manyPagesPdf(30), HEAVY_PDF_TEXT);
    expect(longer.code, longer.stderr).toBe(0);
    expect(pages(longer)).toEqual([1]);
    expect(longer.readers).toBeGreaterThan(0);
    // pdf-lib keeps page objects in object streams by default: the file shows none of them.
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    for (let page = 0; page < 5; page++) document.addPage([612, 792]).drawText(`Page ${page + 1}: sign here`, { x: 72, y: 700, size: 12, font });
    const compressed = await document.save({ useObjectStreams: true });
    expect(Buffer.from(compressed).toString('latin1')).not.toMatch(/\/Type\s*\/Page\b/);
    const hidden = await searchCountingReaders(compressed, 'sign here');
    expect(hidden.code, hidden.stderr).toBe(0);
    expect(pages(hidden)).toEqual([1, 2, 3, 4, 5]);
    expect(hidden.readers).toBeGreaterThan(0);
  });

  it.each([
    ['inflating to 64 MiB', () => inflationBombPdf(64), /compressed streams inflate to more than 32 MiB/],
    ['drawing with 2 million operators', () => manyOperatorsPdf(2_000_000), /draw with more than 500,000 operators/],
  ])('refuses a small document %s in the main thread as the readers do (exit 2, the limit named)', async (_name, bytes, says) => {
    const result = await searchCountingReaders(bytes(), HEAVY_PDF_TEXT);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(says);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.readers).toBe(0);
  });
});
