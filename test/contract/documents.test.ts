import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { call, expectStatus } from '../support/api-call.js';
import { tempDir } from '../support/cli.js';
import {
  addDocument,
  documentRecord,
  draftWithSigners,
  DOCX,
  findAnchors,
  listDocuments,
  minimalDocx,
  paddedPdf,
  PDF,
  processedDocument,
  putBytes,
  registerDocument,
} from '../support/documents.js';
import { useEmulator, withEmulator, type EmulatorProcess } from '../support/emulator.js';
import { participantAction, send, syncParticipants, createDraft, waitUntil } from '../support/envelope-flow.js';
import { cropBoxPdf, ndaPdf, rotatedPdf, simplePdf } from '../support/pdfs.js';

const emulator = useEmulator(['--processing-delay', '50', '--max-document-bytes', String(100 * 1024 * 1024)]);

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

async function requestLog(target: EmulatorProcess): Promise<{ authorizationOnSignedAddresses: number }> {
  return (await target.fetch('/_emulator/request-log')).json() as Promise<{ authorizationOnSignedAddresses: number }>;
}

async function errorOf(response: Response): Promise<{ code: string; message: string; details?: any }> {
  return ((await response.json()) as { error: { code: string; message: string; details?: any } }).error;
}

describe('registerDocument', () => {
  it('answers 201 {documentId, fileName, contentType, status AWAITING_UPLOAD, uploadUrl, uploadExpiresAt}: a signed address on the emulator, valid 15 minutes', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const answer = expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents`, { body: { fileName: 'nda.pdf', contentType: PDF } }), 201);
    const body = answer.body;
    expect(body).toMatchObject({ fileName: 'nda.pdf', contentType: PDF, status: 'AWAITING_UPLOAD' });
    const url = new URL(body.uploadUrl);
    expect(url.origin).toBe(emulator.url);
    expect(url.pathname).toBe(`/_files/documents/${body.documentId}`);
    expect(url.searchParams.get('expires')).toMatch(/^\d+$/);
    expect(url.searchParams.get('signature')).toBeTruthy();
    const ttl = Date.parse(body.uploadExpiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(15 * 60 * 1000);
    const listed = await documentRecord(emulator, envelopeId, body.documentId);
    expect(listed).toEqual({ documentId: body.documentId, fileName: 'nda.pdf', contentType: PDF, status: 'AWAITING_UPLOAD', pageCount: null, pages: null });
  });

  it('accepts the .docx type and refuses any other contentType with 400 UNSUPPORTED_CONTENT_TYPE', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    expect((await registerDocument(emulator, envelopeId, 'letter.docx', DOCX)).documentId).toBeTruthy();
    const refused = await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents`, { body: { fileName: 'photo.png', contentType: 'image/png' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('UNSUPPORTED_CONTENT_TYPE');
    const noName = await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents`, { body: { contentType: PDF } });
    expect(noName.status).toBe(400);
    expect(noName.body.error.code).toBe('VALIDATION_ERROR');
    expect(await listDocuments(emulator, envelopeId)).toHaveLength(1);
  });

  it('is refused with 409 ENVELOPE_NOT_DRAFT once the envelope was sent, and 404 for an unknown envelope', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    await addDocument(emulator, envelopeId, await ndaPdf());
    await send(emulator, envelopeId);
    const refused = await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents`, { body: { fileName: 'late.pdf', contentType: PDF } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ENVELOPE_NOT_DRAFT');
    const unknown = await call(emulator, 'POST', '/v4/api/envelopes/00000000-0000-4000-8000-000000000000/documents', { body: { fileName: 'a.pdf', contentType: PDF } });
    expect(unknown.status).toBe(404);
  });
});

describe('upload to the signed address', () => {
  it('goes PROCESSING, then READY with pageCount and pages {page, width, height, rotate} read from the PDF (rotation and CropBox applied)', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const rotated = await registerDocument(emulator, envelopeId, 'rotated.pdf');
    const upload = await putBytes(rotated.uploadUrl, await rotatedPdf(90));
    expect(upload.status).toBe(200);
    expect(await upload.json()).toMatchObject({ documentId: rotated.documentId, status: 'PROCESSING' });
    expect((await documentRecord(emulator, envelopeId, rotated.documentId)).status).toBe('PROCESSING');
    const ready = await processedDocument(emulator, envelopeId, rotated.documentId);
    expect(ready).toMatchObject({ status: 'READY', pageCount: 1, pages: [{ page: 1, width: 800, height: 600, rotate: 90 }] });

    const cropped = await addDocument(emulator, envelopeId, await cropBoxPdf());
    expect(cropped.pages).toEqual([{ page: 1, width: 400, height: 500, rotate: 0 }]);
    const twoPages = await addDocument(emulator, envelopeId, await simplePdf({ pages: [['one'], ['two']], pageSize: [595, 842] }));
    expect(twoPages).toMatchObject({ pageCount: 2, pages: [{ page: 1, width: 595, height: 842, rotate: 0 }, { page: 2, width: 595, height: 842, rotate: 0 }] });
  });

  it('refuses a bad signature, a changed expiry or a missing signature with 403 in the error shape, and stores nothing', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const registered = await registerDocument(emulator, envelopeId);
    const bytes = await ndaPdf();
    const url = new URL(registered.uploadUrl);
    const forged = new URL(url);
    forged.searchParams.set('signature', `${url.searchParams.get('signature')!.slice(0, -4)}AAAA`);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 60_000));
    const unsigned = new URL(url);
    unsigned.search = '';
    for (const address of [forged, later, unsigned]) {
      const answer = await putBytes(address.href, bytes);
      expect(answer.status).toBe(403);
      expect((await errorOf(answer)).code).toBe('SIGNED_ADDRESS_INVALID');
    }
    const otherDocument = await registerDocument(emulator, envelopeId);
    const swapped = new URL(url);
    swapped.pathname = `/_files/documents/${otherDocument.documentId}`;
    expect((await putBytes(swapped.href, bytes)).status).toBe(403);
    expect((await documentRecord(emulator, envelopeId, registered.documentId)).status).toBe('AWAITING_UPLOAD');
  });

  it('"no Authorization header; the address is signed": one sent there is refused (400 AUTHORIZATION_NOT_ALLOWED) and counted in requestLog.authorizationOnSignedAddresses', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const before = (await requestLog(emulator)).authorizationOnSignedAddresses;
    const registered = await registerDocument(emulator, envelopeId);
    const refused = await putBytes(registered.uploadUrl, await ndaPdf(), PDF, { authorization: 'Bearer not-for-this-address' });
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatchObject({ code: 'AUTHORIZATION_NOT_ALLOWED' });
    expect((await documentRecord(emulator, envelopeId, registered.documentId)).status).toBe('AWAITING_UPLOAD');
    expect((await requestLog(emulator)).authorizationOnSignedAddresses).toBe(before + 1);
    expect((await putBytes(registered.uploadUrl, await ndaPdf())).status).toBe(200);
    expect((await requestLog(emulator)).authorizationOnSignedAddresses).toBe(before + 1);
  });

  it('refuses a Content-Type other than the registered one with 415 CONTENT_TYPE_MISMATCH', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const registered = await registerDocument(emulator, envelopeId);
    const answer = await putBytes(registered.uploadUrl, await ndaPdf(), 'application/octet-stream');
    expect(answer.status).toBe(415);
    expect(await errorOf(answer)).toMatchObject({ code: 'CONTENT_TYPE_MISMATCH', details: { expected: PDF, received: 'application/octet-stream' } });
    // The type is checked before anything reads the body: JSON is no exception.
    for (const body of [await ndaPdf(), new TextEncoder().encode('{"not": "a PDF"}')]) {
      const json = await putBytes(registered.uploadUrl, body, 'application/json');
      expect(json.status).toBe(415);
      expect(await errorOf(json)).toMatchObject({ code: 'CONTENT_TYPE_MISMATCH', details: { expected: PDF, received: 'application/json' } });
    }
    expect((await documentRecord(emulator, envelopeId, registered.documentId)).status).toBe('AWAITING_UPLOAD');
  });

  it('ends FAILED, with a reason, when the bytes are not a readable PDF', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const notPdf = await addDocument(emulator, envelopeId, new TextEncoder().encode('just some text, not a PDF'));
    expect(notPdf.status).toBe('FAILED');
    expect(notPdf.failureReason).toMatch(/not a PDF/);
    const broken = await addDocument(emulator, envelopeId, new TextEncoder().encode('%PDF-1.7\nthis is no PDF structure at all\n%%EOF'));
    expect(broken.status).toBe('FAILED');
    expect(broken.failureReason).toBeTruthy();
    expect(broken.pageCount).toBeNull();
  });

  it('a second upload replaces the content and removes fields placed on the old one', async () => {
    const { envelopeId, participantIds } = await draftWithSigners(emulator);
    const registered = await registerDocument(emulator, envelopeId);
    await putBytes(registered.uploadUrl, await simplePdf({ pages: [['one'], ['two']] }));
    await processedDocument(emulator, envelopeId, registered.documentId);
    const field = { id: crypto.randomUUID(), participantId: participantIds[0], type: 'SIGNATURE', pages: [2], position: { x: 72, y: 72 }, size: { width: 100, height: 30 } };
    expectStatus(await call(emulator, 'PUT', `/v4/api/envelopes/${envelopeId}/documents/${registered.documentId}/fields`, { body: { fields: [field] } }), 200);
    // The old content's text is read (and cached) before it is replaced.
    expect(expectStatus(await findAnchors(emulator, envelopeId, registered.documentId, [{ key: 'two', text: 'two' }]), 200).body.matches).toHaveLength(1);
    await putBytes(registered.uploadUrl, await simplePdf({ pages: [['only one']] }));
    const replaced = await processedDocument(emulator, envelopeId, registered.documentId);
    expect(replaced.pageCount).toBe(1);
    // The new content is searched, not the text read from the old one.
    const search = expectStatus(await findAnchors(emulator, envelopeId, registered.documentId, [{ key: 'two', text: 'two' }, { key: 'only', text: 'only one' }]), 200).body;
    expect(search.matches.map((match: { key: string }) => match.key)).toEqual(['only']);
    expect(expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${registered.documentId}/fields`), 200).body.fields).toEqual([]);
  });

  it('streams a body above 64 MiB to a temporary file: the document becomes READY and downloads byte for byte; anchors over 50 MB answer 422 DOCUMENT_TOO_LARGE_FOR_ANCHOR', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const bytes = await paddedPdf(70 * 1024 * 1024);
    const document = await addDocument(emulator, envelopeId, bytes);
    expect(document).toMatchObject({ status: 'READY', pageCount: 1 });
    const address = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${document.documentId}/download-url`), 200).body;
    const downloaded = new Uint8Array(await (await fetch(address.url)).arrayBuffer());
    expect(downloaded.length).toBe(bytes.length);
    expect(sha256(downloaded)).toBe(sha256(bytes));
    const search = await findAnchors(emulator, envelopeId, document.documentId, [{ key: 'sig', text: '{{signature}}' }]);
    expect(search.status).toBe(422);
    expect(search.body.error).toMatchObject({ code: 'DOCUMENT_TOO_LARGE_FOR_ANCHOR', details: { documentId: document.documentId, maxBytes: 50 * 1024 * 1024 } });
  }, 60_000);
});

