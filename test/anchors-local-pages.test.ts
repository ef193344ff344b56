import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { parseJson, runEsign, tempDir } from './support/cli.js';

/** Page `page` of the long document: sizes differ from page to page, so that a size given to the wrong page shows. */
const sizeOf = (page: number): [number, number] => [300 + (page % 7) * 10, 400 + (page % 11) * 10];

describe('anchors find --local on a document longer than the 500 pages searched', () => {
  it('every page has its own size, in page order, also those past the search limit (read by a worker thread)', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const pageCount = 530;
    for (let page = 1; page <= pageCount; page++) doc.addPage(sizeOf(page)).drawText(`marker ${page}`, { x: 20, y: 40, size: 10, font });
    const dir = tempDir('esign-long-');
    writeFileSync(join(dir, 'long.pdf'), await doc.save({ useObjectStreams: false }));

    const result = await runEsign(['--json', 'anchors', 'find', '--local', 'long.pdf', '--text', 'marker 500', '--text', 'marker 501'], { cwd: dir });
    expect(result.code).toBe(0);
    const found = parseJson<{ pages: { page: number; width: number; height: number }[]; truncated: boolean; matches: { key: string; page: number }[] }>(result.stdout);
    // "pages": every page of the document; text is searched in the first 500 only.
    expect(found.truncated).toBe(true);
    expect(found.pages.map(({ page, width, height }) => [page, width, height])).toEqual(Array.from({ length: pageCount }, (_, index) => [index + 1, ...sizeOf(index + 1)]));
    expect(found.matches.map((match) => [match.key, match.page])).toEqual([['marker 500', 500]]);
  });
});

describe('local PDFs that are no regular file', () => {
  it('anchors find, fields check and fields preview --local refuse /dev/zero and a named pipe at once (exit 2), instead of reading forever', async () => {
    const dir = tempDir('esign-local-special-');
    execFileSync('mkfifo', [join(dir, 'pipe.pdf')]);
    writeFileSync(join(dir, 'fields.yaml'), 'fields:\n  - { type: SIGNATURE, participantId: p1, pages: [1], position: { x: 10, y: 10 }, size: { width: 100, height: 30 } }\n');
    const commands = (pdf: string) => [
      ['anchors', 'find', '--local', pdf, '--text', 'x'],
      ['fields', 'check', '--local', pdf, '--file', 'fields.yaml'],
      ['fields', 'preview', '--local', pdf, '--file', 'fields.yaml', '--out', 'preview.pdf'],
    ];
    for (const [pdf, kind] of [['/dev/zero', 'a device'], ['pipe.pdf', 'a named pipe']] as const) {
      for (const args of commands(pdf)) {
        const result = await runEsign(args, { cwd: dir, timeoutMs: 20_000 });
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
        expect(result.stderr).toContain(`is ${kind}, not a regular file.`);
      }
    }
  });
});
