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

/** Bytes per chunk of record text; a larger record gets a chunk of its own size. */
const CHUNK_BYTES = 1024 * 1024;
/** Entries the per-entry arrays start with; they double as needed. */
const INITIAL_ENTRIES = 1024;
/** Marks an undefined body (an empty answer) where a body's byte length would be. */
const NO_BODY = 0xffffffff;

/**
 * Idempotency records by scope (the hash of the API key) and Idempotency-Key, with a queue in the order they were
 * made: a record leaves from the front of the queue once its window has passed, so expiry costs O(1) per record and
 * never a scan.
 *
 * A record's text (fingerprint, headers, body: some 600 bytes for a create) is written into byte chunks outside V8's
 * heap, in the order of the queue, and its numbers into typed arrays; the heap holds only the Idempotency-Key. Kept
 * as strings and objects, every record was copied by each young-generation collection it lived through, and under a
 * stream of creates those copies were the emulator's longest pauses. Chunks are released as the queue's front passes
 * them.
 */
export class IdempotencyLedger {
  /** Entry number (the queue position since the ledger began) of each live key, by scope. */
  private readonly byScope = new Map<string, Map<string, number>>();
  /** Entries from `first` on are at index `entry - first` of the per-entry lists below. */
  private first = 0;
  /** The queue's front, as an index. */
  private head = 0;
  /** Entries held, as an index one past the last. */
  private end = 0;
  private scopes: (string | undefined)[] = [];
  private keys: (string | undefined)[] = [];
  private createdAt = new Float64Array(INITIAL_ENTRIES);
  private status = new Uint16Array(INITIAL_ENTRIES);
  private chunkOf = new Uint32Array(INITIAL_ENTRIES);
  private offsetOf = new Uint32Array(INITIAL_ENTRIES);
  /** Chunk number `firstChunk + i` is `chunks[i]`; released chunks are undefined until the list is cut. */
  private chunks: (Buffer | undefined)[] = [];
  private firstChunk = 0;
  /** Where the next record's text goes in the last chunk. */
  private writeAt = 0;
  private live = 0;

  constructor(private readonly windowMs = IDEMPOTENCY_WINDOW_MS) {}

  get size(): number {
    return this.live;
  }

  /** Bytes of record text held outside the heap. */
  get heldBytes(): number {
    let total = 0;
    for (const chunk of this.chunks) total += chunk?.length ?? 0;
    return total;
  }

  /** The record of a key, while its window lasts. */
  get(scope: string, key: string, now = Date.now()): IdempotencyRecord | undefined {
    const entry = this.byScope.get(scope)?.get(key);
    if (entry === undefined) return undefined;
    const index = entry - this.first;
    return now - this.createdAt[index]! < this.windowMs ? this.recordAt(index) : undefined;
  }

  set(scope: string, key: string, record: IdempotencyRecord): void {
    if (this.end === this.createdAt.length) this.grow();
    const index = this.end++;
    this.scopes[index] = scope;
    this.keys[index] = key;
    this.createdAt[index] = record.createdAt;
    this.status[index] = record.status;
    this.writeText(index, record);
    let slots = this.byScope.get(scope);
    if (!slots) {
      slots = new Map();
      this.byScope.set(scope, slots);
    }
    if (!slots.has(key)) this.live++;
    slots.set(key, this.first + index);
    this.expire(record.createdAt);
  }

  /** Drops the records whose window has passed at `now`, from the front of the queue. */
  expire(now = Date.now()): void {
    while (this.head < this.end && now - this.createdAt[this.head]! >= this.windowMs) {
      const slots = this.byScope.get(this.scopes[this.head]!)!;
      const key = this.keys[this.head]!;
      // A key whose record was replaced (its first one expired unanswered) keeps the newer one.
      if (slots.get(key) === this.first + this.head) {
        slots.delete(key);
        this.live--;
        if (slots.size === 0) this.byScope.delete(this.scopes[this.head]!);
      }
      this.scopes[this.head] = this.keys[this.head] = undefined;
      this.head++;
    }
    // Chunks wholly before the front are no longer read.
    const frontChunk = this.head < this.end ? this.chunkOf[this.head]! : this.firstChunk + this.chunks.length - 1;
    for (let chunk = this.firstChunk; chunk < frontChunk; chunk++) this.chunks[chunk - this.firstChunk] = undefined;
    // The consumed front is cut off once it is half the queue: each entry is moved at most once more.
    if (this.head > INITIAL_ENTRIES && this.head * 2 > this.end) this.cutFront(frontChunk);
  }

