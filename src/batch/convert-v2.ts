/**
 * `esign batch convert-v2`: a legacy `POST /v2/envelopes/` body turned into a v4 envelope spec (the shape send-now and
 * batch mode read). What v4 has a place for moves across; what it has not (observers, qualifications, keys the legacy
 * contract does not know) is listed in `notConverted` with the reason and, where there is one, the v4 way instead.
 */
import { basename, extname } from 'node:path';
import { participantSchemaParts } from '../input/participants.js';
import { formatPath, inputError, validateInput, type InputPath, type StructuredInput } from '../input/structured.js';

/** The legacy contract: "Without `deadline`, the signing deadline is 7 days after creation". */
export const LEGACY_DEFAULT_DEADLINE = '7d';
/** The legacy contract's field types; anything else it refuses with INVALID_FIELD_TYPE. */
const LEGACY_FIELD_TYPES = ['SIGNATURE', 'INITIALS', 'TEXT'] as const;
const LEGACY_CONTENT_TYPES = { '.pdf': 'application/pdf', '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' } as const;
/** Envelope-spec refs are at most 100 characters; legacy ids may be longer. */
const REF_MAX = 100;

export interface NotConverted {
  path: string;
  value: unknown;
  reason: string;
}

export interface Conversion {
  spec: Record<string, unknown>;
  notConverted: NotConverted[];
  /** What was filled in or needs the person's attention, though it converted. */
  notes: string[];
}

interface LegacyBody {
  title?: string;
  folderId?: string;
  deadline?: string;
  message?: string;
  documents: { id: string; fileName: string; contentType: string }[];
  signatories: { id: string; name: string; email: string; qualification: string; authMethod: string; phoneNumber?: string; signingOrder?: number }[];
  observers?: { email: string; notifyOnSent?: boolean; notifyOnCompletion?: boolean }[];
  fields?: { type: string; documentId: string; signatoryId: string; pageNumber: number; position: { x: number; y: number; width: number; height: number }; properties?: { label?: string } }[];
}

const KNOWN_KEYS = {
  body: ['title', 'folderId', 'deadline', 'message', 'documents', 'signatories', 'observers', 'fields'],
  documents: ['id', 'fileName', 'contentType'],
  signatories: ['id', 'name', 'email', 'qualification', 'authMethod', 'phoneNumber', 'signingOrder'],
  fields: ['type', 'documentId', 'signatoryId', 'pageNumber', 'position', 'properties'],
} as const;

async function legacySchema() {
  const { z } = await import('zod');
  const { common, signingOrder, phoneRule } = participantSchemaParts(z);
  const id = z.string({ error: 'id is required (text)' }).trim().min(1, 'id must not be empty').max(128);
  const required = (what: string) => ({ error: `${what} is required` });
  return z.looseObject({
    title: z.string().trim().min(1).max(255).optional(),
    folderId: z.string().min(1).optional(),
    deadline: z.iso.datetime({ offset: true, message: 'deadline must be an ISO 8601 date-time (2025-07-01T12:00:00Z)' }).optional(),
    message: z.string().max(500, 'message is at most 500 characters on /v2').optional(),
    documents: z
      .array(z.looseObject({ id, fileName: z.string(required('fileName')).trim().min(1).max(255), contentType: z.string(required('contentType')).min(1) }), required('documents'))
      .min(1, 'documents needs at least one document'),
    signatories: z
      .array(
        z
          .looseObject({
            id,
            name: common.name,
            email: common.email,
            qualification: z.string(required('qualification')),
            authMethod: common.deliveryMethod,
            phoneNumber: common.phoneNumber,
            signingOrder,
          })
          .superRefine((signatory, ctx) => phoneRule({ deliveryMethod: signatory.authMethod, ...(signatory.phoneNumber ? { phoneNumber: signatory.phoneNumber } : {}) }, ctx)),
        required('signatories'),
      )
      .min(1, 'signatories needs at least one signatory'),
    observers: z.array(z.looseObject({ email: common.email, notifyOnSent: z.boolean().optional(), notifyOnCompletion: z.boolean().optional() })).optional(),
    fields: z
      .array(
        z.looseObject({
          type: z.enum(LEGACY_FIELD_TYPES, { error: `type must be one of ${LEGACY_FIELD_TYPES.join(', ')} (the legacy service refuses others: INVALID_FIELD_TYPE)` }),
          documentId: z.string(required('documentId')),
          signatoryId: z.string(required('signatoryId')),
          pageNumber: z.int('pageNumber must be a whole number').min(1, 'pageNumber starts at 1'),
          position: z.object(
            { x: z.number().min(0), y: z.number().min(0), width: z.number().positive(), height: z.number().positive() },
            required('position {x, y, width, height}'),
          ),
          properties: z.looseObject({ label: z.string().max(255).optional() }).optional(),
        }),
      )
      .optional(),
  });
}

