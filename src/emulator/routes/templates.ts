import type { RouteContext, RouteTable } from '../context.js';
import { readDocumentBytes, replaceDocumentBytes } from '../document-bytes.js';
import { fail } from '../errors.js';
import { addDocumentId, assertMessagesLeft, assertSendable, checkDeliveryAddress, createEnvelopeRecord, deliveryShape, markSent, newParticipant, settingsShape } from '../lifecycle.js';
import { paginate } from '../pagination.js';
import { newId, nowIso } from '../store.js';
import type { DocumentRecord, EnvelopeRecord, TemplateRecord } from '../records.js';
import { lazySchema, parseBody, type RequestBodies } from '../validate.js';
import { envelopeView, templateView } from '../views.js';

const createSchema = lazySchema((z) => {
  const settings = settingsShape(z);
  return z.strictObject({
    title: settings.title.optional(),
    message: settings.message.optional(),
    deadline: settings.deadline.optional(),
    folderId: settings.folderId.optional(),
    participants: z.array(z.strictObject({ templateParticipantId: z.string().min(1), ...deliveryShape(z) })),
    send: z.boolean().optional(),
  });
});

function findTemplate(ctx: RouteContext): TemplateRecord {
  const id = ctx.params.templateId!;
  const template = ctx.store.state.templates[id];
  if (!template) throw fail.notFound('Template', id);
  return template;
}

function issue(path: string, message: string) {
  return fail.validation(`${path}: ${message}.`, { issues: [{ path, message }] });
}

/** Each template participant is given exactly once, and nobody else. */
function checkCast(template: TemplateRecord, given: readonly { templateParticipantId: string }[]): void {
  const roles = new Set(template.participants.map((participant) => participant.templateParticipantId));
  const seen = new Set<string>();
  given.forEach(({ templateParticipantId }, index) => {
    const path = `participants[${index}].templateParticipantId`;
    if (!roles.has(templateParticipantId)) throw issue(path, `${templateParticipantId} is not a participant of template ${template.id}`);
    if (seen.has(templateParticipantId)) throw issue(path, `${templateParticipantId} is given twice`);
    seen.add(templateParticipantId);
  });
  const missing = template.participants.filter((participant) => !seen.has(participant.templateParticipantId));
  if (missing.length) {
    throw fail.validation(`participants: missing ${missing.map((participant) => `${participant.label} (${participant.templateParticipantId})`).join(', ')}.`, {
      issues: missing.map((participant) => ({ path: 'participants', message: `missing templateParticipantId ${participant.templateParticipantId} (${participant.label})` })),
    });
  }
}

/** The template's documents become the envelope's, READY, with the template's fields given to the new participants. */
async function copyDocuments(ctx: RouteContext, template: TemplateRecord, envelope: EnvelopeRecord): Promise<void> {
  const participantFor = new Map(envelope.participants.map((participant) => [participant.templateParticipantId, participant.id]));
  const now = nowIso();
  for (const sourceId of template.documentIds) {
    const source = ctx.store.state.documents.get(sourceId);
    const bytes = await readDocumentBytes(ctx.store, sourceId);
    if (!source || !bytes) throw new Error(`template ${template.id} lost its document ${sourceId}`);
    const copy: DocumentRecord = {
      documentId: newId(),
      envelopeId: envelope.id,
      fileName: source.fileName,
      contentType: source.contentType,
      status: 'READY',
      uploadExpiresAt: now,
      ...(source.byteLength !== undefined ? { byteLength: source.byteLength } : {}),
      ...(source.pageCount !== undefined ? { pageCount: source.pageCount } : {}),
      ...(source.pages ? { pages: source.pages.map((page) => ({ ...page })) } : {}),
      ...(source.sha256 ? { sha256: source.sha256 } : {}),
      fields: template.fields
        .filter((field) => field.documentId === sourceId)
        .map((field) => ({
          id: newId(),
          participantId: participantFor.get(field.templateParticipantId)!,
          type: field.type,
          pages: [...field.pages],
          position: { ...field.position },
          size: { ...field.size },
          ...(field.properties ? { properties: { ...field.properties } } : {}),
        })),
      createdAt: now,
    };
    ctx.store.state.documents.set(copy.documentId, copy);
    await replaceDocumentBytes(ctx.store, copy.documentId, Buffer.from(bytes));
    addDocumentId(envelope, copy.documentId);
  }
}

export const routes: RouteTable = {
  listTemplates: (ctx) => {
    const page = paginate(Object.values(ctx.store.state.templates), ctx.query);
    return { status: 200, body: { data: page.data.map((template) => templateView(ctx.store.state, template, false)), nextCursor: page.nextCursor } };
  },

  getTemplate: (ctx) => ({ status: 200, body: templateView(ctx.store.state, findTemplate(ctx), true) }),

  /**
   * Contract: body title, deadline, folderId, participants, send; the answer is the envelope read shape. With `send`
   * true the message limit is checked before anything is created.
   */
  createEnvelopeFromTemplate: async (ctx) => {
    const body = parseBody(await createSchema(), ctx.body);
    const template = findTemplate(ctx);
    checkCast(template, body.participants);
    body.participants.forEach((participant, index) => checkDeliveryAddress(participant, `participants[${index}]`));
    if (body.send) {
      const lowest = Math.min(...template.participants.map((participant) => participant.signingOrder));
      assertMessagesLeft(ctx, template.participants.filter((participant) => participant.signingOrder === lowest).length);
    }
    const actor = ctx.events.apiActor(ctx.principal);
    const envelope = createEnvelopeRecord(ctx, { ...body, title: body.title ?? template.name }, actor, { templateId: template.id });
    envelope.templateId = template.id;
    ctx.store.state.envelopes.setParticipants(
      envelope,
      body.participants.map((input) => {
        const role = template.participants.find((participant) => participant.templateParticipantId === input.templateParticipantId)!;
        return newParticipant({ ...input, role: role.role, signingOrder: role.signingOrder });
      }),
    );
    await copyDocuments(ctx, template, envelope);
    if (body.send) {
      assertSendable(ctx, envelope);
      markSent(ctx, envelope, actor);
    }
    return { status: 201, body: envelopeView(ctx.store.state, envelope) };
  },
};

export const requestBodies: RequestBodies = {
  createEnvelopeFromTemplate: { schema: createSchema },
};
