import type { RouteContext, RouteTable } from '../context.js';
import { documentSha256, receiveBody } from '../document-bytes.js';
import { ApiFailure, fail } from '../errors.js';
import { placeFieldsOnDocument } from '../field-placement.js';
import { addDocumentId, assertStatus, findEnvelope } from '../lifecycle.js';
import {
  confirmConversion,
  contentPath,
  createDocumentRecord,
  DOCUMENT_CONTENT_TYPES,
  documentView,
  PDF_CONTENT_TYPE,
} from '../processing.js';
import { findSealedDocument, SEAL_KEYWORD } from '../sealing.js';
import { signAddress } from '../signing.js';
import type { DocumentRecord, EnvelopeRecord, StoredField } from '../records.js';
import { lazySchema, parseBody, type RequestBodies, withKnownProperties, type KnownProperties } from '../validate.js';
import { envelopeDocuments } from '../views.js';
import { paginate } from '../pagination.js';

const registerSchema = lazySchema((z) => z.strictObject({ fileName: z.string().trim().min(1).max(255), contentType: z.string().min(1) }));
/**
 * A field of PUT fields, as the contract describes it. The values are the placement module's to check; a property it
 * does not know is refused here. `properties` is the field's own (the contract's `label` is an example), kept as sent.
 */
const FIELD_PROPERTIES: KnownProperties = {
  id: true,
  participantId: true,
  type: true,
  pages: true,
  position: { x: true, y: true },
  size: { width: true, height: true },
  anchor: { text: true, occurrence: true, caseSensitive: true, matchWholeWord: true, offset: { x: true, y: true }, ifNotFound: true },
  properties: true,
};

const fieldsSchema = lazySchema((z) => z.strictObject({ fields: z.array(withKnownProperties(z.unknown(), FIELD_PROPERTIES)) }));
const emptySchema = lazySchema((z) => z.strictObject({}));

/** The envelope and one of its documents, else 404. */
export function findEnvelopeDocument(ctx: RouteContext): { envelope: EnvelopeRecord; document: DocumentRecord } {
  const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
  const documentId = ctx.params.documentId!;
  const document = envelope.documentIds.includes(documentId) ? ctx.store.state.documents.get(documentId) : undefined;
  if (!document) throw fail.notFound('Document', documentId);
  return { envelope, document };
}

/** The envelope and document of a fields PUT, while their fields may still change. */
function findFieldsToReplace(ctx: RouteContext): { envelope: EnvelopeRecord; document: DocumentRecord } {
  const found = findEnvelopeDocument(ctx);
  const { envelope } = found;
  // Once someone signed, the layout is covered by their signature: say who, rather than only that it is not a draft.
  const signed = envelope.status === 'SENT' ? envelope.participants.filter((p) => p.status === 'SIGNED' || p.status === 'APPROVED') : [];
  if (signed.length) {
    throw fail.conflict('SIGNATURES_NEED_RESET', `Participants ${signed.map((p) => p.id).join(', ')} already signed or approved this envelope; changing its fields would invalidate their signatures.`, {
      affectedSignatoryIds: signed.map((p) => p.id),
    });
  }
  assertStatus(envelope, ['DRAFT'], 'ENVELOPE_NOT_DRAFT', 'change fields');
  return found;
}