describe('an upload refused once its bytes have arrived', () => {
  // The latency holds the upload after its first checks and before it reads the body.
  const emulator = useEmulator(['--processing-delay', '0', '--faults', 'upload-latency=1500', '--max-document-bytes', String(100 * 1024 * 1024)]);

  it.each([
    ['a file (over 64 MiB)', 70 * 1024 * 1024],
    ['memory', 1024 * 1024],
  ])('a re-upload that finds the envelope sent once its bytes arrived is refused, and the document serves what was sent (kept in %s)', async (_where, size) => {
    const { envelopeId } = await draftWithSigners(emulator);
    const sent = await paddedPdf(size, { title: 'As sent', fill: 1 });
    const { documentId, uploadUrl } = await registerDocument(emulator, envelopeId);
    expect((await putBytes(uploadUrl, sent)).status).toBe(200);
    expect((await processedDocument(emulator, envelopeId, documentId)).status).toBe('READY');
    const reupload = putBytes(uploadUrl, await paddedPdf(size + 4096, { title: 'Too late', fill: 2 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await send(emulator, envelopeId);
    expect((await reupload).status).toBe(409);
    const address = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${documentId}/download-url`), 200).body;
    expect(sha256(new Uint8Array(await (await fetch(address.url)).arrayBuffer()))).toBe(sha256(sent));
  }, 60_000);
});

describe('upload limits and expiry', () => {
  const maxBytes = 20_000;
  const limited = useEmulator(['--processing-delay', '0', '--max-document-bytes', String(maxBytes), '--signed-address-ttl', '1000']);

  it('answers 413 DOCUMENT_TOO_LARGE with {maxBytes, declaredBytes} when Content-Length is over --max-document-bytes', async () => {
    const { envelopeId } = await draftWithSigners(limited);
    const registered = await registerDocument(limited, envelopeId);
    const answer = await putBytes(registered.uploadUrl, new Uint8Array(maxBytes + 1));
    expect(answer.status).toBe(413);
    expect(await errorOf(answer)).toMatchObject({ code: 'DOCUMENT_TOO_LARGE', details: { maxBytes, declaredBytes: maxBytes + 1 } });
    expect((await documentRecord(limited, envelopeId, registered.documentId)).status).toBe('AWAITING_UPLOAD');
  });

  it('answers 413 DOCUMENT_TOO_LARGE with {maxBytes, receivedBytes} when a body without Content-Length grows over the limit', async () => {
    const { envelopeId } = await draftWithSigners(limited);
    const registered = await registerDocument(limited, envelopeId);
    const chunk = new Uint8Array(8_000);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 4; index++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const answer = await fetch(registered.uploadUrl, { method: 'PUT', headers: { 'content-type': PDF }, body, duplex: 'half' } as RequestInit);
    expect(answer.status).toBe(413);
    expect(await errorOf(answer)).toMatchObject({ code: 'DOCUMENT_TOO_LARGE', details: { maxBytes, receivedBytes: 32_000 } });
    expect((await documentRecord(limited, envelopeId, registered.documentId)).status).toBe('AWAITING_UPLOAD');
  });

  it('--signed-address-ttl holds for every signed address: upload, document download and the envelope ZIP', async () => {
    const { envelopeId } = await draftWithSigners(limited);
    const document = await addDocument(limited, envelopeId, await ndaPdf());
    const addresses = [
      expectStatus(await call(limited, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${document.documentId}/download-url`), 200).body,
      expectStatus(await call(limited, 'GET', `/v4/api/envelopes/${envelopeId}/download`), 200).body,
    ];
    for (const { expiresAt } of addresses) expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(1_000);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (const { url } of addresses) {
      const answer = await fetch(url);
      expect(answer.status, url).toBe(403);
      expect((await errorOf(answer)).code).toBe('SIGNED_ADDRESS_EXPIRED');
    }
  });

  it('refuses an expired upload address with 403 SIGNED_ADDRESS_EXPIRED', async () => {
    const { envelopeId } = await draftWithSigners(limited);
    const registered = await registerDocument(limited, envelopeId);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const answer = await putBytes(registered.uploadUrl, await ndaPdf());
    expect(answer.status).toBe(403);
    expect((await errorOf(answer)).code).toBe('SIGNED_ADDRESS_EXPIRED');
    expect((await documentRecord(limited, envelopeId, registered.documentId)).status).toBe('AWAITING_UPLOAD');
  });
});

