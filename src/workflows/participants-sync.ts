import type { FieldAnswer } from '../api/answers.js';
import type { ApiClient } from '../api/client.js';
import type { ParticipantInput } from '../input/participants.js';
import { participantIdOf, type ParticipantBody } from '../output/envelope-view.js';
import { listAllDocuments } from './upload.js';

const sameAddress = (a: string | null | undefined, b: string | null | undefined): boolean =>
  typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

export interface ParticipantsSync {
  /** The body's participants, each one that is already on the envelope carrying its id. */
  participants: ParticipantInput[];
  /** Participants on the envelope that the sync leaves out: the service removes them, and their fields with them. */
  removed: ParticipantBody[];
}

/**
 * The sync replaces the whole list and treats an entry without `id` as a new participant (pins.md: `id?` keeps an
 * existing one), and the service removes a participant's fields with the participant. So an entry naming someone
 * already on the envelope (same e-mail, any case; the same role first when the address appears twice) is sent with
 * that participant's id: running the same file again keeps every participant, and every field, as it was.
 */
export function keepExistingIds(wanted: readonly ParticipantInput[], existing: readonly ParticipantBody[]): ParticipantsSync {
  const claimed = new Set(wanted.flatMap((participant) => (participant.id ? [participant.id] : [])));
  const unclaimed = (participant: ParticipantBody) => !claimed.has(participantIdOf(participant));
  const participants = wanted.map((participant) => {
    if (participant.id) return participant;
    const candidates = existing.filter((known) => unclaimed(known) && sameAddress(known.email, participant.email));
    const match = candidates.find((known) => known.role === participant.role) ?? candidates[0];
    if (!match) return participant;
    claimed.add(participantIdOf(match));
    return { id: participantIdOf(match), ...participant };
  });
  return { participants, removed: existing.filter(unclaimed) };
}

export interface FieldsOfRemoved {
  documentId: string;
  fileName: string;
  fields: FieldAnswer[];
}

/** The fields, document by document, that belong to participants about to be removed. */
export async function fieldsOfParticipants(client: ApiClient, envelopeId: string, participantIds: ReadonlySet<string>): Promise<FieldsOfRemoved[]> {
  const found: FieldsOfRemoved[] = [];
  for (const document of await listAllDocuments(client, envelopeId)) {
    const { body } = await client.call<{ fields: FieldAnswer[] }>('listFields', { params: { envelopeId, documentId: document.documentId } });
    const fields = body.fields.filter((field) => typeof field.participantId === 'string' && participantIds.has(field.participantId));
    if (fields.length) found.push({ documentId: document.documentId, fileName: document.fileName || document.documentId, fields });
  }
  return found;
}
