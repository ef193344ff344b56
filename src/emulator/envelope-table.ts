import { entryIn } from './derived.js';
import { OrderedIndex, type Position } from './ordered-index.js';
import type { EnvelopeRecord, EnvelopeStatus, ParticipantRecord } from './records.js';

export interface EnvelopeFilter {
  status?: EnvelopeStatus | undefined;
  folderId?: string | undefined;
}

const seqOf = (envelope: EnvelopeRecord): number => envelope.seq;

const newestFirst = (): OrderedIndex<EnvelopeRecord> => new OrderedIndex(seqOf, seqOf);

const NO_EMAILS: ReadonlySet<string> = new Set();

/**
 * The addresses an envelope is listed under for a contact: its participants' emails, as lowercase. A draft has none,
 * and a create or a delete of one builds nothing.
 */
function emailsOf(envelope: EnvelopeRecord): ReadonlySet<string> {
  return envelope.participants.length === 0 ? NO_EMAILS : new Set(envelope.participants.map((participant) => participant.email.toLowerCase()));
}

/** The lists of one folder: all its envelopes, and those of each status. */
interface FolderLists {
  all: OrderedIndex<EnvelopeRecord>;
  byStatus: Map<EnvelopeStatus, OrderedIndex<EnvelopeRecord>>;
}

const newFolderLists = (): FolderLists => ({ all: newestFirst(), byStatus: new Map() });

/** A SENT envelope's deadline, in a min-heap: the one due first is at the top. */
interface Due {
  at: number;
  envelope: EnvelopeRecord;
}

/**
 * The envelopes of the account, by id and in the orders the routes list them (newest first, for every filter the
 * contract has: status, folder, both; and voided ones by when they were voided), so that a read costs O(1), a page
 * O(log n + page size), and a change of status or folder O(log n), at any size. Every change of `status` or
 * `folderId` goes through `setStatus`/`setFolder`.
 */
export class EnvelopeTable {
  private readonly byId = new Map<string, EnvelopeRecord>();
  // Keyed by the strings the records already hold (a folder id, a status), so a change builds no key and hashes nothing.
  private readonly all = newestFirst();
  private readonly byStatus = new Map<EnvelopeStatus, OrderedIndex<EnvelopeRecord>>();
  private readonly byFolder = new Map<string, FolderLists>();
  /** A contact's envelopes: those with a participant of that email (lowercase). */
  private readonly byEmail = new Map<string, OrderedIndex<EnvelopeRecord>>();
  private readonly voided = new OrderedIndex<EnvelopeRecord>((envelope) => this.voidedAtOf(envelope), seqOf);
  /** When each VOIDED envelope was voided (epoch ms), the voided list's order. */
  private readonly voidedAt = new WeakMap<EnvelopeRecord, number>();
  private readonly deadlines: Due[] = [];

  get size(): number {
    return this.byId.size;
  }

  get(id: string): EnvelopeRecord | undefined {
    return this.byId.get(id);
  }

  values(): IterableIterator<EnvelopeRecord> {
    return this.byId.values();
  }

  /** Adds an envelope (new, or restored with `voidedAtMs` when it is VOIDED). */
  add(envelope: EnvelopeRecord, voidedAtMs?: number): void {
    this.byId.set(envelope.id, envelope);
    this.enterLists(envelope);
    this.enterEmails(envelope);
    this.enterStatus(envelope, voidedAtMs);
  }

  delete(envelope: EnvelopeRecord): void {
    if (this.byId.get(envelope.id) !== envelope) return;
    this.byId.delete(envelope.id);
    this.leaveLists(envelope);
    this.leaveEmails(envelope);
    if (envelope.status === 'VOIDED') this.voided.remove(envelope);
  }

  setStatus(envelope: EnvelopeRecord, status: EnvelopeStatus): void {
    if (envelope.status === status) return;
    this.reindex(envelope, () => (envelope.status = status));
    this.enterStatus(envelope);
  }

  setFolder(envelope: EnvelopeRecord, folderId: string): void {
    if (envelope.folderId !== folderId) this.reindex(envelope, () => (envelope.folderId = folderId));
  }

  setParticipants(envelope: EnvelopeRecord, participants: ParticipantRecord[]): void {
    this.leaveEmails(envelope);
    envelope.participants = participants;
    this.enterEmails(envelope);
  }

  setParticipantEmail(envelope: EnvelopeRecord, participant: ParticipantRecord, email: string): void {
    if (participant.email === email) return;
    this.leaveEmails(envelope);
    participant.email = email;
    this.enterEmails(envelope);
  }

  /** Call after a SENT envelope's deadline changed, so that it expires on time. */
  deadlineChanged(envelope: EnvelopeRecord): void {
    if (envelope.status === 'SENT' && envelope.deadline) this.pushDeadline(envelope);
  }

  /** Envelopes in a folder, however many. */
  countIn(folderId: string): number {
    return this.byFolder.get(folderId)?.all.size ?? 0;
  }

  /** A page of the envelopes matching `filter`, newest first, after the position of a cursor. */
  page(filter: EnvelopeFilter, after: Position | undefined, limit: number): { items: EnvelopeRecord[]; more: boolean } {
    return this.listOf(filter)?.page(after, limit) ?? { items: [], more: false };
  }

