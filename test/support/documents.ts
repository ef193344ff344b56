/** Document steps over raw HTTP, for the contract tests of documents, fields and anchors; and test documents to upload. */
import { strToU8, zipSync } from 'fflate';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { call, expectStatus } from './api-call.js';
import type { EmulatorProcess } from './emulator.js';
import { createDraft, syncParticipants, waitUntil } from './envelope-flow.js';

export const PDF = 'application/pdf';
export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export interface RegisteredDocument {
  documentId: string;
  uploadUrl: string;
  uploadExpiresAt: string;
}

export async function registerDocument(emulator: EmulatorProcess, envelopeId: string, fileName = 'contract.pdf', contentType = PDF): Promise<RegisteredDocument> {
  return expectStatus(await call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents`, { body: { fileName, contentType } }), 201).body;
}

/** PUT to a signed upload address exactly as a client should: raw bytes, the registered type, no key. */
export async function putBytes(uploadUrl: string, bytes: Uint8Array, contentType = PDF, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(uploadUrl, { method: 'PUT', headers: { 'content-type': contentType, ...headers }, body: bytes });
}

export async function listDocuments(emulator: EmulatorProcess, envelopeId: string): Promise<any[]> {
  return expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents`), 200).body.data;
}

export async function documentRecord(emulator: EmulatorProcess, envelopeId: string, documentId: string): Promise<any> {
  const found = (await listDocuments(emulator, envelopeId)).find((document) => document.documentId === documentId);
  if (!found) throw new Error(`document ${documentId} is not listed in envelope ${envelopeId}`);
  return found;
}

/** Waits until processing has ended (any status but AWAITING_UPLOAD and PROCESSING) and returns the listed document. */
export async function processedDocument(emulator: EmulatorProcess, envelopeId: string, documentId: string): Promise<any> {
  return waitUntil(
    () => documentRecord(emulator, envelopeId, documentId),
    (document) => document.status !== 'PROCESSING' && document.status !== 'AWAITING_UPLOAD',
    `processing of ${documentId}`,
  );
}

/** Registers, uploads and waits until processing ends; answers the listed document. */
export async function addDocument(
  emulator: EmulatorProcess,
  envelopeId: string,
  bytes: Uint8Array,
  options: { fileName?: string; contentType?: string } = {},
): Promise<any> {
  const registered = await registerDocument(emulator, envelopeId, options.fileName, options.contentType);
  const upload = await putBytes(registered.uploadUrl, bytes, options.contentType);
  if (!upload.ok) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
  return processedDocument(emulator, envelopeId, registered.documentId);
}

/** A DRAFT with two signers, ready to take documents. */
export async function draftWithSigners(emulator: EmulatorProcess): Promise<{ envelopeId: string; participantIds: string[] }> {
  const envelope = await createDraft(emulator, { title: 'Fields and anchors' });
  const participants = await syncParticipants(emulator, envelope.id, [
    { name: 'Ada Signer', email: 'ada@example.test' },
    { name: 'Bob Signer', email: 'bob@example.test' },
  ]);
  return { envelopeId: envelope.id, participantIds: participants.map((participant: { id: string }) => participant.id) };
}

export function findAnchors(emulator: EmulatorProcess, envelopeId: string, documentId: string, searches: unknown[]) {
  return call(emulator, 'POST', `/v4/api/envelopes/${envelopeId}/documents/${documentId}/anchors:find`, { body: { searches } });
}

export function putFields(emulator: EmulatorProcess, envelopeId: string, documentId: string, fields: unknown[]) {
  return call(emulator, 'PUT', `/v4/api/envelopes/${envelopeId}/documents/${documentId}/fields`, { body: { fields } });
}

export async function getFields(emulator: EmulatorProcess, envelopeId: string, documentId: string): Promise<any[]> {
  return expectStatus(await call(emulator, 'GET', `/v4/api/envelopes/${envelopeId}/documents/${documentId}/fields`), 200).body.fields;
}

/** The smallest Word package the emulator reads: word/document.xml with one paragraph per entry (XML-escaped). */
export function minimalDocx(paragraphs: readonly string[]): Uint8Array {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = paragraphs.map((text) => `<w:p><w:r><w:t xml:space="preserve">${escape(text)}</w:t></w:r></w:p>`).join('');
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

/**
 * A readable PDF of about `bytes` bytes: one line of text (`title` then `{{signature}}`) and a large stream object
 * nothing refers to, every byte of it `fill`.
 */
export async function paddedPdf(bytes: number, { title = 'Padded document', fill = 0 }: { title?: string; fill?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(`${title} {{signature}}`, { x: 72, y: 700, size: 12, font });
  doc.context.register(doc.context.stream(new Uint8Array(bytes).fill(fill)));
  return doc.save({ useObjectStreams: false });
}
