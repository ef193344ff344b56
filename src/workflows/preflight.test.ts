import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { simplePdf } from '../../test/support/pdfs.js';
import * as pdfText from '../pdf/text.js';
import { readEnvelopeSpec } from './envelope-spec.js';
import { placeFieldsFileLocally } from './preflight.js';
import { preflightEnvelopeSpec } from './send-now.js';

// The real readers, counted: how many times a document is opened to be read is what these tests are about.
vi.mock('../pdf/text.js', async (importOriginal) => {
  const original = await importOriginal<typeof pdfText>();
  return { ...original, readPdfPages: vi.fn(original.readPdfPages), loadPdfText: vi.fn(original.loadPdfText) };
});

const readPdfPages = vi.mocked(pdfText.readPdfPages);
const loadPdfText = vi.mocked(pdfText.loadPdfText);

beforeEach(() => {
  readPdfPages.mockClear();
  loadPdfText.mockClear();
});

/** A folder holding `document.pdf` (two pages of `words`: parses are kept by content, so each test has its own) and `files`. */
async function folderWith(words: string, files: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'esign-preflight-'));
  writeFileSync(join(dir, 'document.pdf'), await simplePdf({ pages: [[`${words}: sign {{signature}}`], [`${words}, page two`]] }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const SPEC_HEAD = [
  'title: Agreement',
  'participants:',
  '  - { ref: alice, name: Alice Martin, email: alice@example.com }',
  'documents:',
  '  - { ref: doc, file: document.pdf }',
  'fields:',
];
const ANCHORED = '  - { type: SIGNATURE, documentRef: doc, participantRef: alice, anchor: { text: "{{signature}}", occurrence: 1 }, size: { width: 150, height: 30 } }';
const POSITIONED = '  - { type: SIGNATURE, documentRef: doc, participantRef: alice, pageNumber: 1, position: { x: 72, y: 100 }, size: { width: 150, height: 30 } }';

/** The spec's documents checked as send-now checks them when it reads the spec, then its fields placed offline. */
async function sendNowPreflight(dir: string): Promise<Awaited<ReturnType<typeof preflightEnvelopeSpec>>> {
  const loaded = await readEnvelopeSpec(join(dir, 'spec.yaml'), Readable.from([]));
  return preflightEnvelopeSpec(loaded);
}

describe('the send-now preflight opens a local PDF once', () => {
  it.each([
    ['reads the text with the pages when a field on the document uses an anchor', 'Anchored', ANCHORED, { texts: 1, pageReads: 0 }],
    ['reads only the pages when no field uses an anchor', 'Positioned', POSITIONED, { texts: 0, pageReads: 1 }],
  ])('%s', async (_name, words, field, reads) => {
    const dir = await folderWith(words, { 'spec.yaml': [...SPEC_HEAD, field].join('\n') });
    const preflight = await sendNowPreflight(dir);
    expect(preflight.problems).toEqual([]);
    expect({ texts: loadPdfText.mock.calls.length, pageReads: readPdfPages.mock.calls.length }).toEqual(reads);
  });

  it('still finds an anchor that is not there, at its field', async () => {
    const dir = await folderWith('Missing', { 'spec.yaml': [...SPEC_HEAD, ANCHORED.replace('{{signature}}', '{{initials}}')].join('\n') });
    const preflight = await sendNowPreflight(dir);
    expect(preflight.problems.map((problem) => [problem.where, problem.code])).toEqual([[`${join(dir, 'spec.yaml')}:7:5`, 'ANCHOR_NOT_FOUND']]);
    expect(loadPdfText).toHaveBeenCalledTimes(1);
    expect(readPdfPages).not.toHaveBeenCalled();
  });
});

describe('fields check --local opens the PDF once', () => {
  it('with an anchored field: its text and pages in one reading', async () => {
    const fields = ['fields:', '  - { participantId: p1, type: SIGNATURE, anchor: { text: "{{signature}}" }, size: { width: 150, height: 30 } }'].join('\n');
    const dir = await folderWith('Fields file', { 'fields.yaml': fields });
    const checked = await placeFieldsFileLocally(join(dir, 'document.pdf'), join(dir, 'fields.yaml'), Readable.from([]));
    expect(checked.problems).toEqual([]);
    expect(checked.placement.placed).toHaveLength(1);
    expect(loadPdfText).toHaveBeenCalledTimes(1);
    expect(readPdfPages).not.toHaveBeenCalled();
  });
});
