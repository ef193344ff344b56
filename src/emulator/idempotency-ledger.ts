/** An answer kept for replay: its status, headers and body as sent (JSON text; undefined for an empty answer). */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string | undefined;
  headers: Record<string, string>;
  createdAt: number;
}

/** The contract's replay window: past it a key is never answered again. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Idempotency records by slot (key hash and Idempotency-Key), with a queue in the order they were made: a record
 * leaves from the front of the queue once its window has passed, so expiry costs O(1) per record and never a scan.
 */
export class IdempotencyLedger {
  private readonly records = new Map<string, IdempotencyRecord>();
  /** The queue, as two lists in step (slot and record at the same index): no wrapper object per record. */
  private slots: string[] = [];
  private queued: IdempotencyRecord[] = [];
  private head = 0;

  constructor(private readonly windowMs = IDEMPOTENCY_WINDOW_MS) {}

  get size(): number {
    return this.records.size;
  }

  /** The record of a slot, while its window lasts. */
  get(slot: string, now = Date.now()): IdempotencyRecord | undefined {
    const record = this.records.get(slot);
    return record && now - record.createdAt < this.windowMs ? record : undefined;
  }

  set(slot: string, record: IdempotencyRecord): void {
    this.records.set(slot, record);
    this.slots.push(slot);
    this.queued.push(record);
    this.expire(record.createdAt);
  }

  /** Drops the records whose window has passed at `now`, from the front of the queue. */
  expire(now = Date.now()): void {
    while (this.head < this.queued.length && now - this.queued[this.head]!.createdAt >= this.windowMs) {
      const slot = this.slots[this.head]!;
      const record = this.queued[this.head++]!;
      // A slot whose record was replaced (its first one expired unanswered) keeps the newer one.
      if (this.records.get(slot) === record) this.records.delete(slot);
    }
    // The consumed front is cut off once it is half the queue: each entry is moved at most once more.
    if (this.head > 1024 && this.head * 2 > this.queued.length) {
      this.slots = this.slots.slice(this.head);
      this.queued = this.queued.slice(this.head);
      this.head = 0;
    }
  }

  /** Live records in the order they were made. */
  *entries(): Generator<[string, IdempotencyRecord]> {
    for (let index = this.head; index < this.queued.length; index++) {
      const slot = this.slots[index]!;
      const record = this.queued[index]!;
      if (this.records.get(slot) === record) yield [slot, record];
    }
  }
}
