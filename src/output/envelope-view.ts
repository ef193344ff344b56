/*
 * How envelopes, their participants and documents look to a person. The readers here accept the names the real
 * service may use where the contract is silent (pins.md: an id may come as `id`, `envelopeId`, `participantId`,
 * `documentId`; a list as `data` or under the resource's name).
 */
import type { DocumentAnswer, EnvelopeAnswer, HistoryEntryAnswer, ParticipantAnswer } from '../api/answers.js';
import type { Styles } from './output.js';
import { visible } from './sanitize.js';
import { renderFields, renderTable, type Column, type Field } from './table.js';

/** As the client checked them (src/api/answers.ts): every field may be absent or null. */
export type ParticipantBody = ParticipantAnswer;
export type DocumentBody = DocumentAnswer;
export type EnvelopeBody = EnvelopeAnswer;
export type HistoryEntryBody = HistoryEntryAnswer;

export const envelopeIdOf = (envelope: EnvelopeBody): string => envelope.id ?? envelope.envelopeId ?? '?';
export const participantIdOf = (participant: ParticipantBody): string => participant.id ?? participant.participantId ?? '?';
export const documentIdOf = (document: Pick<DocumentBody, 'id' | 'documentId'>): string => document.documentId ?? document.id ?? '?';

/** The items of a list answer: `{data: [...]}`, `{<name>: [...]}` or a bare array. */
export function itemsOf<T>(body: unknown, name: string): T[] | undefined {
  if (Array.isArray(body)) return body as T[];
  const record = body as Record<string, unknown> | undefined;
  if (Array.isArray(record?.data)) return record.data as T[];
  if (Array.isArray(record?.[name])) return record[name] as T[];
  return undefined;
}

/** States after which nothing more happens to an envelope. */
export const finalEnvelopeStatuses: ReadonlySet<string> = new Set(['COMPLETED', 'VOIDED', 'DECLINED', 'EXPIRED']);

export const isDone = (participant: ParticipantBody): boolean => participant.status === 'SIGNED' || participant.status === 'APPROVED';
/** A notified participant who has not acted yet holds the envelope: it is their turn. */
export const isTheirTurn = (participant: ParticipantBody): boolean => participant.isTurn ?? participant.status === 'NOTIFIED';

/* The colour functions take a server's status and answer it coloured, with its control characters made visible. */

export function colourEnvelopeStatus(style: Styles, status: string | null | undefined): string {
  const text = visible(status ?? '?');
  switch (status) {
    case 'DRAFT':
      return style.dim(text);
    case 'SENT':
      return style.cyan(text);
    case 'COMPLETED':
      return style.green(text);
    case 'VOIDED':
    case 'DECLINED':
      return style.red(text);
    case 'EXPIRED':
      return style.yellow(text);
    default:
      return text;
  }
}

export function colourParticipantStatus(style: Styles, status: string | null | undefined): string {
  const text = visible(status ?? '?');
  switch (status) {
    case 'PENDING':
      return style.dim(text);
    case 'NOTIFIED':
      return style.cyan(text);
    case 'SIGNED':
    case 'APPROVED':
      return style.green(text);
    case 'REFUSED':
      return style.red(text);
    default:
      return text;
  }
}

export function colourDocumentStatus(style: Styles, status: string | null | undefined): string {
  const text = visible(status ?? '?');
  if (status === 'READY') return style.green(text);
  if (status === 'FAILED') return style.red(text);
  if (status === 'PROCESSING' || status === 'AWAITING_UPLOAD' || status === 'AWAITING_CONVERSION_CONFIRMATION') return style.yellow(text);
  return text;
}

