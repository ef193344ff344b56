import type { State } from './store.js';
import type { DocumentRecord, EnvelopeRecord, ParticipantRecord, TemplateRecord } from './records.js';

/** Participants still to act: the ones that block completion. */
export function isWaiting(participant: ParticipantRecord): boolean {
  return participant.status === 'PENDING' || participant.status === 'NOTIFIED';
}

/** The signing order now being served: the lowest order among participants still to act. */
export function currentSigningOrder(envelope: EnvelopeRecord): number | undefined {
  const orders = envelope.participants.filter(isWaiting).map((participant) => participant.signingOrder);
  return orders.length ? Math.min(...orders) : undefined;
}

export function isTurn(envelope: EnvelopeRecord, participant: ParticipantRecord): boolean {
  return envelope.status === 'SENT' && isWaiting(participant) && participant.signingOrder === currentSigningOrder(envelope);
}

export function participantView(envelope: EnvelopeRecord, participant: ParticipantRecord): Record<string, unknown> {
  return {
    id: participant.id,
    name: participant.name,
    email: participant.email,
    phoneNumber: participant.phoneNumber ?? null,
    deliveryMethod: participant.deliveryMethod,
    role: participant.role,
    signingOrder: participant.signingOrder,
    status: participant.status,
    isTurn: isTurn(envelope, participant),
    ...(participant.templateParticipantId ? { templateParticipantId: participant.templateParticipantId } : {}),
    ...(participant.refusalReason ? { refusalReason: participant.refusalReason } : {}),
    completedAt: participant.completedAt ?? null,
  };
}

export function envelopeDocuments(state: State, envelope: EnvelopeRecord): DocumentRecord[] {
  return envelope.documentIds.flatMap((id) => state.documents.get(id) ?? []);
}

/**
 * The contract's envelope shape, plus `participants` and `documents` so one read shows the whole envelope. Used by
 * every envelope answer and by webhook payloads (`data: {envelope}`).
 */
export function envelopeView(state: State, envelope: EnvelopeRecord): Record<string, unknown> {
  const folder = state.folders[envelope.folderId];
  return {
    id: envelope.id,
    title: envelope.title,
    message: envelope.message,
    status: envelope.status,
    deadline: envelope.deadline,
    createdAt: envelope.createdAt,
    updatedAt: envelope.updatedAt,
    sentAt: envelope.sentAt ?? null,
    completedAt: envelope.completedAt ?? null,
    folder: { id: envelope.folderId, name: folder?.name ?? '' },
    sender: { id: envelope.sender.id, name: envelope.sender.name },
    ...(envelope.cancellationReason !== undefined ? { cancellationReason: envelope.cancellationReason } : {}),
    ...(envelope.templateId ? { templateId: envelope.templateId } : {}),
    ...(envelope.sendWhenReady ? { sendWhenReady: true } : {}),
    participants: envelope.participants.map((participant) => participantView(envelope, participant)),
    documents: envelopeDocuments(state, envelope).map((document) => ({
      documentId: document.documentId,
      fileName: document.fileName,
      status: document.status,
      pageCount: document.pageCount ?? null,
    })),
  };
}

export function templateView(state: State, template: TemplateRecord, withFields: boolean): Record<string, unknown> {
  return {
    id: template.id,
    name: template.name,
    description: template.description ?? '',
    createdAt: template.createdAt,
    participants: template.participants.map((participant) => ({ ...participant })),
    documents: template.documentIds.flatMap((id) => {
      const document = state.documents.get(id);
      return document ? [{ documentId: id, fileName: document.fileName, pageCount: document.pageCount ?? null, pages: document.pages ?? [] }] : [];
    }),
    ...(withFields
      ? {
          fields: template.fields.map((field) => ({
            id: field.id,
            documentId: field.documentId,
            templateParticipantId: field.templateParticipantId,
            type: field.type,
            pages: field.pages,
            position: field.position,
            size: field.size,
            ...(field.properties ? { properties: field.properties } : {}),
          })),
        }
      : {}),
  };
}
