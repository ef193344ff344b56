/**
 * The emulator's storage side, under `/_files/`: document upload, document download and the envelope ZIP. These
 * addresses are capabilities of their own (signed, expiring), so they take no API key; an `Authorization` header that
 * reaches them anyway is ignored and counted, because a client must never send its key there.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { discardReceivedBody, documentByteStream, keepDocumentBytes, receiveBody } from '../document-bytes.js';
import { ApiFailure, fail } from '../errors.js';
import { withRawBodies } from '../json-body.js';
import type { Events } from '../events.js';
import type { EmulatorOptions } from '../options.js';
import { beginProcessing } from '../processing.js';
import { servedDocumentBytes } from '../sealing.js';
import { signedHeadersOf, verifySignedAddress } from '../signing.js';
import type { Store } from '../store.js';
import type { DocumentRecord } from '../records.js';
import { serviceActor } from '../lifecycle.js';

interface SignedAddressDeps {
  store: Store;
  options: EmulatorOptions;
  events: Events;
  requestLog: { authorizationOnSignedAddresses: number };
}

/** Statuses whose content can be served: processed, or a converted preview waiting to be looked at and confirmed. */
const SERVABLE = new Set<DocumentRecord['status']>(['READY', 'AWAITING_CONVERSION_CONFIRMATION']);

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The name a document has as a PDF file: a converted .docx becomes .pdf; no path separators or control characters. */
function pdfFileName(document: DocumentRecord): string {
  const base = document.fileName.replace(/[\\/\x00-\x1f\x7f]/g, '_').replace(/\.(pdf|docx)$/i, '') || 'document';
  return `${base}.pdf`;
}

function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Entries of the envelope ZIP, each streamed through in turn (PDFs are compressed already, so stored as they are). */
async function* zipArchive(entries: readonly { name: string; content: () => Promise<Readable | undefined> }[]): AsyncGenerator<Uint8Array> {
  const { Zip, ZipPassThrough } = await import('fflate');
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  });
  function* flush(): Generator<Uint8Array> {
    if (failure) throw failure;
    yield* ready.splice(0);
  }
  for (const entry of entries) {
    const content = await entry.content();
    if (!content) continue;
    const file = new ZipPassThrough(entry.name);
    zip.add(file);
    for await (const chunk of content as AsyncIterable<Uint8Array>) {
      file.push(chunk);
      yield* flush();
    }
    file.push(new Uint8Array(0), true);
    yield* flush();
  }
  zip.end();
  yield* flush();
}

/** Distinct names inside one archive: a second "contract.pdf" becomes "contract (2).pdf". */
function distinctNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let copy = 2; used.has(candidate.toLowerCase()); copy++) candidate = name.replace(/(\.pdf)?$/i, ` (${copy})$1`);
    used.add(candidate.toLowerCase());
    return candidate;
  });
}