describe('.docx conversion', () => {
  it('yields a converted PDF preview in AWAITING_CONVERSION_CONFIRMATION; send is refused (409 ENVELOPE_DOCUMENTS_NOT_READY) until confirm-conversion makes it READY', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const docx = minimalDocx(['Employment letter', 'Salary & benefits are described below.', 'Employee signature: {{employee}}']);
    const document = await addDocument(emulator, envelopeId, docx, { fileName: 'letter.docx', contentType: DOCX });
    expect(document).toMatchObject({ status: 'AWAITING_CONVERSION_CONFIRMATION', contentType: DOCX, pageCount: 1 });

    const refused = await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/send`, { idempotent: true, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('ENVELOPE_DOCUMENTS_NOT_READY');
    const early = await findAnchors(emulator, envelopeId, document.documentId, [{ key: 'employee', text: '{{employee}}' }]);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('DOCUMENT_NOT_READY');

    // The preview can be looked at before it is confirmed.
    const address = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${document.documentId}/download-url`), 200).body;
    const preview = await fetch(address.url);
    expect(preview.headers.get('content-type')).toBe(PDF);
    expect(preview.headers.get('content-disposition')).toContain('letter.pdf');
    expect(new TextDecoder().decode((await preview.arrayBuffer()).slice(0, 5))).toBe('%PDF-');

    const confirmed = expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents/${document.documentId}/confirm-conversion`, { body: {} }), 200);
    expect(confirmed.body).toMatchObject({ documentId: document.documentId, status: 'READY', pageCount: 1 });
    const again = await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents/${document.documentId}/confirm-conversion`, { body: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('DOCUMENT_NOT_AWAITING_CONFIRMATION');

    // The preview carries real text, so anchors are found in it.
    const found = expectStatus(await findAnchors(emulator, envelopeId, document.documentId, [{ key: 'employee', text: '{{employee}}' }]), 200).body;
    expect(found.matches).toHaveLength(1);
    expect(found.matches[0]).toMatchObject({ key: 'employee', page: 1 });
    expect((await send(emulator, envelopeId)).status).toBe('SENT');
  });

  it('refuses confirm-conversion with 409 for a PDF, and ends FAILED for bytes that are not a Word package', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const pdf = await addDocument(emulator, envelopeId, await ndaPdf());
    const refused = await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents/${pdf.documentId}/confirm-conversion`, { body: {} });
    expect(refused.status).toBe(409);
    const notDocx = await addDocument(emulator, envelopeId, new TextEncoder().encode('plain text'), { fileName: 'x.docx', contentType: DOCX });
    expect(notDocx.status).toBe('FAILED');
    const zipWithoutDocument = await addDocument(emulator, envelopeId, zipSync({ 'readme.txt': strToU8('hello') }), { fileName: 'y.docx', contentType: DOCX });
    expect(zipWithoutDocument).toMatchObject({ status: 'FAILED', failureReason: expect.stringContaining('word/document.xml') });
  });
});

describe('downloads', () => {
  it('getDocumentDownloadUrl answers {url, expiresAt}: a signed GET of the PDF; 409 DOCUMENT_NOT_READY before processing', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const waiting = await registerDocument(emulator, envelopeId);
    const early = await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${waiting.documentId}/download-url`);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('DOCUMENT_NOT_READY');

    const bytes = await ndaPdf();
    const document = await addDocument(emulator, envelopeId, bytes, { fileName: 'nda.pdf' });
    const address = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${document.documentId}/download-url`), 200).body;
    expect(Object.keys(address).sort()).toEqual(['expiresAt', 'url']);
    const before = (await requestLog(emulator)).authorizationOnSignedAddresses;
    const downloaded = await fetch(address.url);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toBe(PDF);
    expect(sha256(new Uint8Array(await downloaded.arrayBuffer()))).toBe(sha256(bytes));
    expect((await requestLog(emulator)).authorizationOnSignedAddresses).toBe(before);
    const forged = await fetch(address.url.replace(/signature=[^&]+/, 'signature=forged'));
    expect(forged.status).toBe(403);
  });

  it('serves the envelope ZIP (getEnvelopeDownload) with each READY document as a PDF entry, names made distinct', async () => {
    const { envelopeId } = await draftWithSigners(emulator);
    const first = await ndaPdf();
    const second = await simplePdf({ pages: [['Annex']] });
    await addDocument(emulator, envelopeId, first, { fileName: 'contract.pdf' });
    await addDocument(emulator, envelopeId, second, { fileName: 'contract.pdf' });
    const address = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/download`), 200).body;
    const answer = await fetch(address.url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/zip');
    const entries = unzipSync(new Uint8Array(await answer.arrayBuffer()));
    expect(Object.keys(entries)).toEqual(['contract.pdf', 'contract (2).pdf']);
    expect(sha256(entries['contract.pdf']!)).toBe(sha256(first));
    expect(sha256(entries['contract (2).pdf']!)).toBe(sha256(second));
    expect((await fetch(address.url.replace(/expires=\d+/, 'expires=1'))).status).toBe(403);
  });
});

