import type { ApiClient } from '../api/client.js';
import { UsageError } from '../core/errors.js';
import type { ListSource } from '../api/client.js';
import { allItems } from './all-items.js';
import { isUuid } from '../shared/uuid.js';
import { envelopeIdOf, type EnvelopeBody, type ParticipantBody } from '../output/envelope-view.js';

export interface EnvelopeCriteria {
  status?: string;
  folderId?: string;
  /** Case-insensitive substring of the title. */
  title?: string;
  /** Case-insensitive substring of a participant's name or e-mail. */
  participant?: string;
  createdAfter?: number;
  createdBefore?: number;
}

const contains = (text: string | null | undefined, needle: string) => (text ?? '').toLowerCase().includes(needle.toLowerCase());

export function participantMatches(participant: ParticipantBody, needle: string): boolean {
  return contains(participant.name, needle) || contains(participant.email, needle);
}

/** Whether an envelope (with its participants) meets every criterion given. */
export function envelopeMatches(envelope: EnvelopeBody, participants: readonly ParticipantBody[], criteria: EnvelopeCriteria): boolean {
  if (criteria.status && envelope.status !== criteria.status) return false;
  if (criteria.folderId && (envelope.folder?.id ?? envelope.folderId) !== criteria.folderId) return false;
  if (criteria.title && !contains(envelope.title, criteria.title)) return false;
  if (criteria.participant && !participants.some((participant) => participantMatches(participant, criteria.participant!))) return false;
  const created = envelope.createdAt ? Date.parse(envelope.createdAt) : Number.NaN;
  if (criteria.createdAfter !== undefined && !(created >= criteria.createdAfter)) return false;
  if (criteria.createdBefore !== undefined && !(created < criteria.createdBefore)) return false;
  return true;
}

/** `envelopes find`: the text in the title, a participant's name or e-mail, or the id. */
export function envelopeMentions(envelope: EnvelopeBody, participants: readonly ParticipantBody[], text: string): boolean {
  return contains(envelope.title, text) || contains(envelopeIdOf(envelope), text) || participants.some((participant) => participantMatches(participant, text));
}

/** The participants of a listed envelope: in the row when the service includes them, else read. */
export function participantsReader(client: ApiClient): (envelope: EnvelopeBody) => Promise<ParticipantBody[]> {
  return async (envelope) => {
    if (envelope.participants) return envelope.participants;
    return allItems<ParticipantBody>(client, 'listParticipants', { params: { envelopeId: envelopeIdOf(envelope) } });
  };
}

interface Folder {
  id: string;
  name?: string;
  path?: string;
}

/**
 * `--folder` by id (a UUID in any case), by path (`Sales/2026`) or by name. An exact path wins, then an exact name,
 * then the same ignoring case: `Sales` is the folder named Sales even where another is called `sales`. Several
 * folders matching at the best level are refused with their paths, never picked among.
 */
export async function resolveFolder(client: ApiClient, text: string): Promise<string> {
  const given = text.trim();
  const lower = given.toLowerCase();
  const sameId = (folder: Folder) => folder.id === given || (isUuid(given) && folder.id.toLowerCase() === lower);
  const levels: ((folder: Folder) => boolean)[] = [
    (folder) => folder.path === given,
    (folder) => folder.name === given,
    (folder) => folder.path?.toLowerCase() === lower,
    (folder) => folder.name?.toLowerCase() === lower,
  ];
  const matches: Folder[][] = levels.map(() => []);
  for await (const folder of client.paginate<Folder>('listFolders', { query: { limit: 100 } })) {
    if (sameId(folder)) return folder.id;
    levels.forEach((matchesAt, level) => {
      if (matchesAt(folder)) matches[level]!.push(folder);
    });
  }
  const found = matches.find((level) => level.length > 0) ?? [];
  if (found.length === 1) return found[0]!.id;
  if (found.length === 0) throw new UsageError(`No folder ${JSON.stringify(text)}.`, '`esign folders list` shows every folder with its id and path.', 'FOLDER_NOT_FOUND');
  throw new UsageError(
    `Several folders match ${JSON.stringify(text)}: ${found.map((folder) => `${folder.path ?? folder.name} (${folder.id})`).join(', ')}.`,
    'Give its path (Parent/Name) or its id.',
    'FOLDER_AMBIGUOUS',
    { folders: found.map((folder) => ({ id: folder.id, path: folder.path ?? folder.name ?? null })) },
  );
}

/**
 * Where to read envelopes from, and what is left to check on each: status and folder go to `listEnvelopes`, the rest
 * is checked here while the pages stream. `--participant` is always matched on every envelope's participants: a
 * contact's own envelope list holds only the envelopes sent to that contact's address, not all those whose participant
 * has that name.
 */
export function envelopeSource(criteria: EnvelopeCriteria): { source: ListSource; remaining: EnvelopeCriteria } {
  const remaining: EnvelopeCriteria = { ...criteria };
  delete remaining.status;
  delete remaining.folderId;
  return { source: { operationId: 'listEnvelopes', query: { status: criteria.status, folderId: criteria.folderId } }, remaining };
}

export const hasCriteria = (criteria: EnvelopeCriteria): boolean => Object.values(criteria).some((value) => value !== undefined);
