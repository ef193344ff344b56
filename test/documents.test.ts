import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, runEsign, tempDir, type RunOptions } from './support/cli.js';
import { listDocuments, minimalDocx, paddedPdf } from './support/documents.js';
import { useEmulator } from './support/emulator.js';
import { createDraft, createSentEnvelope, signAll, waitUntil } from './support/envelope-flow.js';
import { ndaPdf, simplePdf } from './support/pdfs.js';
import { terminalWith, tmuxBinary, type Terminal } from './support/terminal.js';

const emulator = useEmulator();
let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-documents-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
  writeFileSync(join(dir, 'two-pages.pdf'), await simplePdf({ pages: [['Page one'], ['Page two']] }));
  writeFileSync(join(dir, 'notes.txt'), 'not a document');
  // A ZIP package with no Word document in it: passes the local check (a .docx is not converted here), fails the service's processing.
  writeFileSync(join(dir, 'broken.docx'), zipSync({ 'notes.txt': strToU8('not a Word document') }));
  writeFileSync(join(dir, 'letter.docx'), minimalDocx(['Employment letter', 'Employee signature: {{employee}}']));
  writeFileSync(join(dir, 'large.pdf'), await paddedPdf(6 * 1024 * 1024, { title: 'Large document', fill: 7 }));
});

function esign(args: readonly string[], options: RunOptions = {}) {
  return runEsign(args, { cwd: dir, ...options, env: { ...emulator.env, ...options.env } });
}

async function requestLog(): Promise<{ authorizationOnSignedAddresses: number; requests: number }> {
  return (await emulator.fetch('/_emulator/request-log')).json() as Promise<{ authorizationOnSignedAddresses: number; requests: number }>;
}

