import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simplePdf } from './support/pdfs.js';
import { parseJson, repoRoot, runEsign, tempDir } from './support/cli.js';

describe('the PDF engine the build writes (bin/pdf-engine.cjs)', () => {
  it("takes the build's code cache under esign's V8 flags in the worker threads that read PDFs, so pdfjs is not compiled again", () => {
    const compile = [
      "const { compilePdfEngine, pdfEngineCodeCacheName } = require('./bin/pdf-engine.cjs');",
      "const engine = compilePdfEngine('dist/pdf-engine.cjs', 'dist/' + pdfEngineCodeCacheName());",
      "require('node:worker_threads').parentPort.postMessage(engine.cacheRejected ? 'refused' : 'taken');",
    ].join('\n');
    const script = [
      "require('./bin/v8-flags.cjs').applyV8Flags(['anchors', 'find']);",
      "const { Worker } = require('node:worker_threads');",
      `new Worker(${JSON.stringify(compile)}, { eval: true }).on('message', (answer) => process.stdout.write(answer));`,
    ].join('\n');
    expect(execFileSync(process.execPath, ['-e', script], { cwd: repoRoot, encoding: 'utf8' })).toBe('taken');
  });
});

describe('anchors find --local, what it loads: a small document is searched at start-up speed', () => {
  it('neither the canvas addon nor Node’s fetch (pdfjs), nor the HTTP client (API commands): none reads text', async () => {
    const dir = tempDir('esign-engine-');
    writeFileSync(join(dir, 'small.pdf'), await simplePdf({ pages: [['Sign here please'], ['and here']] }));
    // What the process loaded, written as it exits: Node's fetch is its undici; the addon is required as a package;
    // the API client speaks node:http.
    const probe = join(dir, 'probe.cjs');
    writeFileSync(
      probe,
      [
        "const loaded = (name) => process.moduleLoadList.includes('NativeModule ' + name);",
        "process.on('exit', () => process.stderr.write('loaded: ' + JSON.stringify({",
        "  fetch: process.moduleLoadList.some((name) => name.includes('undici')),",
        "  canvas: Object.keys(require.cache).some((name) => name.includes('canvas')),",
        "  http: loaded('http') || loaded('_http_client'),",
        '})));',
      ].join('\n'),
    );
    const result = await runEsign(['--json', 'anchors', 'find', '--local', 'small.pdf', '--text', 'here'], { cwd: dir, env: { NODE_OPTIONS: `--require ${probe}` } });
    expect(result.code).toBe(0);
    expect(parseJson<{ matches: { page: number }[] }>(result.stdout).matches.map((match) => match.page)).toEqual([1, 2]);
    expect(parseJson(result.stderr.slice(result.stderr.indexOf('loaded: ') + 'loaded: '.length))).toEqual({ fetch: false, canvas: false, http: false });
  });
});