describe('validateSealedDocument', () => {
  function validate(bytes: Uint8Array): Promise<Response> {
    return emulator.fetch('/v4/api/documents/validate', { method: 'POST', headers: { 'content-type': PDF }, body: bytes });
  }

  /** An envelope signed to COMPLETED on `target`, its original PDF, and the sealed copy its download serves. */
  async function completedEnvelope(target: EmulatorProcess): Promise<{ envelopeId: string; original: Uint8Array; sealed: Uint8Array }> {
    const envelope = await createDraft(target, { title: 'Sealed' });
    const [signer] = await syncParticipants(target, envelope.id, [{ name: 'Ada Signer', email: 'ada@example.test' }]);
    const original = await ndaPdf();
    const document = await addDocument(target, envelope.id, original, { fileName: 'nda.pdf' });
    await send(target, envelope.id);
    expect((await participantAction(target, envelope.id, signer.id, 'sign')).status).toBe(200);
    await waitUntil(() => call(target, 'GET', `/v4/api/envelopes/${envelope.id}`), (answer) => answer.body.status === 'COMPLETED', 'completion');
    const address = expectStatus(await call(target, 'GET', `/v4/api/envelopes/${envelope.id}/documents/${document.documentId}/download-url`), 200).body;
    return { envelopeId: envelope.id, original, sealed: new Uint8Array(await (await fetch(address.url)).arrayBuffer()) };
  }

  it('is valid only for the sealed PDF served for a COMPLETED envelope; the original, a modified copy and non-PDF bytes are not', async () => {
    const { envelopeId, original, sealed } = await completedEnvelope(emulator);
    expect(sha256(sealed)).not.toBe(sha256(original));

    const valid = await validate(sealed);
    expect(valid.status).toBe(200);
    expect(await valid.json()).toMatchObject({ valid: true, sealed: true, reason: null, sha256: sha256(sealed), pageCount: 1 });

    const unsealed = await (await validate(original)).json();
    expect(unsealed).toMatchObject({ valid: false, sealed: false, reason: 'NOT_SEALED', sha256: sha256(original), pageCount: 1 });

    const modified = new Uint8Array([...sealed, ...new TextEncoder().encode('\n% appended\n')]);
    expect(await (await validate(modified)).json()).toMatchObject({ valid: false, sealed: true, reason: 'MODIFIED_AFTER_SEALING' });

    expect(await (await validate(new TextEncoder().encode('hello'))).json()).toMatchObject({ valid: false, sealed: false, reason: 'NOT_A_PDF', pageCount: null });

    // The ZIP of a completed envelope holds the same sealed copy.
    const zipAddress = expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/download`), 200).body;
    const entries = unzipSync(new Uint8Array(await (await fetch(zipAddress.url)).arrayBuffer()));
    expect(sha256(entries['nda.pdf']!)).toBe(sha256(sealed));
  });

  it('knows the sealed copies kept in a --state file after a restart, and none after a reset', async () => {
    const statePath = join(tempDir('esign-sealed-state-'), 'emulator.json');
    const args = ['--key', 'sealed_test_StateValidation0123456789', '--no-seed', '--processing-delay', '0', '--state', statePath];
    const { sealed } = await withEmulator(args, completedEnvelope);
    await withEmulator(args, async (restarted) => {
      const check = async () => (await (await restarted.fetch('/v4/api/documents/validate', { method: 'POST', headers: { 'content-type': PDF }, body: sealed })).json()) as object;
      expect(await check()).toMatchObject({ valid: true, sealed: true, reason: null, sha256: sha256(sealed) });
      expect((await restarted.fetch('/_emulator/reset', { method: 'POST' })).status).toBe(200);
      expect(await check()).toMatchObject({ valid: false, sealed: true, reason: 'MODIFIED_AFTER_SEALING' });
    });
  });

  it('refuses a body that is not application/pdf with 415, an empty one with 400', async () => {
    const wrongType = await emulator.fetch('/v4/api/documents/validate', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(wrongType.status).toBe(415);
    // Checked before the body is read: a PDF, or JSON, sent as JSON is not parsed as JSON first.
    for (const body of [await ndaPdf(), new TextEncoder().encode('{"valid": true}')]) {
      const asJson = await emulator.fetch('/v4/api/documents/validate', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(asJson.status).toBe(415);
      expect((await errorOf(asJson)).code).toBe('UNSUPPORTED_CONTENT_TYPE');
    }
    const empty = await emulator.fetch('/v4/api/documents/validate', { method: 'POST', headers: { 'content-type': PDF }, body: new Uint8Array(0) });
    expect(empty.status).toBe(400);
  });
});

describe('restart with --state', () => {
  it('finishes on start the documents that were still PROCESSING when the emulator stopped', async () => {
    const statePath = join(tempDir('esign-state-'), 'state.json');
    const key = 'em_test_StateRestartKey0123456789';
    const { envelopeId, documentId } = await withEmulator(['--state', statePath, '--key', key, '--processing-delay', '600000'], async (first) => {
      const { envelopeId } = await draftWithSigners(first);
      const registered = await registerDocument(first, envelopeId);
      expect((await putBytes(registered.uploadUrl, await ndaPdf())).status).toBe(200);
      expect((await documentRecord(first, envelopeId, registered.documentId)).status).toBe('PROCESSING');
      return { envelopeId, documentId: registered.documentId };
    });
    try {
      await withEmulator(['--state', statePath, '--key', key, '--processing-delay', '0'], async (second) => {
        expect(await processedDocument(second, envelopeId, documentId)).toMatchObject({ status: 'READY', pageCount: 1 });
      });
    } finally {
      rmSync(statePath, { force: true });
    }
  });

  it('keeps the bytes of a large document beside the state across a restart, and a reset removes them, also those an earlier run left', async () => {
    const statePath = join(tempDir('esign-state-spilled-'), 'state.json');
    const documents = `${statePath}.documents`;
    const args = ['--state', statePath, '--key', 'em_test_StateSpilledKey0123456789', '--processing-delay', '0', '--max-document-bytes', String(100 * 1024 * 1024)];
    const bytes = await paddedPdf(70 * 1024 * 1024);
    const { envelopeId, documentId } = await withEmulator(args, async (first) => {
      const { envelopeId } = await draftWithSigners(first);
      return { envelopeId, documentId: (await addDocument(first, envelopeId, bytes)).documentId };
    });
    expect(readdirSync(documents)).toHaveLength(1);
    await withEmulator(args, async (restarted) => {
      const address = expectStatus(await call(restarted, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${documentId}/download-url`), 200).body;
      expect(sha256(new Uint8Array(await (await fetch(address.url)).arrayBuffer()))).toBe(sha256(bytes));
      expect((await restarted.fetch('/_emulator/reset', { method: 'POST' })).status).toBe(200);
      expect(readdirSync(documents)).toEqual([]);
      expect((await call(restarted, 'GET', `/v4/api/envelopes/${envelopeId}`)).status).toBe(404);
    });
  }, 60_000);
});
