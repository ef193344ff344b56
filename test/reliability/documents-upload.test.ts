/**
 * `documents upload` when the work cannot finish: files that are not what their name says, a connection dropped
 * during registration, and a person pressing Ctrl-C in the middle of an upload.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJson, startEsign, stderrShows, tempDir } from '../support/cli.js';
import { listDocuments, paddedPdf, putBytes, registerDocument } from '../support/documents.js';
import { startEmulatorProcess, useEmulator, type EmulatorProcess } from '../support/emulator.js';
import { esignOn } from '../support/esign-on.js';
import { createDraft } from '../support/envelope-flow.js';
import { call, expectStatus } from '../support/api-call.js';
import { ndaPdf } from '../support/pdfs.js';
import { handWrittenPdf } from '../support/damaged-pdfs.js';

let dir: string;

beforeAll(async () => {
  dir = tempDir('esign-reliability-upload-');
  writeFileSync(join(dir, 'nda.pdf'), await ndaPdf());
  writeFileSync(join(dir, 'notes.pdf'), 'Meeting notes, saved as text and renamed.\n');
  writeFileSync(join(dir, 'preamble.pdf'), Buffer.concat([Buffer.alloc(600, 0x20), Buffer.from(await ndaPdf())]));
  writeFileSync(join(dir, 'letter.docx'), '<html><body>An HTML page saved with a .docx name</body></html>');
  writeFileSync(join(dir, 'empty.pdf'), '');
  writeFileSync(join(dir, 'locked.pdf'), handWrittenPdf({ userPassword: 'secret' }));
  writeFileSync(join(dir, 'cut.pdf'), handWrittenPdf().subarray(0, 20));
  writeFileSync(join(dir, 'big.pdf'), await paddedPdf(8 * 1024 * 1024, { title: 'Big scan', fill: 3 }));
});

/** esign against `emulator`, in the directory of the test's files. */
function esignIn(emulator: EmulatorProcess) {
  return (args: readonly string[]) => esignOn(emulator).run(args, { cwd: dir });
}

async function requests(emulator: EmulatorProcess): Promise<number> {
  return ((await (await emulator.fetch('/_emulator/request-log')).json()) as { requests: number }).requests;
}

