/**
 * The two templates a seeded account starts with, each with a real PDF drawn here (so every field position is known
 * from the drawing) and participant roles. Ids are name-based UUIDs: the same on every start and reset, so docs and
 * scripts can name them.
 */
import { hash } from 'node:crypto';
import { uuidV5 } from '../shared/uuid.js';
import type { Store } from './store.js';
import type { PageInfo, StoredField, TemplateRecord } from './records.js';
import { nowIso } from './store.js';

const NAMESPACE = '6f1d3c52-8a47-5b3e-9c21-4e0a7d2b9f10';

const LEFT = 72;
const FIRST_BASELINE = 100;
const LINE_SPACING = 20;
const FONT_SIZE = 12;

function baseline(line: number): number {
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

interface TemplateSpec {
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

/** Letter pages, unrotated: the page info is known from the drawing, so no PDF reader is loaded at start-up. */
const PAGE_SIZE = { width: 612, height: 792 };

interface RenderedTemplate {
  spec: TemplateSpec;
  bytes: Buffer;
  pages: PageInfo[];
}

async function render(spec: TemplateSpec): Promise<RenderedTemplate> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(spec.name);
  // A fixed date keeps the bytes (and their hash) the same on every start.
  const fixed = new Date('2026-01-01T00:00:00.000Z');
  doc.setCreationDate(fixed);
  doc.setModificationDate(fixed);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of spec.pages) {
    const page = doc.addPage([PAGE_SIZE.width, PAGE_SIZE.height]);
    lines.forEach((line, index) => page.drawText(line, { x: LEFT, y: PAGE_SIZE.height - baseline(index), size: FONT_SIZE, font }));
  }
  const bytes = Buffer.from(await doc.save({ useObjectStreams: false }));
  return { spec, bytes, pages: spec.pages.map((_, index) => ({ page: index + 1, ...PAGE_SIZE, rotate: 0 })) };
}

/** Drawn once per process: a reset re-seeds from the same bytes. */
let rendered: Promise<RenderedTemplate[]> | undefined;

/** Adds the seeded templates and their documents (status READY, bytes in `store.blobs`). */
export async function seedTemplates(store: Store): Promise<void> {
  const createdAt = nowIso();
  rendered ??= Promise.all(TEMPLATE_SPECS.map(render));
  for (const { spec, bytes, pages } of await rendered) {
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