/** The contract's field shape as read: coordinates and sizes in whole points. */
function fieldView(field: StoredField): Record<string, unknown> {
  return {
    id: field.id,
    participantId: field.participantId,
    type: field.type,
    pages: field.pages,
    position: { x: Math.round(field.position.x), y: Math.round(field.position.y) },
    size: { width: Math.round(field.size.width), height: Math.round(field.size.height) },
    ...(field.properties !== undefined ? { properties: field.properties } : {}),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export const routes: RouteTable = {
  registerDocument: async (ctx) => {
    const { fileName, contentType } = parseBody(await registerSchema(), ctx.body);
    if (!(DOCUMENT_CONTENT_TYPES as readonly string[]).includes(contentType)) {
      throw fail.badRequest('UNSUPPORTED_CONTENT_TYPE', `contentType ${JSON.stringify(contentType)} is not accepted; use ${DOCUMENT_CONTENT_TYPES.join(' or ')}.`, {
        contentType,
        accepted: DOCUMENT_CONTENT_TYPES,
      });
    }
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    assertStatus(envelope, ['DRAFT'], 'ENVELOPE_NOT_DRAFT', 'add a document');
    const { document, upload } = createDocumentRecord(ctx, { envelopeId: envelope.id }, { fileName, contentType }, ctx.origin);
    addDocumentId(envelope, document.documentId);
    ctx.events.history(envelope, 'DOCUMENT_REGISTERED', ctx.events.apiActor(ctx.principal), { documentId: document.documentId, fileName, contentType });
    return {
      status: 201,
      body: { documentId: document.documentId, fileName, contentType, status: document.status, uploadUrl: upload.url, uploadExpiresAt: upload.expiresAt },
    };
  },

  listDocuments: (ctx) => {
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    const page = paginate(envelopeDocuments(ctx.store.state, envelope), ctx.query);
    return { status: 200, body: { data: page.data.map(documentView), nextCursor: page.nextCursor } };
  },

  putFields: async (ctx) => {
    const { fields } = parseBody(await fieldsSchema(), ctx.body);
    const { document } = findFieldsToReplace(ctx);
    const placed = await placeFieldsOnDocument(ctx, document, fields);
    // An anchor search lets other requests in: the envelope may have been sent or deleted meanwhile.
    const { envelope } = findFieldsToReplace(ctx);
    const before = new Set(document.fields.map((field) => field.id));
    const after = new Set(placed.map((field) => field.id));
    const counts = {
      created: [...after].filter((id) => !before.has(id)).length,
      updated: [...after].filter((id) => before.has(id)).length,
      deleted: [...before].filter((id) => !after.has(id)).length,
    };
    document.fields = placed;
    ctx.events.history(envelope, 'FIELDS_REPLACED', ctx.events.apiActor(ctx.principal), { documentId: document.documentId, ...counts });
    return { status: 200, body: counts };
  },

  listFields: (ctx) => {
    const { document } = findEnvelopeDocument(ctx);
    return { status: 200, body: { fields: document.fields.map(fieldView) } };
  },

  confirmConversion: async (ctx) => {
    parseBody(await emptySchema(), ctx.body);
    const { envelope, document } = findEnvelopeDocument(ctx);
    if (document.status !== 'AWAITING_CONVERSION_CONFIRMATION') {
      throw fail.conflict('DOCUMENT_NOT_AWAITING_CONFIRMATION', `Document ${document.documentId} is ${document.status}; only a converted .docx waiting for confirmation can be confirmed.`, {
        documentId: document.documentId,
        status: document.status,
      });
    }
    ctx.events.history(envelope, 'DOCUMENT_CONVERSION_CONFIRMED', ctx.events.apiActor(ctx.principal), { documentId: document.documentId });
    await confirmConversion(ctx, document);
    return { status: 200, body: documentView(document) };
  },

  /** A READY document, or a converted preview waiting for confirmation (so it can be looked at first). */
  getDocumentDownloadUrl: (ctx) => {
    const { document } = findEnvelopeDocument(ctx);
    if (document.status !== 'READY' && document.status !== 'AWAITING_CONVERSION_CONFIRMATION') {
      throw fail.conflict('DOCUMENT_NOT_READY', `Document ${document.documentId} is ${document.status}; it can be downloaded once processed.`, {
        documentId: document.documentId,
        status: document.status,
      });
    }
    return { status: 200, body: signAddress(ctx.origin, contentPath(document.documentId), ctx.options.signedAddressTtlMs) };
  },

  /**
   * valid: the PDF is, byte for byte, a sealed copy this emulator served for a COMPLETED envelope. sealed: it carries
   * the emulator's seal (a modified sealed copy is sealed but not valid).
   */
  validateSealedDocument: async (ctx) => {
    const contentType = headerValue(ctx.headers['content-type'])?.split(';')[0]!.trim().toLowerCase();
    if (contentType !== PDF_CONTENT_TYPE) {
      throw new ApiFailure(415, 'UNSUPPORTED_CONTENT_TYPE', `Send the PDF itself as the body with Content-Type: ${PDF_CONTENT_TYPE}.`, { contentType: contentType ?? null });
    }
    const received = await receiveBody(ctx.raw, { maxBytes: ctx.options.maxDocumentBytes, contentLength: headerValue(ctx.headers['content-length']) });
    if (received.byteLength === 0) throw fail.validation('The body is empty; send the PDF to validate.');
    const sha256 = await documentSha256(received.bytes!);
    const sealedDocument = findSealedDocument(ctx.store, sha256);
    if (sealedDocument) {
      return { status: 200, body: { valid: true, sealed: true, reason: null, sha256, pageCount: sealedDocument.pageCount ?? null, documentId: sealedDocument.documentId, envelopeId: sealedDocument.envelopeId ?? null } };
    }
    const { PDFDocument } = await import('pdf-lib');
    let pdf;
    try {
      pdf = await PDFDocument.load(received.bytes!, { updateMetadata: false, ignoreEncryption: true });
    } catch {
      return { status: 200, body: { valid: false, sealed: false, reason: 'NOT_A_PDF', sha256, pageCount: null } };
    }
    const sealed = (pdf.getKeywords() ?? '').split(/\s+/).includes(SEAL_KEYWORD);
    return {
      status: 200,
      body: { valid: false, sealed, reason: sealed ? 'MODIFIED_AFTER_SEALING' : 'NOT_SEALED', sha256, pageCount: pdf.getPageCount() },
    };
  },
};

export const requestBodies: RequestBodies = {
  registerDocument: { schema: registerSchema },
  putFields: { schema: fieldsSchema },
  confirmConversion: { schema: emptySchema },
};
