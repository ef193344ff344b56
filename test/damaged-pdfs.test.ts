import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/api-call.js';
import { parseJson, runEsign, tempDir } from './support/cli.js';
import { damagedPdfs, DAMAGED_PDF_TEXT } from './support/damaged-pdfs.js';
import { addDocument, draftWithSigners } from './support/documents.js';
import { useEmulator } from './support/emulator.js';

const emulator = useEmulator(['--processing-delay', '0']);
let dir: string;
let envelopeId: string;

beforeAll(async () => {
  dir = tempDir('esign-damaged-');
  ({ envelopeId } = await draftWithSigners(emulator));
});

const SEARCHES = [{ key: 'anchor', text: '{{signature}}', occurrence: 'all' }];

/**
 * What each side makes of a file: the anchors:find answer, or the refusal. The CLI refuses a file it cannot read with
 * PDF_UNREADABLE (exit 2, nothing sent); the emulator fails the document's processing, after which every search is
 * refused (409 DOCUMENT_NOT_READY, "the document must have finished processing").
 */
async function bothSides(name: string, bytes: Uint8Array): Promise<{ local: unknown; service: unknown; failureReason?: string }> {
  const file = join(dir, `${name.replaceAll(/\W+/g, '-')}.pdf`);
  writeFileSync(file, bytes);
  const run = await runEsign(['--json', 'anchors', 'find', '--local', file, '--text', '{{signature}}', '--key', 'anchor'], { cwd: dir });
  const localBody = parseJson<any>(run.stdout || run.stderr);
  const local = run.code === 0 ? localBody : { refused: run.code, code: localBody.error?.code ?? localBody.code };

  const document = await addDocument(emulator, envelopeId, bytes, { fileName: 'damaged.pdf' });
  if (document.status !== 'READY') return { local, service: { refused: document.status }, failureReason: document.failureReason };
  const found = await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents/${document.documentId}/anchors:find`, { body: { searches: SEARCHES } });
  return { local, service: found.status === 200 ? found.body : { refused: found.status, code: found.body?.code } };
}

describe('damaged and encrypted PDFs: anchors find --local and the emulator agree', () => {
  const variants = Object.entries(damagedPdfs());
  const opens = [
    'intact',
    'cross-reference offsets wrong',
    'startxref points past the end',
    'encrypted, empty user password',
    'page content compressed',
    'compressed page content with a wrong checksum',
    'compressed page content with its end cut off',
  ];

  it.each(variants)('%s: the same matches, or PDF_UNREADABLE on one side and a FAILED document on the other', async (name, bytes) => {
    const { local, service, failureReason } = await bothSides(name, bytes);
    if (opens.includes(name)) {
      // A broken cross-reference table is rebuilt, a file encrypted without a user password opens like any other, and a
      // compressed stream that zlib refuses (checksum, end missing) is decoded as far as it goes.
      expect(local).toMatchObject({ truncated: false, matches: [{ key: 'anchor', page: 1, x: expect.any(Number) }] });
      expect(service).toEqual(local);
    } else {
      expect(local).toEqual({ refused: 2, code: 'PDF_UNREADABLE' });
      expect(service).toEqual({ refused: 'FAILED' });
      expect(failureReason).toMatch(/not a readable PDF|encrypted/);
    }
  });

  it('an encrypted file that needs a password says so on both sides', async () => {
    const [, bytes] = variants.find(([name]) => name === 'encrypted, user password needed')!;
    const run = await runEsign(['anchors', 'find', '--local', writeVariant('needs-password.pdf', bytes), '--text', DAMAGED_PDF_TEXT], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('encrypted and opens only with a password');
    const document = await addDocument(emulator, envelopeId, bytes, { fileName: 'locked.pdf' });
    expect(document).toMatchObject({ status: 'FAILED', failureReason: expect.stringContaining('encrypted and opens only with a password') });
  });
});

function writeVariant(fileName: string, bytes: Uint8Array): string {
  const file = join(dir, fileName);
  writeFileSync(file, bytes);
  return file;
}