  /** All envelopes matching `filter`, newest first, lazily. */
  matching(filter: EnvelopeFilter, after?: Position): Iterable<EnvelopeRecord> {
    return this.listOf(filter)?.itemsAfter(after) ?? [];
  }

  /** A page of the envelopes with a participant of this email (any case), newest first, after a cursor's position. */
  participantPage(email: string, after: Position | undefined, limit: number): { items: EnvelopeRecord[]; more: boolean } {
    return this.byEmail.get(email.toLowerCase())?.page(after, limit) ?? { items: [], more: false };
  }

  /** A page of the VOIDED envelopes, the last voided first. */
  voidedPage(after: Position | undefined, limit: number): { items: EnvelopeRecord[]; more: boolean } {
    return this.voided.page(after, limit);
  }

  positionOf(envelope: EnvelopeRecord): Position {
    return { primary: envelope.seq, seq: envelope.seq };
  }

  voidedPositionOf(envelope: EnvelopeRecord): Position {
    return { primary: this.voidedAtOf(envelope), seq: envelope.seq };
  }

  /** When a VOIDED envelope was voided (epoch ms), as the voided list orders it. */
  voidedAtOf(envelope: EnvelopeRecord): number {
    return this.voidedAt.get(envelope) ?? 0;
  }

  /** SENT envelopes whose deadline is at or before `now`, each once, earliest first (the caller expires them). */
  *due(now: number): Generator<EnvelopeRecord> {
    while (this.deadlines.length > 0 && this.deadlines[0]!.at <= now) {
      const { at, envelope } = this.popDeadline();
      const current = envelope.deadline ? Date.parse(envelope.deadline) : undefined;
      // A stale entry: the envelope left SENT, was deleted, or its deadline moved (a later entry holds the new one).
      if (envelope.status !== 'SENT' || this.byId.get(envelope.id) !== envelope || current !== at) continue;
      yield envelope;
    }
  }

  /** The list a filter reads, if it has one. */
  private listOf(filter: EnvelopeFilter): OrderedIndex<EnvelopeRecord> | undefined {
    if (filter.folderId === undefined) return filter.status === undefined ? this.all : this.byStatus.get(filter.status);
    const folder = this.byFolder.get(filter.folderId);
    return filter.status === undefined ? folder?.all : folder?.byStatus.get(filter.status);
  }

  /** Into the lists the envelope answers to: all, its status, its folder, and its folder and status. */
  private enterLists(envelope: EnvelopeRecord): void {
    this.all.insert(envelope);
    entryIn(this.byStatus, envelope.status, newestFirst).insert(envelope);
    const folder = entryIn(this.byFolder, envelope.folderId, newFolderLists);
    folder.all.insert(envelope);
    entryIn(folder.byStatus, envelope.status, newestFirst).insert(envelope);
  }

  private leaveLists(envelope: EnvelopeRecord): void {
    this.all.remove(envelope);
    this.byStatus.get(envelope.status)?.remove(envelope);
    const folder = this.byFolder.get(envelope.folderId);
    if (!folder) return;
    folder.all.remove(envelope);
    const inStatus = folder.byStatus.get(envelope.status);
    inStatus?.remove(envelope);
    // A folder's emptied lists go, so that deleted folders leave nothing behind.
    if (inStatus?.size === 0) folder.byStatus.delete(envelope.status);
    if (folder.all.size === 0) this.byFolder.delete(envelope.folderId);
  }

  private enterEmails(envelope: EnvelopeRecord): void {
    for (const email of emailsOf(envelope)) entryIn(this.byEmail, email, newestFirst).insert(envelope);
  }

  private leaveEmails(envelope: EnvelopeRecord): void {
    for (const email of emailsOf(envelope)) {
      const list = this.byEmail.get(email);
      list?.remove(envelope);
      if (list?.size === 0) this.byEmail.delete(email);
    }
  }

  private reindex(envelope: EnvelopeRecord, change: () => void): void {
    this.leaveLists(envelope);
    change();
    this.enterLists(envelope);
  }

  private enterStatus(envelope: EnvelopeRecord, voidedAtMs = Date.now()): void {
    if (envelope.status === 'VOIDED' && !this.voidedAt.has(envelope)) {
      this.voidedAt.set(envelope, voidedAtMs);
      this.voided.insert(envelope);
    }
    if (envelope.status === 'SENT' && envelope.deadline) this.pushDeadline(envelope);
  }

  private pushDeadline(envelope: EnvelopeRecord): void {
    const heap = this.deadlines;
    heap.push({ at: Date.parse(envelope.deadline!), envelope });
    for (let child = heap.length - 1; child > 0; ) {
      const parent = (child - 1) >>> 1;
      if (heap[parent]!.at <= heap[child]!.at) break;
      [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
      child = parent;
    }
  }

  private popDeadline(): Due {
    const heap = this.deadlines;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let parent = 0; ; ) {
        const left = 2 * parent + 1;
        const right = left + 1;
        let smallest = parent;
        if (left < heap.length && heap[left]!.at < heap[smallest]!.at) smallest = left;
        if (right < heap.length && heap[right]!.at < heap[smallest]!.at) smallest = right;
        if (smallest === parent) break;
        [heap[parent], heap[smallest]] = [heap[smallest]!, heap[parent]!];
        parent = smallest;
      }
    }
    return top;
  }
}
