import type { RouteTable } from '../context.js';
import { fail } from '../errors.js';
import {
  assertInTurn,
  assertMessagesLeft,
  assertRole,
  assertStatus,
  checkDeliveryAddress,
  deliveryShape,
  findEnvelope,
  findParticipant,
  finishParticipant,
  newParticipant,
  participantRoleShape,
  REASON_MAX,
  refuseForParticipant,
} from '../lifecycle.js';
import type { ParticipantRecord } from '../records.js';
import { lazySchema, parseBody, type RequestBodies } from '../validate.js';
import { envelopeView, isTurn, participantView } from '../views.js';
import { paginate } from '../pagination.js';

/** More would not be a signing flow but a mailing. */
const MAX_PARTICIPANTS = 100;

const syncSchema = lazySchema((z) =>
  z.strictObject({
    participants: z
      .array(
        z.strictObject({
          id: z.string().min(1).optional(),
          ...deliveryShape(z),
          role: participantRoleShape(z).role,
          signingOrder: participantRoleShape(z).signingOrder.optional(),
        }),
      )
      .max(MAX_PARTICIPANTS),
  }),
);

const correctionSchema = lazySchema((z) => {
  const delivery = deliveryShape(z);
  return z
    .strictObject({ name: delivery.name.optional(), email: delivery.email.optional(), phoneNumber: delivery.phoneNumber, deliveryMethod: delivery.deliveryMethod.optional() })
    .refine((body) => Object.keys(body).length > 0, 'give at least one of name, email, phoneNumber, deliveryMethod');
});

const refuseSchema = lazySchema((z) => z.strictObject({ reason: z.string().trim().min(1).max(REASON_MAX) }));
const emptySchema = lazySchema((z) => z.strictObject({}));

function assertNotDone(participant: ParticipantRecord): void {
  if (participant.status === 'SIGNED' || participant.status === 'APPROVED') {
    throw fail.conflict('PARTICIPANT_ALREADY_SIGNED', `Participant ${participant.id} already ${participant.status === 'SIGNED' ? 'signed' : 'approved'} and cannot be changed.`, {
      participantId: participant.id,
      status: participant.status,
    });
  }
}