export function registerSignedAddressRoutes(app: FastifyInstance, deps: SignedAddressDeps): void {
  const { store, options, requestLog } = deps;

  /**
   * 403 SIGNED_ADDRESS_INVALID or SIGNED_ADDRESS_EXPIRED unless the address is one this process signed and still valid.
   * `renewal` says how to get another: the API hands out download addresses on request, but an upload address only once,
   * when the document is registered (the contract has no operation that renews it).
   */
  function assertSigned(request: FastifyRequest, renewal = 'ask the API for a new one'): void {
    if (request.headers.authorization !== undefined) {
      requestLog.authorizationOnSignedAddresses++;
      // Signed storage takes one way of authenticating: the signature. A client sending its key here leaks it.
      throw new ApiFailure(400, 'AUTHORIZATION_NOT_ALLOWED', 'A signed address takes no Authorization header: the signature in the address is its authorization, and an API key must never leave the API host.');
    }
    const query = request.query as Record<string, unknown>;
    const check = verifySignedAddress(request.url.split('?')[0]!, query);
    if (check === 'invalid') throw new ApiFailure(403, 'SIGNED_ADDRESS_INVALID', `This address is not validly signed; ${renewal}.`);
    if (check === 'expired') throw new ApiFailure(403, 'SIGNED_ADDRESS_EXPIRED', `This address has expired; ${renewal}.`);
    for (const name of signedHeadersOf(query)) {
      // The one header an address is signed with (its signature covers the list): a legacy upload's document id, the
      // id in the path.
      const expected = (request.params as { documentId: string }).documentId;
      const received = headerValue(request.headers[name]);
      if (received !== expected) {
        throw new ApiFailure(403, 'SIGNED_HEADER_MISMATCH', `This address was signed for a request with the header ${name}: ${expected}; send it${received === undefined ? '' : ` (got ${received})`}.`, {
          header: name,
          expected,
          received: received ?? null,
        });
      }
    }
  }

  const uploadRenewal =
    'an upload address is given only when a document is registered, and no operation replaces or removes a document: delete the draft envelope and create it again';

  function findDocument(documentId: string): DocumentRecord {
    const document = store.state.documents.get(documentId);
    if (!document) throw fail.notFound('Document', documentId);
    return document;
  }

  /** Bytes go to a document of a DRAFT envelope (or of a template); a re-upload replaces the content. */
  function assertUploadable(document: DocumentRecord): void {
    const envelope = document.envelopeId ? store.state.envelopes.get(document.envelopeId) : undefined;
    if (document.envelopeId && !envelope) throw fail.notFound('Envelope', document.envelopeId);
    if (envelope && envelope.status !== 'DRAFT') {
      throw fail.conflict('ENVELOPE_NOT_DRAFT', `Envelope ${envelope.id} is ${envelope.status}; its documents can no longer be uploaded.`, {
        envelopeId: envelope.id,
        status: envelope.status,
      });
    }
  }

  withRawBodies(app, (scope) => scope.put<{ Params: { documentId: string } }>('/_files/documents/:documentId', async (request, reply) => {
    assertSigned(request, uploadRenewal);
    const document = findDocument(request.params.documentId);
    assertUploadable(document);
    if (options.faults.uploadLatencyMs) await new Promise((resolve) => setTimeout(resolve, options.faults.uploadLatencyMs));
    const contentType = headerValue(request.headers['content-type'])?.split(';')[0]!.trim().toLowerCase();
    if (contentType !== document.contentType) {
      throw new ApiFailure(415, 'CONTENT_TYPE_MISMATCH', `Upload with Content-Type: ${document.contentType}, as the document was registered (got ${contentType ?? 'none'}).`, {
        expected: document.contentType,
        received: contentType ?? null,
      });
    }
    const received = await receiveBody(request.raw, {
      maxBytes: options.maxDocumentBytes,
      contentLength: headerValue(request.headers['content-length']),
      spill: { store, documentId: document.documentId },
    });
    try {
      // The envelope may have been deleted, or sent, while the bytes arrived: then they are not kept.
      if (store.state.documents.get(document.documentId) !== document) throw fail.notFound('Document', document.documentId);
      if (received.byteLength === 0) throw fail.validation('The upload is empty; send the file as the body.');
      assertUploadable(document);
    } catch (error) {
      await discardReceivedBody(received);
      throw error;
    }
    await keepDocumentBytes(store, document.documentId, received);
    const replacedFields = document.fields.length;
    // Fields were placed on the old content; they would point at the wrong places (or pages) of the new one.
    document.fields = [];
    const envelope = document.envelopeId ? store.state.envelopes.get(document.envelopeId) : undefined;
    if (envelope) {
      deps.events.history(envelope, 'DOCUMENT_UPLOADED', serviceActor, {
        documentId: document.documentId,
        byteLength: received.byteLength,
        ...(replacedFields ? { fieldsRemoved: replacedFields } : {}),
      });
    }
    beginProcessing(deps, document, received);
    return reply.code(200).send({ documentId: document.documentId, status: document.status, byteLength: received.byteLength });
  }));

  app.get<{ Params: { documentId: string } }>('/_files/documents/:documentId/content', async (request, reply) => {
    assertSigned(request);
    const document = findDocument(request.params.documentId);
    if (!SERVABLE.has(document.status)) {
      throw fail.conflict('DOCUMENT_NOT_READY', `Document ${document.documentId} is ${document.status}; it can be downloaded once processed.`, {
        documentId: document.documentId,
        status: document.status,
      });
    }
    const envelope = document.envelopeId ? store.state.envelopes.get(document.envelopeId) : undefined;
    const content =
      envelope?.status === 'COMPLETED'
        ? await servedDocumentBytes(deps, document).then((bytes) => bytes && { stream: Readable.from([bytes]), length: bytes.length })
        : await documentByteStream(store, document.documentId);
    if (!content) throw fail.conflict('DOCUMENT_NOT_READY', `Document ${document.documentId} has no content.`, { documentId: document.documentId });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-length', String(content.length))
      .header('content-disposition', attachment(pdfFileName(document)))
      .send(content.stream);
  });

  app.get<{ Params: { archive: string } }>('/_files/envelopes/:archive', async (request, reply) => {
    assertSigned(request);
    const envelopeId = request.params.archive.replace(/\.zip$/, '');
    const envelope = store.state.envelopes.get(envelopeId);
    if (!envelope || !request.params.archive.endsWith('.zip')) throw fail.notFound('Envelope', envelopeId);
    const documents = envelope.documentIds.flatMap((id) => {
      const document = store.state.documents.get(id);
      return document && document.status === 'READY' ? [document] : [];
    });
    const names = distinctNames(documents.map(pdfFileName));
    const entries = documents.map((document, index) => ({
      name: names[index]!,
      content: async () =>
        envelope.status === 'COMPLETED'
          ? servedDocumentBytes(deps, document).then((bytes) => bytes && Readable.from([bytes]))
          : (await documentByteStream(store, document.documentId))?.stream,
    }));
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', attachment(`${envelope.title.slice(0, 100) || envelope.id}.zip`))
      .send(Readable.from(zipArchive(entries)));
  });
}