/** A legacy id as a spec ref: itself when it fits, else `<kind>-<n>`. */
function refFor(id: string, kind: string, index: number): string {
  return id.length <= REF_MAX ? id : `${kind}-${index + 1}`;
}

function unknownKeys(value: Record<string, unknown>, known: readonly string[], path: InputPath, into: NotConverted[]): void {
  for (const [key, item] of Object.entries(value)) {
    if (!known.includes(key)) into.push({ path: formatPath([...path, key]), value: item, reason: 'not part of the legacy contract, so it has no v4 counterpart either' });
  }
}

/** Reads a legacy create body (already parsed) and answers the v4 spec, or a usage error at `file:line:column`. */
export async function convertLegacyCreate(input: StructuredInput): Promise<Conversion> {
  const body = validateInput(input, await legacySchema(), 'A legacy create body (POST /v2/envelopes/) has documents (id, fileName, contentType), signatories (id, name, email, qualification, authMethod) and optionally fields, observers, title, message, deadline, folderId.') as LegacyBody & Record<string, unknown>;
  const notConverted: NotConverted[] = [];
  const notes: string[] = [];
  unknownKeys(body, KNOWN_KEYS.body, [], notConverted);

  const documentRefs = new Map(body.documents.map((document, index) => [document.id, refFor(document.id, 'document', index)]));
  const participantRefs = new Map(body.signatories.map((signatory, index) => [signatory.id, refFor(signatory.id, 'signatory', index)]));
  for (const [index, document] of body.documents.entries()) {
    unknownKeys(document as unknown as Record<string, unknown>, KNOWN_KEYS.documents, ['documents', index], notConverted);
    const expected = LEGACY_CONTENT_TYPES[extname(document.fileName).toLowerCase() as keyof typeof LEGACY_CONTENT_TYPES];
    if (expected !== document.contentType) {
      notes.push(`documents[${index}]: v4 takes the content type from the file's extension; ${JSON.stringify(document.fileName)} does not match ${document.contentType} (name the file .pdf or .docx).`);
    }
  }
  for (const [index, signatory] of body.signatories.entries()) {
    unknownKeys(signatory as unknown as Record<string, unknown>, KNOWN_KEYS.signatories, ['signatories', index], notConverted);
    notConverted.push({
      path: `signatories[${index}].qualification`,
      value: signatory.qualification,
      reason: 'v4 participants have no qualification',
    });
  }
  for (const [index, field] of (body.fields ?? []).entries()) {
    unknownKeys(field as unknown as Record<string, unknown>, KNOWN_KEYS.fields, ['fields', index], notConverted);
    // The legacy contract's INVALID_FIELD_LINKING: a field names a document or signatory of the same request.
    if (!documentRefs.has(field.documentId)) {
      throw inputError(input, ['fields', index, 'documentId'], `no document has id ${JSON.stringify(field.documentId)}`, `Document ids: ${[...documentRefs.keys()].join(', ')}.`);
    }
    if (!participantRefs.has(field.signatoryId)) {
      throw inputError(input, ['fields', index, 'signatoryId'], `no signatory has id ${JSON.stringify(field.signatoryId)}`, `Signatory ids: ${[...participantRefs.keys()].join(', ')}.`);
    }
  }
  for (const [index, observer] of (body.observers ?? []).entries()) {
    notConverted.push({
      path: `observers[${index}]`,
      value: observer,
      reason: 'v4 envelopes have no observers; a webhook subscribed to ENVELOPE_COMPLETED can tell them of completion instead',
    });
  }

  const title = body.title ?? body.documents[0]!.fileName;
  if (body.title === undefined) notes.push(`title: the legacy service names an untitled envelope after its first document; the spec says so: ${JSON.stringify(title)}.`);
  if (body.deadline === undefined) notes.push(`deadline: ${LEGACY_DEFAULT_DEADLINE}, the legacy default (7 days after creation); without it a v4 envelope has no deadline.`);
  const signed = new Set((body.fields ?? []).filter((field) => field.type === 'SIGNATURE').map((field) => field.signatoryId));
  for (const signatory of body.signatories) {
    if (!signed.has(signatory.id)) notes.push(`participant ${participantRefs.get(signatory.id)} has no SIGNATURE field: batch mode refuses that; add one to the spec.`);
  }
  const files = new Set<string>();
  const spec: Record<string, unknown> = {
    title,
    ...(body.message !== undefined ? { message: body.message } : {}),
    deadline: body.deadline ?? LEGACY_DEFAULT_DEADLINE,
    ...(body.folderId !== undefined ? { folderId: body.folderId } : {}),
    participants: body.signatories.map((signatory) => ({
      ref: participantRefs.get(signatory.id),
      name: signatory.name,
      email: signatory.email,
      deliveryMethod: signatory.authMethod,
      ...(signatory.phoneNumber ? { phoneNumber: signatory.phoneNumber } : {}),
      role: 'SIGNER',
      ...(signatory.signingOrder !== undefined ? { signingOrder: signatory.signingOrder } : {}),
    })),
    documents: body.documents.map((document) => {
      const file = basename(document.fileName);
      files.add(file);
      return { ref: documentRefs.get(document.id), file, ...(file === document.fileName ? {} : { fileName: document.fileName }) };
    }),
    fields: (body.fields ?? []).map((field) => ({
      type: field.type,
      documentRef: documentRefs.get(field.documentId),
      participantRef: participantRefs.get(field.signatoryId),
      pageNumber: field.pageNumber,
      position: { x: field.position.x, y: field.position.y },
      size: { width: field.position.width, height: field.position.height },
      ...(field.properties ? { properties: field.properties } : {}),
    })),
  };
  notes.push(`documents: a legacy body names its files but does not hold them; put ${[...files].map((file) => JSON.stringify(file)).join(', ')} beside the spec (or change each file: to its path, relative to the spec).`);
  return { spec, notConverted, notes };
}

/** The spec as YAML, headed by comments that say where it came from and what did not come across. */
export async function conversionYaml(conversion: Conversion, source: string): Promise<string> {
  const { Document } = await import('yaml');
  const document = new Document(conversion.spec);
  document.commentBefore = [
    ` Converted by \`esign batch convert-v2\` from the legacy POST /v2/envelopes/ body ${source}.`,
    ' Check it with: esign batch validate <this file>',
    ...(conversion.notConverted.length ? ['', ' Not converted (no v4 counterpart):', ...conversion.notConverted.map((item) => `   ${item.path} = ${JSON.stringify(item.value)}: ${item.reason}`)] : []),
    ...(conversion.notes.length ? ['', ' Notes:', ...conversion.notes.map((note) => `   ${note}`)] : []),
  ].join('\n');
  return document.toString({ lineWidth: 0 });
}