export const routes: RouteTable = {
  /**
   * Replaces the whole list: an entry with `id` updates that participant, one without is added, a participant left
   * out is removed (with its fields). Only while DRAFT.
   */
  syncParticipants: async (ctx) => {
    const { participants } = parseBody(await syncSchema(), ctx.body);
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    assertStatus(envelope, ['DRAFT'], 'ENVELOPE_NOT_DRAFT', 'replace the participants (a sent envelope\'s participants are corrected one at a time)');
    if (envelope.sendWhenReady) throw fail.conflict('ENVELOPE_SEND_PENDING', 'This send-now envelope is sent by the service once its documents are processed; its participants are fixed.');
    const seen = new Set<string>();
    participants.forEach((input, index) => {
      checkDeliveryAddress(input, `participants[${index}]`);
      if (input.id === undefined) return;
      if (seen.has(input.id)) throw fail.validation(`participants[${index}].id ${input.id} appears twice.`, { issues: [{ path: `participants[${index}].id`, message: 'appears twice' }] });
      seen.add(input.id);
      findParticipant(envelope, input.id);
    });
    const next = participants.map((input) => {
      const existing = input.id === undefined ? undefined : envelope.participants.find((participant) => participant.id === input.id);
      const record = newParticipant(input);
      return existing ? { ...record, id: existing.id, linkVersion: existing.linkVersion } : record;
    });
    const kept = new Set(next.map((participant) => participant.id));
    const removed = envelope.participants.filter((participant) => !kept.has(participant.id)).map((participant) => participant.id);
    for (const documentId of envelope.documentIds) {
      const document = ctx.store.state.documents.get(documentId);
      if (document) document.fields = document.fields.filter((field) => kept.has(field.participantId));
    }
    ctx.store.state.envelopes.setParticipants(envelope, next);
    ctx.events.history(envelope, 'PARTICIPANTS_SYNCED', ctx.events.apiActor(ctx.principal), {
      participantIds: next.map((participant) => participant.id),
      removedParticipantIds: removed,
    });
    return { status: 200, body: { participants: next.map((participant) => participantView(envelope, participant)) } };
  },

  listParticipants: (ctx) => {
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    const page = paginate(envelope.participants, ctx.query);
    return { status: 200, body: { data: page.data.map((participant) => participantView(envelope, participant)), nextCursor: page.nextCursor } };
  },

  /**
   * Contract: a participant who has not finished can be corrected, also after sending. Changing the address of the
   * participant in turn invalidates the old link (linkVersion + 1) and resends the invitation, which counts toward the
   * message limit: with none left, 403 MESSAGE_LIMIT_REACHED and nothing changes. A correction that changes nothing
   * is answered 204 as well, and does nothing.
   */
  correctParticipant: async (ctx) => {
    const body = parseBody(await correctionSchema(), ctx.body);
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    const participant = findParticipant(envelope, ctx.params.participantId!);
    assertNotDone(participant);
    assertStatus(envelope, ['DRAFT', 'SENT'], 'ENVELOPE_NOT_EDITABLE', 'correct a participant');
    const corrected = {
      name: body.name ?? participant.name,
      email: body.email ?? participant.email,
      phoneNumber: body.phoneNumber === undefined ? participant.phoneNumber : (body.phoneNumber ?? undefined),
      deliveryMethod: body.deliveryMethod ?? participant.deliveryMethod,
    };
    checkDeliveryAddress(corrected, 'body');
    const changed = (Object.keys(corrected) as (keyof typeof corrected)[]).filter((key) => corrected[key] !== participant[key]);
    // Nothing to correct: no history entry, and above all no new link or invitation.
    if (changed.length === 0) return { status: 204 };
    // E-mails are compared case-insensitively, as everywhere in the emulator: a new spelling is kept, but it is
    // the same mailbox, whose link stays valid.
    const sameMailbox = corrected.email.toLowerCase() === participant.email.toLowerCase();
    const addressChanged = changed.some((key) => key !== 'name' && !(key === 'email' && sameMailbox));
    const reinvite = addressChanged && isTurn(envelope, participant) && participant.status === 'NOTIFIED';
    if (reinvite) assertMessagesLeft(ctx, 1);
    participant.name = corrected.name;
    ctx.store.state.envelopes.setParticipantEmail(envelope, participant, corrected.email);
    if (corrected.phoneNumber) participant.phoneNumber = corrected.phoneNumber;
    else delete participant.phoneNumber;
    participant.deliveryMethod = corrected.deliveryMethod;
    if (reinvite) participant.linkVersion++;
    ctx.events.history(envelope, 'PARTICIPANT_CORRECTED', ctx.events.apiActor(ctx.principal), {
      participantId: participant.id,
      changed,
      linkInvalidated: reinvite,
    });
    if (reinvite) ctx.events.notify(envelope, participant, 'INVITATION');
    return { status: 204 };
  },

  approveParticipant: async (ctx) => {
    parseBody(await emptySchema(), ctx.body);
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    const participant = findParticipant(envelope, ctx.params.participantId!);
    finishParticipant(ctx, envelope, participant, 'APPROVED', ctx.events.apiActor(ctx.principal));
    return { status: 200, body: envelopeView(ctx.store.state, envelope) };
  },

  refuseParticipant: async (ctx) => {
    const { reason } = parseBody(await refuseSchema(), ctx.body);
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    const participant = findParticipant(envelope, ctx.params.participantId!);
    assertInTurn(envelope, participant);
    assertRole(participant, 'APPROVER', 'refuse through the API');
    refuseForParticipant(ctx, envelope, participant, reason, ctx.events.apiActor(ctx.principal));
    return { status: 200, body: envelopeView(ctx.store.state, envelope) };
  },

  /** A reminder goes to a participant whose turn it is; it counts toward the message limit. */
  remindParticipant: async (ctx) => {
    parseBody(await emptySchema(), ctx.body);
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    const participant = findParticipant(envelope, ctx.params.participantId!);
    assertInTurn(envelope, participant);
    assertMessagesLeft(ctx, 1);
    const message = ctx.events.notify(envelope, participant, 'REMINDER');
    ctx.events.history(envelope, 'REMINDER_SENT', ctx.events.apiActor(ctx.principal), { participantId: participant.id, channel: message.channel });
    return { status: 200, body: { participantId: participant.id, channel: message.channel, sentAt: message.at } };
  },
};

export const requestBodies: RequestBodies = {
  syncParticipants: { schema: syncSchema },
  correctParticipant: { schema: correctionSchema },
  approveParticipant: { schema: emptySchema },
  refuseParticipant: { schema: refuseSchema },
  remindParticipant: { schema: emptySchema },
};