describe('documents upload', () => {
  it('registers each file, streams it to its signed address without the key, waits until READY and prints one row per document', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['--json', 'documents', 'upload', id, 'nda.pdf', 'two-pages.pdf']);
    expect(result.stderr).not.toMatch(/✗/);
    expect(result.code).toBe(0);
    const printed = parseJson<{ envelopeId: string; documents: { documentId: string; fileName: string; status: string; pageCount: number }[] }>(result.stdout);
    expect(printed.envelopeId).toBe(id);
    expect(printed.documents.map((document) => [document.fileName, document.status, document.pageCount])).toEqual([
      ['nda.pdf', 'READY', 1],
      ['two-pages.pdf', 'READY', 2],
    ]);
    const listed = await listDocuments(emulator, id);
    expect(listed.map((document) => [document.documentId, document.contentType, document.status])).toEqual(
      printed.documents.map((document) => [document.documentId, 'application/pdf', 'READY']),
    );
    // "The binary PDF is uploaded to that address": a signed address, so the key must never travel with it.
    expect((await requestLog()).authorizationOnSignedAddresses).toBe(0);
  });

  it('prints a table with id, file, pages and status for a person', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['doc', 'upload', id, 'two-pages.pdf']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ID\s+FILE\s+PAGES\s+STATUS/);
    expect(result.stdout).toMatch(/two-pages\.pdf\s+2\s+READY/);
    expect(result.stderr).toContain('Uploaded two-pages.pdf');
  });

  it('with --no-wait returns once uploaded, showing the processing status', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['--json', 'documents', 'upload', id, 'nda.pdf', '--no-wait']);
    expect(result.code).toBe(0);
    const [document] = parseJson<{ documents: { status: string }[] }>(result.stdout).documents;
    expect(['PROCESSING', 'READY']).toContain(document!.status);
    expect(document!.status).not.toBe('AWAITING_UPLOAD');
  });

  it('refuses flags that would be ignored: --confirm-conversion with --no-wait (upload), without --wait (send-now)', async () => {
    const { id } = await createDraft(emulator);
    const upload = await esign(['documents', 'upload', id, 'letter.docx', '--no-wait', '--confirm-conversion']);
    expect(upload.code).toBe(2);
    expect(upload.stderr).toContain('--no-wait and --confirm-conversion do not go together');
    expect(await listDocuments(emulator, id)).toEqual([]);
    writeFileSync(join(dir, 'letter.yaml'), 'title: Letter\nparticipants: [{ref: a, name: Ada, email: ada@example.test}]\ndocuments: [{ref: d, file: letter.docx}]\nfields: []\n');
    const sendNow = await esign(['envelopes', 'send-now', '--file', 'letter.yaml', '--confirm-conversion']);
    expect(sendNow.code).toBe(2);
    expect(sendNow.stderr).toContain('--confirm-conversion works only with --wait');
  });

  it('refuses a file that is neither .pdf nor .docx with exit 2, before registering anything', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['documents', 'upload', id, 'nda.pdf', 'notes.txt']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('notes.txt: only .pdf and .docx documents can be uploaded');
    expect(await listDocuments(emulator, id)).toEqual([]);
  });

  it('refuses a missing file with exit 2, before registering anything', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['documents', 'upload', id, 'nda.pdf', 'missing.pdf']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing.pdf: no such file');
    expect(await listDocuments(emulator, id)).toEqual([]);
  });

  it('says what a path is when it is no regular file (a folder, a named pipe), for documents and input files alike', async () => {
    const { id } = await createDraft(emulator);
    mkdirSync(join(dir, 'folder.pdf'), { recursive: true });
    if (!existsSync(join(dir, 'pipe.pdf'))) execFileSync('mkfifo', [join(dir, 'pipe.pdf')]);
    const folder = await esign(['documents', 'upload', id, 'folder.pdf']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('folder.pdf is a folder, not a regular file.');
    const pipe = await esign(['documents', 'upload', id, 'pipe.pdf']);
    expect(pipe.code).toBe(2);
    expect(pipe.stderr).toContain('pipe.pdf is a named pipe, not a regular file.');
    expect(pipe.stderr).toContain('cannot come from a pipe');
    const fieldsFile = await esign(['fields', 'check', '--local', 'nda.pdf', '--file', 'folder.pdf']);
    expect(fieldsFile.code).toBe(2);
    expect(fieldsFile.stderr).toContain('folder.pdf: a folder, not a file.');
    const localPdf = await esign(['anchors', 'find', '--local', 'folder.pdf', '--text', 'x']);
    expect(localPdf.code).toBe(2);
    expect(localPdf.stderr).toContain('folder.pdf is a folder, not a regular file.');
    for (const result of [folder, pipe, fieldsFile, localPdf]) expect(result.stderr).not.toContain('EISDIR');
    expect(await listDocuments(emulator, id)).toEqual([]);
  });

  it('names the file and the reason when processing FAILS (exit 5), and gives the way out: delete the draft', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['documents', 'upload', id, 'broken.docx']);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/DOCUMENT_FAILED: broken\.docx \([0-9a-f-]+\) could not be processed: \S+/);
    // The contract has no operation that replaces or removes a document: the draft is deleted and made again.
    expect(result.stderr).toContain(`esign envelopes delete ${id}`);
    expect(result.stderr).not.toMatch(/upload the file|register .* again/i);
  });

  it('a refused registration left no draft stuck: the hint fits the refusal (no such envelope, not a draft), never "delete it"', async () => {
    const unknown = await esign(['documents', 'upload', '00000000-0000-0000-0000-000000000000', 'nda.pdf']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('There is no envelope 00000000-0000-0000-0000-000000000000');
    expect(unknown.stderr).not.toMatch(/cannot be repaired|envelopes delete/);

    const { id } = await createSentEnvelope(emulator);
    const sent = await esign(['documents', 'upload', id, 'nda.pdf']);
    expect(sent.code).toBe(5);
    expect(sent.stderr).toContain('ENVELOPE_NOT_DRAFT');
    expect(sent.stderr).toContain('Documents are added only to a draft');
    expect(sent.stderr).not.toMatch(/cannot be repaired|envelopes delete/);
  });

  it('uploads a file of several megabytes, streamed from disk', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['--json', 'documents', 'upload', id, 'large.pdf']);
    expect(result.code).toBe(0);
    expect(parseJson<{ documents: { status: string }[] }>(result.stdout).documents[0]!.status).toBe('READY');
  });
});

describe('.docx conversion ("the client must confirm it with confirm-conversion")', () => {
  it('confirms the converted PDF with --confirm-conversion and waits until READY', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['--json', 'documents', 'upload', id, 'letter.docx', '--confirm-conversion']);
    expect(result.code).toBe(0);
    const [document] = parseJson<{ documents: { status: string; contentType: string; pageCount: number }[] }>(result.stdout).documents;
    expect(document).toMatchObject({ status: 'READY', pageCount: 1 });
  });

  it('without --confirm-conversion and without a terminal, stops with exit 5 and says how to confirm', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['documents', 'upload', id, 'letter.docx']);
    expect(result.code).toBe(5);
    const [document] = await listDocuments(emulator, id);
    expect(document.status).toBe('AWAITING_CONVERSION_CONFIRMATION');
    expect(result.stderr).toContain('CONVERSION_NOT_CONFIRMED: letter.docx');
    expect(result.stderr).toContain(`esign documents confirm-conversion ${id} ${document.documentId}`);
    expect(result.stderr).toContain('--confirm-conversion');

    const confirmed = await esign(['documents', 'confirm-conversion', id, document.documentId]);
    expect(confirmed.code).toBe(0);
    expect(confirmed.stderr).toContain('Conversion of letter.docx confirmed');
    const ready = await waitUntil(
      async () => (await listDocuments(emulator, id))[0],
      (listed) => listed.status !== 'PROCESSING',
      'the confirmed document',
    );
    expect(ready.status).toBe('READY');
  });

  it('with --json, the failure is one JSON error on stderr and stdout stays empty', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['--json', 'documents', 'upload', id, 'letter.docx']);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(parseJson<{ error: { code: string; message: string; details: { fileName: string } } }>(result.stderr).error).toMatchObject({
      code: 'CONVERSION_NOT_CONFIRMED',
      // batch run reports a failed envelope by code and message: the message itself names the flag.
      message: expect.stringContaining('--confirm-conversion'),
      details: { fileName: 'letter.docx' },
    });
  });
});

