/*
 * PDFs that ask for far more work than their size (issue 21, "PDF bombs"): the CLI refuses them with exit 2 naming
 * the limit, within the memory docs/usage.md "PDF work limits" promises; the emulator answers 422 DOCUMENT_TEXT_UNREADABLE, or
 * fails the document's processing where even its pages are too many.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/api-call.js';
import { startEsign, tempDir, type RunResult } from '../support/cli.js';
import { addDocument, draftWithSigners } from '../support/documents.js';
import { useEmulator } from '../support/emulator.js';
import { HEAVY_PDF_TEXT, inflationBombPdf, manyOperatorsPdf, manyPagesPdf } from '../support/heavy-pdfs.js';

const emulator = useEmulator(['--processing-delay', '0']);
const MiB = 1024 * 1024;
/** The promise: any input up to 10 MB is read (or refused) under this much memory. */
const MEMORY_CEILING = 512 * MiB;

const HEAVY = {
  'a 1 MB file whose content stream inflates to 1 GiB': { bytes: () => inflationBombPdf(1024), limit: 'inflatedBytes', says: /compressed streams inflate to more than 32 MiB/ },
  'a 10 MB file of 30 pages, each inflating to 300 MiB': { bytes: () => inflationBombPdf(300, 30), limit: 'inflatedBytes', says: /compressed streams inflate to more than 32 MiB/ },
  'a file of 120 KB drawing with 2 million text operators': { bytes: () => manyOperatorsPdf(2_000_000), limit: 'operators', says: /draw with more than 500,000 operators/ },
  'a 4 MB file of 50,000 empty pages': { bytes: () => manyPagesPdf(50_000), limit: 'pages', says: /has more than 10,000 pages/ },
} as const;

let dir: string;
let envelopeId: string;

beforeAll(async () => {
  dir = tempDir('esign-heavy-');
  ({ envelopeId } = await draftWithSigners(emulator));
});

/** The highest resident memory of a process (Linux), read until it ends; undefined where /proc does not tell. */
async function runMeasured(args: string[]): Promise<RunResult & { peakBytes?: number }> {
  const running = startEsign(args, { cwd: dir, timeoutMs: 120_000 });
  const status = `/proc/${running.child.pid}/status`;
  let peakBytes: number | undefined;
  const poll = setInterval(() => {
    try {
      const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(status, 'utf8'))?.[1];
      if (kib) peakBytes = Math.max(peakBytes ?? 0, Number(kib) * 1024);
    } catch {
      // The process has ended.
    }
  }, 20);
  try {
    return { ...(await running.result), peakBytes };
  } finally {
    clearInterval(poll);
  }
}

describe('PDF work limits', () => {
  it.each(Object.entries(HEAVY))('%s: anchors find and fields check --local refuse it (exit 2) naming the limit, under 512 MiB', async (name, heavy) => {
    const bytes = heavy.bytes();
    expect(bytes.length).toBeLessThanOrEqual(10 * 1000 * 1000);
    const file = join(dir, `${name.replaceAll(/\W+/g, '-')}.pdf`);
    writeFileSync(file, bytes);
    writeFileSync(join(dir, 'fields.yaml'), `- { participantId: p1, type: SIGNATURE, anchor: { text: "${HEAVY_PDF_TEXT}" }, size: { width: 150, height: 30 } }\n`);
    for (const args of [
      ['anchors', 'find', '--local', file, '--text', HEAVY_PDF_TEXT],
      ['fields', 'check', '--local', file, '--file', 'fields.yaml'],
    ]) {
      const result = await runMeasured(args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(heavy.says);
      expect(result.stderr).toContain('Re-save it with a PDF editor');
      expect(result.stderr).not.toMatch(/\n\s+at /);
      if (existsSync('/proc/self/status')) expect(result.peakBytes).toBeLessThan(MEMORY_CEILING);
    }
  });

  it.each(Object.entries(HEAVY))('%s: the emulator refuses it, and goes on serving', async (_name, heavy) => {
    const document = await addDocument(emulator, envelopeId, heavy.bytes(), { fileName: 'heavy.pdf' });
    if (heavy.limit === 'pages') {
      // The page sizes are read when the document is processed: too many pages fail it there.
      expect(document).toMatchObject({ status: 'FAILED', failureReason: expect.stringMatching(heavy.says) });
      return;
    }
    expect(document.status).toBe('READY');
    const found = await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents/${document.documentId}/anchors:find`, { body: { searches: [{ key: 'k', text: HEAVY_PDF_TEXT }] } });
    expect(found.status).toBe(422);
    expect(found.body.error).toMatchObject({ code: 'DOCUMENT_TEXT_UNREADABLE', details: { documentId: document.documentId, limit: heavy.limit } });
    expect(found.body.error.message).toMatch(heavy.says);
  });

  it('a file just within the limits is read as usual', async () => {
    const document = await addDocument(emulator, envelopeId, inflationBombPdf(16), { fileName: 'within.pdf' });
    const found = await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents/${document.documentId}/anchors:find`, { body: { searches: [{ key: 'k', text: HEAVY_PDF_TEXT }] } });
    expect(found.status).toBe(200);
    expect(found.body.matches).toMatchObject([{ key: 'k', page: 1 }]);
  });
});
