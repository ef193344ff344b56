import { envelopeStatuses } from '../../shared/values.js';
import type { RouteTable } from '../context.js';
import { fail } from '../errors.js';
import { historyOf, messagesOf } from '../events.js';
import { expireDueEnvelopes, findEnvelope } from '../lifecycle.js';
import { cursorPosition, pageLimit, positionCursor } from '../pagination.js';
import type { EnvelopeRecord } from '../records.js';
import { envelopeDocuments } from '../views.js';

/** When the envelope was voided: its ENVELOPE_VOIDED history entry (its last change if history lacks one). */
function voidedAt(envelope: EnvelopeRecord): string {
  return envelope.history.findLast((entry) => entry.action === 'ENVELOPE_VOIDED')?.at ?? envelope.updatedAt;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

function readInstant(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) throw fail.validation(`\`${name}\` must be an ISO 8601 date-time.`, { parameter: name });
  return instant;
}

export const routes: RouteTable = {
  listVoidedEnvelopes: (ctx) => {
    const limit = pageLimit(ctx.query);
    const after = cursorPosition(ctx.query);
    const { envelopes } = ctx.store.state;
    const page = envelopes.voidedPage(after, limit);
    const data = page.items.map((envelope) => ({ id: envelope.id, title: envelope.title, cancellationReason: envelope.cancellationReason ?? null, voidedAt: voidedAt(envelope) }));
    const last = page.items.at(-1);
    return { status: 200, body: { data, nextCursor: page.more && last ? positionCursor(envelopes.voidedPositionOf(last)) : null } };
  },

  getEnvelopeReport: (ctx) => {
    const { state } = ctx.store;
    const envelope = findEnvelope(ctx, ctx.params.envelopeId!);
    const folder = state.folders[envelope.folderId];
    const documents = envelopeDocuments(state, envelope);
    const history = historyOf(envelope);
    const participants = envelope.participants;
    const done = participants.filter((participant) => participant.status === 'SIGNED' || participant.status === 'APPROVED').length;
    return {
      status: 200,
      body: {
        envelopeId: envelope.id,
        title: envelope.title,
        status: envelope.status,
        folder: folder ? { id: folder.id, name: folder.name } : null,
        sender: envelope.sender,
        cancellationReason: envelope.cancellationReason ?? null,
        timestamps: {
          createdAt: envelope.createdAt,
          sentAt: envelope.sentAt ?? null,
          completedAt: envelope.completedAt ?? null,
          voidedAt: envelope.status === 'VOIDED' ? voidedAt(envelope) : null,
          deadline: envelope.deadline,
          updatedAt: envelope.updatedAt,
        },
        participants: {
          total: participants.length,
          completed: done,
          byStatus: countBy(participants, (participant) => participant.status),
          items: participants.map((participant) => ({
            id: participant.id,
            name: participant.name,
            email: participant.email,
            role: participant.role,
            signingOrder: participant.signingOrder,
            status: participant.status,
            completedAt: participant.completedAt ?? null,
          })),
        },
        documents: documents.map((document) => ({
          documentId: document.documentId,
          fileName: document.fileName,
          status: document.status,
          pageCount: document.pageCount ?? null,
          fieldCount: document.fields.length,
        })),
        history: { total: history.length, byAction: countBy(history, (entry) => entry.action) },
        messages: countBy(
          messagesOf(state, envelope.id),
          (message) => message.kind,
        ),
      },
    };
  },

  /**
   * Every emulator envelope is sent by the integration's responsible user, so each sent envelope counts once under
   * every group that user belongs to; other groups show 0. `from` and `to` bound the sending time.
   */
  getUsageByGroup: (ctx) => {
    const { state } = ctx.store;
    const from = readInstant(ctx.query.from, 'from');
    const to = readInstant(ctx.query.to, 'to');
    expireDueEnvelopes(ctx);
    // A report over every sent envelope reads them all, but only those: drafts, however many, are never sent and are
    // skipped by their status list.
    const sent: EnvelopeRecord[] = [];
    for (const status of envelopeStatuses) {
      if (status === 'DRAFT') continue;
      for (const envelope of state.envelopes.matching({ status })) {
        if (!envelope.sentAt) continue;
        const at = Date.parse(envelope.sentAt);
        if ((from === undefined || at >= from) && (to === undefined || at < to)) sent.push(envelope);
      }
    }
    const sender = state.responsibleUser.id;
    const data = Object.values(state.groups).map((group) => {
      const counted = group.memberIds.includes(sender) ? sent : [];
      return {
        groupId: group.id,
        name: group.name,
        memberCount: group.memberIds.length,
        envelopesSent: counted.length,
        byStatus: countBy(counted, (envelope) => envelope.status),
      };
    });
    return {
      status: 200,
      body: { from: from === undefined ? null : new Date(from).toISOString(), to: to === undefined ? null : new Date(to).toISOString(), data },
    };
  },
};