describe('documents list, download-url, validate', () => {
  it('lists the documents of an envelope', async () => {
    const { id } = await createDraft(emulator);
    await esign(['documents', 'upload', id, 'nda.pdf']);
    const result = await esign(['--json', 'documents', 'list', id]);
    expect(result.code).toBe(0);
    expect(parseJson<{ data: { fileName: string; status: string; pageCount: number }[] }>(result.stdout).data).toEqual([
      expect.objectContaining({ fileName: 'nda.pdf', status: 'READY', pageCount: 1 }),
    ]);
    const human = await esign(['doc', 'ls', id]);
    expect(human.stdout).toMatch(/nda\.pdf\s+1\s+READY/);

    await esign(['documents', 'upload', id, 'two-pages.pdf']);
    const page = await esign(['--json', 'documents', 'list', id, '--limit', '1']);
    expect(page.code, page.stderr).toBe(0);
    const first = parseJson<{ data: { fileName: string }[]; nextCursor: string }>(page.stdout);
    expect(first.data.map((document) => document.fileName)).toEqual(['nda.pdf']);
    const rest = await esign(['--json', 'documents', 'list', id, '--cursor', first.nextCursor]);
    expect(parseJson<{ data: { fileName: string }[] }>(rest.stdout).data.map((document) => document.fileName)).toEqual(['two-pages.pdf']);
    const lines = await esign(['documents', 'list', id, '--all', '--jsonl']);
    expect(lines.code, lines.stderr).toBe(0);
    expect(lines.stdout.trim().split('\n').map((line) => JSON.parse(line).fileName)).toEqual(['nda.pdf', 'two-pages.pdf']);
  });

  it('prints a download address that serves the document without the key; validate says a sealed copy is valid and a plain PDF is not', async () => {
    const sent = await createSentEnvelope(emulator);
    await signAll(emulator, sent);
    const [document] = await listDocuments(emulator, sent.id);
    const result = await esign(['documents', 'download-url', sent.id, document.documentId]);
    expect(result.code).toBe(0);
    const url = result.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const download = await fetch(url);
    expect(download.status).toBe(200);
    writeFileSync(join(dir, 'sealed.pdf'), Buffer.from(await download.arrayBuffer()));

    const valid = await esign(['--json', 'documents', 'validate', 'sealed.pdf']);
    expect(valid.code).toBe(0);
    expect(parseJson(valid.stdout)).toMatchObject({ valid: true, sealed: true, envelopeId: sent.id });

    const plain = await esign(['documents', 'validate', 'nda.pdf']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/Result:\s+not valid \(NOT_SEALED\)/);
  });

  it('validate refuses a missing file with exit 2 and sends nothing', async () => {
    const before = (await requestLog()).requests;
    const result = await esign(['documents', 'validate', 'nowhere.pdf']);
    expect(result.code).toBe(2);
    expect((await requestLog()).requests).toBe(before);
  });

  it('download-url of an unknown document exits 4', async () => {
    const { id } = await createDraft(emulator);
    const result = await esign(['documents', 'download-url', id, '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(4);
  });
});

describe.skipIf(!tmuxBinary)('on a terminal (tmux)', () => {
  let terminal: Terminal | undefined;

  afterAll(() => terminal?.stop());

  function open(): Terminal {
    terminal?.stop();
    terminal = terminalWith(emulator.env);
    return terminal;
  }

  it('shows a progress bar with bytes and rate for a file over 5 MB', async () => {
    const { id } = await createDraft(emulator);
    const tty = open();
    tty.run(['documents', 'upload', id, 'large.pdf'], dir);
    const screen = await tty.waitFor(/EXIT=\d+/, 30_000);
    expect(screen).toContain('EXIT=0');
    expect(screen).toMatch(/large\.pdf \[#{24}\] 100%\s+6\.0 MB \/ 6\.0 MB\s+[\d.]+ [KMG]?B\/s/);
  });

  it('asks whether to use the converted PDF of a .docx; yes confirms it', async () => {
    const { id } = await createDraft(emulator);
    const tty = open();
    tty.run(['documents', 'upload', id, 'letter.docx'], dir);
    await tty.waitFor(/letter\.docx was converted to PDF \(1 page\)\. Use the converted PDF\?/);
    tty.keys('Enter');
    const screen = await tty.waitFor(/EXIT=\d+/);
    expect(screen).toContain('EXIT=0');
    expect(screen).toContain('Confirmed the converted PDF of letter.docx');
    expect((await listDocuments(emulator, id))[0].status).toBe('READY');
  });
});