/** `in 6 days`, `3 hours ago`: the unit is the largest one that fits, so the figure stays readable. */
export function relativeTime(iso: string, nowMs: number): string {
  const diff = Date.parse(iso) - nowMs;
  if (Number.isNaN(diff)) return iso;
  const ahead = diff >= 0;
  const abs = Math.abs(diff);
  const units: [number, string][] = [
    [86_400_000, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (abs >= size) {
      const count = Math.round(abs / size);
      const phrase = `${count} ${unit}${count === 1 ? '' : 's'}`;
      return ahead ? `in ${phrase}` : `${phrase} ago`;
    }
  }
  return ahead ? 'in less than a minute' : 'just now';
}

/** `2026-10-01 17:00 UTC` */
export function absoluteTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function formatDeadline(deadline: string | null | undefined, nowMs: number): string {
  if (!deadline) return 'none';
  return `${relativeTime(deadline, nowMs)} (${absoluteTime(deadline)})`;
}

/** `1/3 done` */
export function participantProgress(participants: readonly ParticipantBody[]): string {
  if (participants.length === 0) return 'none';
  return `${participants.filter(isDone).length}/${participants.length} done`;
}

/** `Ada Lovelace <ada@example.com>`, made visible: it goes into messages and prompts. */
export function describeParticipant(participant: ParticipantBody): string {
  const address = participant.deliveryMethod && participant.deliveryMethod !== 'EMAIL' && participant.phoneNumber ? participant.phoneNumber : participant.email;
  return visible(`${participant.name ?? '?'} <${address ?? '?'}>`);
}

function orderOf(participant: ParticipantBody): number {
  return participant.signingOrder ?? Number.MAX_SAFE_INTEGER;
}

export function sortParticipants(participants: readonly ParticipantBody[]): ParticipantBody[] {
  return [...participants].sort((a, b) => orderOf(a) - orderOf(b));
}

export function participantColumns(style: Styles): Column<ParticipantBody>[] {
  return [
    { header: '#', value: (p) => (p.signingOrder === undefined || p.signingOrder === null ? '-' : String(p.signingOrder)) },
    { header: 'ID', value: (p) => participantIdOf(p), id: true },
    { header: 'NAME', value: (p) => p.name ?? '?', freeText: true },
    { header: 'CONTACT', value: (p) => [p.email, p.phoneNumber].filter(Boolean).join(' · ') || '?', freeText: true },
    { header: 'DELIVERY', value: (p) => p.deliveryMethod ?? '-', dropOrder: 1 },
    { header: 'ROLE', value: (p) => p.role ?? '-' },
    { header: 'STATUS', value: (p) => p.status ?? '?', colour: (text) => colourParticipantStatus(style, text) },
    { header: '', value: (p) => (isTheirTurn(p) ? '← their turn' : ''), colour: (text) => style.bold(text) },
  ];
}

/** One envelope's participants: a table, or where it would not fit whole, one record each (see TableStream). */
export function renderParticipants(participants: readonly ParticipantBody[], style: Styles): string {
  if (participants.length === 0) return 'No participants.';
  return renderTable(sortParticipants(participants), participantColumns(style), style, { whole: true });
}

type ListedDocument = Pick<DocumentBody, 'id' | 'documentId' | 'fileName' | 'status' | 'pageCount'>;

export function documentColumns(style: Styles): Column<ListedDocument>[] {
  return [
    { header: 'ID', value: (d) => documentIdOf(d) },
    { header: 'FILE', value: (d) => d.fileName ?? '?', freeText: true, wrap: true },
    { header: 'PAGES', value: (d) => (d.pageCount === undefined || d.pageCount === null ? '-' : String(d.pageCount)) },
    { header: 'STATUS', value: (d) => d.status ?? '?', colour: (text) => colourDocumentStatus(style, text) },
  ];
}

export function renderDocuments(documents: readonly ListedDocument[], style: Styles): string {
  if (documents.length === 0) return 'No documents.';
  return renderTable(documents, documentColumns(style), style, { whole: true });
}

function folderLabel(envelope: EnvelopeBody): string {
  if (envelope.folder) return envelope.folder.name ? `${envelope.folder.name} (${envelope.folder.id ?? '?'})` : (envelope.folder.id ?? '-');
  return envelope.folderId ?? '-';
}

export function renderEnvelope(
  envelope: EnvelopeBody,
  style: Styles,
  nowMs: number,
  parts: { participants?: readonly ParticipantBody[]; documents?: readonly DocumentBody[] } = {},
): string {
  const participants = parts.participants ?? envelope.participants;
  const documents = parts.documents ?? envelope.documents;
  const pairs: Field[] = [
    ['Envelope', envelopeIdOf(envelope)],
    ['Title', envelope.title || '-'],
    ['Status', envelope.status ?? '?', (text) => colourEnvelopeStatus(style, text)],
  ];
  if (envelope.cancellationReason) pairs.push(['Reason', envelope.cancellationReason]);
  pairs.push(['Deadline', formatDeadline(envelope.deadline, nowMs)]);
  if (envelope.message) pairs.push(['Message', envelope.message]);
  pairs.push(['Folder', folderLabel(envelope)]);
  if (envelope.sender) pairs.push(['Sender', envelope.sender.name ?? envelope.sender.id ?? '?']);
  if (envelope.createdAt) pairs.push(['Created', `${absoluteTime(envelope.createdAt)} (${relativeTime(envelope.createdAt, nowMs)})`]);
  if (participants) pairs.push(['Progress', participantProgress(participants)]);
  const sections = [renderFields(pairs, style.terminalWidth)];
  if (participants) sections.push(`${style.bold('Participants')}\n${renderParticipants(participants, style)}`);
  if (documents) sections.push(`${style.bold('Documents')}\n${renderDocuments(documents, style)}`);
  return sections.join('\n\n');
}

export function envelopeColumns(style: Styles, nowMs: number): Column<EnvelopeBody>[] {
  return [
    { header: 'ID', value: (e) => envelopeIdOf(e), id: true },
    { header: 'STATUS', value: (e) => e.status ?? '?', colour: (text) => colourEnvelopeStatus(style, text) },
    { header: 'TITLE', value: (e) => e.title || '-', freeText: true },
    // `1/3`: of three participants, one has signed or approved.
    { header: 'DONE', value: (e) => (e.participants?.length ? `${e.participants.filter(isDone).length}/${e.participants.length}` : '-') },
    { header: 'DEADLINE', value: (e) => (e.deadline ? relativeTime(e.deadline, nowMs) : '-'), dropOrder: 2 },
    { header: 'CREATED', value: (e) => (e.createdAt ? absoluteTime(e.createdAt).slice(0, 10) : '-'), dropOrder: 1 },
  ];
}

export function renderEnvelopeList(envelopes: readonly EnvelopeBody[], style: Styles, nowMs: number): string {
  if (envelopes.length === 0) return 'No envelopes.';
  return renderTable(envelopes, envelopeColumns(style, nowMs), style);
}

function actorLabel(actor: HistoryEntryBody['actor']): string {
  if (!actor) return '-';
  if (typeof actor === 'string') return actor;
  const name = actor.integration?.name ?? actor.name ?? actor.email ?? '?';
  return actor.type === 'API_INTEGRATION' ? `API integration ${name}` : name;
}

const two = (n: number) => String(n).padStart(2, '0');

/** `+01:00`: the local zone's offset from UTC at that time. */
function localOffset(at: Date): string {
  const offset = -at.getTimezoneOffset();
  return `${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
}

/** The zone history times are read in, for the AT header: `UTC`, or the local offset now (`UTC+01:00`). */
export function historyZone(utc: boolean, nowMs: number): string {
  return utc ? 'UTC' : `UTC${localOffset(new Date(nowMs))}`;
}

/**
 * `2026-03-10 14:05:09` in the local time zone, or in UTC: history is read to the second. The zone is in the header
 * (historyZone); a time in another offset of the local zone (the other side of a daylight-saving change) carries its
 * own, `2026-07-10 15:05:09 +02:00`.
 */
export function timeToSecond(iso: string, utc: boolean, nowMs: number): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  if (utc) return at.toISOString().slice(0, 19).replace('T', ' ');
  const offset = localOffset(at);
  const local = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
  return offset === localOffset(new Date(nowMs)) ? local : `${local} ${offset}`;
}

/** Names for the ids a history entry carries: participants, documents, folders. */
export interface HistoryNames {
  participants: ReadonlyMap<string, string>;
  documents: ReadonlyMap<string, string>;
  folders: ReadonlyMap<string, string>;
}

const detailKinds: Record<string, { label: string; kind: keyof HistoryNames }> = {
  participantId: { label: 'participant', kind: 'participants' },
  participantIds: { label: 'participants', kind: 'participants' },
  removedParticipantIds: { label: 'removed', kind: 'participants' },
  documentId: { label: 'document', kind: 'documents' },
  folderId: { label: 'folder', kind: 'folders' },
  fromFolderId: { label: 'from', kind: 'folders' },
  toFolderId: { label: 'to', kind: 'folders' },
};

function describeDetails(details: Record<string, unknown> | null | undefined, names: HistoryNames): string {
  if (!details) return '';
  return Object.entries(details)
    .map(([key, value]) => {
      const known = detailKinds[key];
      const ids = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
      // A list of ids names each one; an empty list (nobody removed) says nothing.
      if (known && ids) return ids.length ? `${known.label} ${ids.map((id) => names[known.kind].get(id) ?? id).join(', ')}` : '';
      return `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;
    })
    .filter(Boolean)
    .join('; ');
}

