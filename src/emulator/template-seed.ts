/**
 * The two templates a seeded account starts with, each with a real PDF (drawn from these specs by
 * template-drawing.ts, so every field position is known from the drawing) and participant roles. Ids are name-based
 * UUIDs: the same on every start and reset, so docs and scripts can name them.
 */
import { hash } from 'node:crypto';
import { uuidV5 } from '../shared/uuid.js';
import type { Store } from './store.js';
import type { PageInfo, StoredField, TemplateRecord } from './records.js';
import { nowIso } from './store.js';
import { TEMPLATE_PDFS } from './template-pdfs.js';

const NAMESPACE = '6f1d3c52-8a47-5b3e-9c21-4e0a7d2b9f10';

export const LEFT = 72;
const FIRST_BASELINE = 100;
const LINE_SPACING = 20;
export const FONT_SIZE = 12;
/** Letter pages, unrotated: the page info is known from the drawing, so no PDF reader is loaded at start-up. */
export const PAGE_SIZE = { width: 612, height: 792 };

export function baseline(line: number): number {
  return FIRST_BASELINE + line * LINE_SPACING;
}

interface TemplateField {
  type: StoredField['type'];
  participant: string;
  page: number;
  /** The line the field sits on; the box starts at the top of that line's text. */
  line: number;
  x: number;
  size: { width: number; height: number };
  properties?: Record<string, unknown>;
}

export interface TemplateSpec {
  name: string;
  description: string;
  fileName: string;
  pages: string[][];
  participants: { key: string; role: 'SIGNER' | 'APPROVER'; label: string; signingOrder: number }[];
  fields: TemplateField[];
}

export const TEMPLATE_SPECS: readonly TemplateSpec[] = [
  {
    name: 'Mutual NDA',
    description: 'One-page non-disclosure agreement signed by the recipient.',
    fileName: 'mutual-nda.pdf',
    pages: [
      [
        'MUTUAL NON-DISCLOSURE AGREEMENT',
        '',
        'The parties agree to keep confidential all information exchanged',
        'under this agreement for a period of five (5) years.',
        '',
        'Recipient',
        'Signature: {{signature}}',
        '',
        '',
        'Date: {{date}}',
      ],
    ],
    participants: [{ key: 'recipient', role: 'SIGNER', label: 'Recipient', signingOrder: 1 }],
    fields: [
      { type: 'SIGNATURE', participant: 'recipient', page: 1, line: 6, x: 140, size: { width: 200, height: 40 } },
      { type: 'TEXT', participant: 'recipient', page: 1, line: 9, x: 110, size: { width: 120, height: 16 }, properties: { label: 'Date' } },
    ],
  },
  {
    name: 'Service agreement',
    description: 'Two-page contract signed by the client, then by the provider.',
    fileName: 'service-agreement.pdf',
    pages: [
      [
        'SERVICE AGREEMENT',
        '',
        '1. The provider delivers the services described in the order form.',
        '2. The client pays each invoice within thirty (30) days.',
        '3. Either party may end this agreement with one month of notice.',
      ],
      [
        'SIGNATURES',
        '',
        'Client',
        'Signature: {{client_signature}}',
        '',
        '',
        'Provider',
        'Signature: {{provider_signature}}',
      ],
    ],
    participants: [
      { key: 'client', role: 'SIGNER', label: 'Client', signingOrder: 1 },
      { key: 'provider', role: 'SIGNER', label: 'Provider', signingOrder: 2 },
    ],
    fields: [
      { type: 'SIGNATURE', participant: 'client', page: 2, line: 3, x: 140, size: { width: 200, height: 40 } },
      { type: 'SIGNATURE', participant: 'provider', page: 2, line: 7, x: 140, size: { width: 200, height: 40 } },
    ],
  },
];

interface TemplateDocument {
  spec: TemplateSpec;
  bytes: Buffer;
  pages: PageInfo[];
}

/** Decoded once per process: a reset re-seeds from the same bytes. */
let documents: TemplateDocument[] | undefined;

/**
 * The templates' PDFs, drawn by the build's generator rather than at each start: drawing them needed pdf-lib, a fifth
 * of an emulator's start-up (which the test suite and users' CI jobs pay on every start).
 */
function templateDocuments(): TemplateDocument[] {
  documents ??= TEMPLATE_SPECS.map((spec) => ({
    spec,
    bytes: Buffer.from(TEMPLATE_PDFS[spec.fileName]!, 'base64'),
    pages: spec.pages.map((_, index) => ({ page: index + 1, ...PAGE_SIZE, rotate: 0 })),
  }));
  return documents;
}

/** Adds the seeded templates and their documents (status READY, bytes in `store.blobs`). */
export async function seedTemplates(store: Store): Promise<void> {
  const createdAt = nowIso();
  for (const { spec, bytes, pages } of templateDocuments()) {
    const templateId = uuidV5(`template:${spec.name}`, NAMESPACE);
    const documentId = uuidV5(`document:${spec.fileName}`, templateId);
    const participantId = (key: string) => uuidV5(`participant:${key}`, templateId);
    const template: TemplateRecord = {
      id: templateId,
      name: spec.name,
      description: spec.description,
      documentIds: [documentId],
      participants: spec.participants.map(({ key, role, label, signingOrder }) => ({ templateParticipantId: participantId(key), role, label, signingOrder })),
      fields: spec.fields.map((field, index) => ({
        id: uuidV5(`field:${index}`, templateId),
        documentId,
        templateParticipantId: participantId(field.participant),
        participantId: participantId(field.participant),
        type: field.type,
        pages: [field.page],
        position: { x: field.x, y: baseline(field.line) - FONT_SIZE },
        size: field.size,
        ...(field.properties ? { properties: field.properties } : {}),
      })),
      createdAt,
    };
    store.state.templates[templateId] = template;
    store.state.documents.set(documentId, {
      documentId,
      templateId,
      fileName: spec.fileName,
      contentType: 'application/pdf',
      status: 'READY',
      uploadExpiresAt: createdAt,
      byteLength: bytes.length,
      pageCount: pages.length,
      pages,
      fields: [],
      sha256: hash('sha256', bytes),
      createdAt,
    });
    store.blobs.set(documentId, bytes);
  }
  store.changed();
}