  /** Live records in the order they were made. */
  *entries(): Generator<[scope: string, key: string, record: IdempotencyRecord]> {
    for (let index = this.head; index < this.end; index++) {
      const scope = this.scopes[index]!;
      const key = this.keys[index]!;
      if (this.byScope.get(scope)?.get(key) === this.first + index) yield [scope, key, this.recordAt(index)];
    }
  }

  private grow(): void {
    const capacity = this.createdAt.length * 2;
    const widen = <T extends Float64Array | Uint32Array | Uint16Array>(array: T, make: (length: number) => T): T => {
      const wider = make(capacity);
      wider.set(array);
      return wider;
    };
    this.createdAt = widen(this.createdAt, (length) => new Float64Array(length));
    this.status = widen(this.status, (length) => new Uint16Array(length));
    this.chunkOf = widen(this.chunkOf, (length) => new Uint32Array(length));
    this.offsetOf = widen(this.offsetOf, (length) => new Uint32Array(length));
  }

  private cutFront(frontChunk: number): void {
    const cut = this.head;
    this.scopes = this.scopes.slice(cut);
    this.keys = this.keys.slice(cut);
    for (const array of [this.createdAt, this.status, this.chunkOf, this.offsetOf]) array.copyWithin(0, cut, this.end);
    this.first += cut;
    this.end -= cut;
    this.head = 0;
    this.chunks = this.chunks.slice(frontChunk - this.firstChunk);
    this.firstChunk = frontChunk;
  }

  /** The fingerprint, headers and body of entry `index`, each as a 4-byte length and UTF-8 text, into the last chunk. */
  private writeText(index: number, record: IdempotencyRecord): void {
    const headers = Object.keys(record.headers).length === 0 ? '' : JSON.stringify(record.headers);
    const body = record.body ?? '';
    // UTF-8 takes at most 3 bytes per UTF-16 unit: the exact length is counted only when the bound does not fit.
    const room = this.chunks.length === 0 ? 0 : this.chunks[this.chunks.length - 1]!.length - this.writeAt;
    const bound = 12 + 3 * (record.fingerprint.length + headers.length + body.length);
    if (bound > room) {
      const exact = 12 + Buffer.byteLength(record.fingerprint) + Buffer.byteLength(headers) + Buffer.byteLength(body);
      if (exact > room) {
        this.chunks.push(Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, exact)));
        this.writeAt = 0;
      }
    }
    const chunk = this.chunks[this.chunks.length - 1]!;
    this.chunkOf[index] = this.firstChunk + this.chunks.length - 1;
    this.offsetOf[index] = this.writeAt;
    let at = this.writeAt;
    const texts = [record.fingerprint, headers, body];
    for (let field = 0; field < 3; field++) {
      const written = chunk.write(texts[field]!, at + 4, 'utf8');
      chunk.writeUInt32LE(field === 2 && record.body === undefined ? NO_BODY : written, at);
      at += 4 + written;
    }
    this.writeAt = at;
  }

  private recordAt(index: number): IdempotencyRecord {
    const chunk = this.chunks[this.chunkOf[index]! - this.firstChunk]!;
    let at = this.offsetOf[index]!;
    const texts: (string | undefined)[] = [];
    for (let field = 0; field < 3; field++) {
      const length = chunk.readUInt32LE(at);
      at += 4;
      if (length === NO_BODY) {
        texts.push(undefined);
        continue;
      }
      texts.push(chunk.toString('utf8', at, at + length));
      at += length;
    }
    const [fingerprint, headers, body] = texts;
    return {
      fingerprint: fingerprint!,
      status: this.status[index]!,
      body,
      headers: headers ? (JSON.parse(headers) as Record<string, string>) : {},
      createdAt: this.createdAt[index]!,
    };
  }
}