/** History as a table, oldest first; the ids an entry carries are shown by name where `names` knows them. */
export function historyColumns(options: { utc: boolean; names: HistoryNames; nowMs: number }): Column<HistoryEntryBody>[] {
  return [
    {
      header: `AT (${historyZone(options.utc, options.nowMs)})`,
      value: (h) => {
        const at = h.at ?? h.createdAt;
        return at ? timeToSecond(at, options.utc, options.nowMs) : '-';
      },
    },
    { header: 'ACTION', value: (h) => h.action ?? h.type ?? '?' },
    { header: 'BY', value: (h) => actorLabel(h.actor), freeText: true, wrap: true },
    { header: 'DETAILS', value: (h) => describeDetails(h.details, options.names), freeText: true, wrap: true },
  ];
}

/** What a person sees before an irreversible action on an envelope. */
export function renderEnvelopeSummary(envelope: EnvelopeBody, style: Styles): string {
  const participants = envelope.participants ?? [];
  const lines = [
    `${style.bold(visible(envelope.title || '(untitled)'))} · ${visible(envelopeIdOf(envelope))} · ${colourEnvelopeStatus(style, envelope.status)}`,
    ...sortParticipants(participants).map((p) => `  ${visible(`${describeParticipant(p)} · ${p.role ?? 'SIGNER'}`)} · ${colourParticipantStatus(style, p.status)}`),
  ];
  if (participants.length === 0) lines.push('  no participants');
  return lines.join('\n');
}