describe('local document checks, before anything is registered', () => {
  const emulator = useEmulator(['--processing-delay', '20']);

  it('refuses a text file named .pdf with exit 2 and sends no request', async () => {
    const { id } = await createDraft(emulator);
    const before = await requests(emulator);
    const result = await esignIn(emulator)(['documents', 'upload', id, 'nda.pdf', 'notes.pdf']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DOCUMENT_NOT_PDF');
    expect(result.stderr).toMatch(/notes\.pdf is not a PDF: there is no %PDF- header/);
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
    // Not even the valid nda.pdf before it: every file is checked first.
    expect(await requests(emulator)).toBe(before);
    expect(await listDocuments(emulator, id)).toEqual([]);
  });

  it('refuses a PDF the service could not open (encrypted, cut short) with exit 2 and no request, as send-now does', async () => {
    const { id } = await createDraft(emulator);
    const before = await requests(emulator);
    const locked = await esignIn(emulator)(['documents', 'upload', id, 'nda.pdf', 'locked.pdf']);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toContain('PDF_UNREADABLE: locked.pdf: the PDF is encrypted and opens only with a password');
    const cut = await esignIn(emulator)(['--json', 'documents', 'upload', id, 'cut.pdf']);
    expect(cut.code).toBe(2);
    expect(parseJson<{ error: { code: string; message: string } }>(cut.stderr).error).toMatchObject({ code: 'PDF_UNREADABLE' });
    expect(await requests(emulator)).toBe(before);

    writeFileSync(join(dir, 'spec.yaml'), 'title: Locked\nparticipants: [{ref: a, name: Ada, email: ada@example.test}]\ndocuments: [{ref: d, file: locked.pdf}]\nfields: []\n');
    const sendNow = await esignIn(emulator)(['envelopes', 'send-now', '--file', 'spec.yaml']);
    expect(sendNow.code).toBe(2);
    expect(sendNow.stderr).toMatch(/spec\.yaml:3:\d+: .*locked\.pdf: the PDF is encrypted/);
    expect(await requests(emulator)).toBe(before);
    expect(await listDocuments(emulator, id)).toEqual([]);
  });

  it('refuses a .docx that is not a ZIP package, and an empty file, with exit 2 and no request', async () => {
    const { id } = await createDraft(emulator);
    const before = await requests(emulator);
    const docx = await esignIn(emulator)(['--json', 'documents', 'upload', id, 'letter.docx']);
    expect(docx.code).toBe(2);
    expect(parseJson<{ error: { code: string; message: string } }>(docx.stderr).error).toMatchObject({ code: 'DOCUMENT_NOT_DOCX' });
    const empty = await esignIn(emulator)(['documents', 'upload', id, 'empty.pdf']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('empty.pdf is empty');
    expect(await requests(emulator)).toBe(before);
  });

  it('documents list says plainly that a draft with a document awaiting upload cannot be repaired, and how to get out', async () => {
    const { id } = await createDraft(emulator);
    await registerDocument(emulator, id, 'stuck.pdf');
    const result = await esignIn(emulator)(['documents', 'list', id]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('stuck.pdf is AWAITING_UPLOAD: the envelope cannot be sent while it has this document.');
    expect(result.stderr).toContain('cannot be repaired');
    expect(result.stderr).toContain(`esign envelopes delete ${id}`);
  });

  it('accepts a PDF whose header comes after a preamble, within the first 1024 bytes, as readers do', async () => {
    const { id } = await createDraft(emulator);
    const result = await esignIn(emulator)(['--json', 'documents', 'upload', id, 'preamble.pdf']);
    expect(result.code).toBe(0);
    expect(parseJson<{ documents: { status: string }[] }>(result.stdout).documents[0]!.status).toBe('READY');
  });
});

describe('a connection dropped during registration', () => {
  const emulator = useEmulator(['--processing-delay', '20', '--faults', 'reset=0.2']);

  /** The test's own requests meet the same faults: a GET, or a POST with a key, is simply tried again. */
  async function retried<T>(request: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await request();
      } catch (error) {
        if (attempt === 10) throw error;
      }
    }
  }

  it('is retried with the same Idempotency-Key: 6 uploads of 6 succeed, each registering exactly one document', { timeout: 120_000 }, async () => {
    for (let run = 0; run < 6; run++) {
      const key = `reset-draft-${run}-${Date.now()}`;
      const { id } = await retried(() => createDraftWithKey(key));
      const uploaded = await esignIn(emulator)(['--json', '--debug', 'documents', 'upload', id, 'nda.pdf']);
      expect(uploaded.code, uploaded.stderr).toBe(0);
      // A retried registration that applied twice would leave a second document, stuck awaiting its upload.
      expect((await retried(() => listDocuments(emulator, id))).map((document) => document.status)).toEqual(['READY']);
    }
  });

  async function createDraftWithKey(key: string): Promise<{ id: string }> {
    const answer = await call(emulator, 'POST', '/v4/api/envelopes/', { body: { title: 'Reset run' }, headers: { 'idempotency-key': key } });
    return expectStatus(answer, 201).body as { id: string };
  }
});

describe('Ctrl-C during an upload', () => {
  // A storage host that takes 30 s before it reads a body: the upload is still running when the signal comes.
  const emulator = useEmulator(['--processing-delay', '20', '--max-document-bytes', String(64 * 1024 * 1024), '--faults', 'upload-latency=30000']);

  async function interruptUpload(signal: NodeJS.Signals, json: boolean) {
    const { id } = await createDraft(emulator);
    const running = startEsign([...(json ? ['--json'] : []), '--debug', 'documents', 'upload', id, 'big.pdf', 'nda.pdf'], { cwd: dir, env: emulator.env });
    await stderrShows(running, /PUT \S+ \(upload, \d+ bytes/);
    const signalled = Date.now();
    running.child.kill(signal);
    const result = await running.result;
    const [document] = await listDocuments(emulator, id);
    return { id, result, document, stoppedWithinMs: Date.now() - signalled };
  }

  it('stops at once with exit 130, names the envelope, the documents and their state, and the clean-up command', async () => {
    const { id, result, document, stoppedWithinMs } = await interruptUpload('SIGINT', false);
    expect(result.code).toBe(130);
    // Well before the storage host would have answered (30 s).
    expect(stoppedWithinMs).toBeLessThan(4_000);
    expect(document.status).toBe('AWAITING_UPLOAD');
    expect(result.stderr).toContain(`Envelope ${id}: big.pdf (${document.documentId}) AWAITING_UPLOAD, upload not finished; nda.pdf not registered.`);
    // "A document stuck awaiting upload leaves a draft the contract gives no way to repair": the hint says so.
    expect(result.stderr).toContain('cannot be repaired');
    expect(result.stderr).toContain(`esign envelopes delete ${id}`);
  });

  it('on SIGTERM exits 143, and with --json puts the same facts in the error details', async () => {
    const { id, result, document } = await interruptUpload('SIGTERM', true);
    expect(result.code).toBe(143);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('{'));
    const { error } = parseJson<{ error: { code: string; details: unknown } }>(lines.at(-1)!);
    expect(error.code).toBe('INTERRUPTED');
    expect(error.details).toEqual({
      envelopeId: id,
      documents: [
        { fileName: 'big.pdf', documentId: document.documentId, status: 'AWAITING_UPLOAD' },
        { fileName: 'nda.pdf', documentId: null, status: 'NOT_REGISTERED' },
      ],
    });
  });
});

describe('the emulator receiving a large upload when its disk write fails (ulimit -f)', () => {
  const MiB = 1024 * 1024;
  let emulator: EmulatorProcess;
  let stateDir: string;

  beforeAll(async () => {
    stateDir = tempDir('esign-upload-efbig-');
    emulator = await startEmulatorProcess(['--state', join(stateDir, 'state.jsonl'), '--max-document-bytes', String(256 * MiB)], { fileSizeLimitKiB: 40 * 1024 });
    return () => emulator.stop();
  });

  /** 100 MiB of a PDF, sent as the bytes come (chunked: no length to size the file by) or with its length. */
  function hundredMiB(sized: boolean): RequestInit['body'] {
    const chunk = Buffer.alloc(MiB, 0x20);
    if (sized) return Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(100 * MiB - 9, 0x20)]);
    let sent = 0;
    return new ReadableStream({
      pull(controller) {
        controller.enqueue(sent === 0 ? Buffer.concat([Buffer.from('%PDF-1.7\n'), chunk.subarray(9)]) : chunk);
        if (++sent === 100) controller.close();
      },
    });
  }

  it.each([false, true])('answers an error, keeps no partial file, and takes the document again (sized from its length: %s)', async (sized) => {
    const { id } = await createDraft(emulator);
    const { uploadUrl, documentId } = await registerDocument(emulator, id);
    const failed = await fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: hundredMiB(sized), duplex: 'half' } as RequestInit);
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { error: { message: string } }).error.message).toContain('EFBIG');
    expect(readdirSync(join(stateDir, 'state.jsonl.documents'))).toEqual([]);
    const [awaiting] = await listDocuments(emulator, id);
    expect(awaiting).toMatchObject({ documentId, status: 'AWAITING_UPLOAD' });
    expect((await putBytes(uploadUrl, await ndaPdf())).status).toBe(200);
  });
});
