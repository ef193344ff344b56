import { entryIn } from './derived.js';
import { IDEMPOTENCY_WINDOW_MS } from '../api/idempotency.js';

/** An answer kept for replay: its status, headers and body as sent (JSON text; undefined for an empty answer). */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string | undefined;
  headers: Record<string, string>;
  createdAt: number;
}

/**
 * Characters of record text joined into one string. Past V8's largest regular object (128 KiB) a string is made in
 * the large-object space, which young-generation collections never copy; larger blocks measured shorter pauses still.
 */
const TEXT_BLOCK = 1024 * 1024;
/** A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair, two units, takes 4). */
const MAX_UTF8_BYTES_PER_CHARACTER = 3;
/** Entries the per-entry arrays start with; they double as needed. */
const INITIAL_ENTRIES = 1024;

/** A scope's keys, each to its entry number. */
const newSlots = (): Map<string, number> => new Map();

/**
 * Idempotency records by scope (the account in one environment) and Idempotency-Key, with a queue in the order they were
 * made: a record leaves from the front of the queue once its window has passed, so expiry costs O(1) per record and
 * never a scan.
 *
 * A record's text (fingerprint, headers, body: some 600 characters for a create) is joined with its neighbours' into
 * blocks of 1 Mi characters, and its numbers go into typed arrays: the heap holds no object per record, only its
 * Idempotency-Key. Kept as a record object and three strings, every answer was copied by the young-generation
 * collections it lived through, and under a stream of creates those copies were the emulator's longest pauses. (Kept
 * outside the heap in Buffers instead, the text counted as external memory, which V8 answers by marking the whole
 * heap every 64 MiB: at a million envelopes that was worse.) The block being gathered is UTF-8 in one buffer made
 * once, so a record's strings die young too, and only whole blocks are strings. Blocks are released as the queue's
 * front passes them.
 */
export class IdempotencyLedger {
  /** Entry number (the queue position since the ledger began) of each live key, by scope. */
  private readonly byScope = new Map<string, Map<string, number>>();
  /**
   * Each scope's name once, for its entries to share: a caller makes a new string for every request, and kept per
   * entry those were a million strings at a million creates (a quarter of what a collection of the old generation marks).
   */
  private readonly scopeNames = new Map<string, string>();
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
  /** Block number, offset in it, and the lengths of the fingerprint, the headers' JSON and the body (-1: none). */
  private blockOf = new Uint32Array(INITIAL_ENTRIES);
  private offsetOf = new Uint32Array(INITIAL_ENTRIES);
  private fingerprintLength = new Uint32Array(INITIAL_ENTRIES);
  private headersLength = new Uint32Array(INITIAL_ENTRIES);
  private bodyLength = new Int32Array(INITIAL_ENTRIES);
  /** Block number `firstBlock + i` is `blocks[i]`; released blocks are undefined until the list is cut. */
  private blocks: (string | undefined)[] = [];
  private firstBlock = 0;
  /**
   * The block being gathered (number `firstBlock + blocks.length`): its length in characters, and its text as UTF-8,
   * which gives back the same characters when they are well formed (as JSON.stringify's are).
   */
  private pendingLength = 0;
  private pending: Buffer | undefined;
  private pendingBytes = 0;

  constructor(
    private readonly windowMs = IDEMPOTENCY_WINDOW_MS,
    private readonly blockCharacters = TEXT_BLOCK,
  ) {}

  /** Live records: one per key of each scope (a scope is the account in an environment, so there are few). */
  get size(): number {
    let live = 0;
    for (const slots of this.byScope.values()) live += slots.size;
    return live;
  }

  /** Characters of record text held: what expiry gives back. */
  get heldCharacters(): number {
    let total = this.pendingLength;
    for (const block of this.blocks) total += block?.length ?? 0;
    return total;
  }

  /** The record of a key, while its window lasts. */
  get(scope: string, key: string, now = Date.now()): IdempotencyRecord | undefined {
    const entry = this.byScope.get(scope)?.get(key);
    if (entry === undefined) return undefined;
    const index = entry - this.first;
    return now - this.createdAt[index]! < this.windowMs ? this.recordAt(index) : undefined;
  }

  set(given: string, key: string, record: IdempotencyRecord): void {
    const scope = entryIn(this.scopeNames, given, () => given);
    if (this.end === this.createdAt.length) this.grow();
    const index = this.end++;
    this.scopes[index] = scope;
    this.keys[index] = key;
    this.createdAt[index] = record.createdAt;
    this.status[index] = record.status;
    const headers = Object.keys(record.headers).length === 0 ? '' : JSON.stringify(record.headers);
    const body = record.body ?? '';
    const length = record.fingerprint.length + headers.length + body.length;
    // Larger than a block, or with a lone surrogate that UTF-8 cannot carry: a block of its own, kept as it is.
    const blockOfItsOwn = length > this.blockCharacters || !(record.fingerprint.isWellFormed() && headers.isWellFormed() && body.isWellFormed());
    if (this.pendingLength > 0 && (blockOfItsOwn || this.pendingLength + length > this.blockCharacters)) this.closeBlock();
    this.blockOf[index] = this.firstBlock + this.blocks.length;
    this.offsetOf[index] = this.pendingLength;
    this.fingerprintLength[index] = record.fingerprint.length;
    this.headersLength[index] = headers.length;
    this.bodyLength[index] = record.body === undefined ? -1 : body.length;
    if (blockOfItsOwn) {
      this.blocks.push(record.fingerprint + headers + body);
    } else {
      this.gather(record.fingerprint);
      this.gather(headers);
      this.gather(body);
      this.pendingLength += length;
    }
    entryIn(this.byScope, scope, newSlots).set(key, this.first + index);
    this.expire(record.createdAt);
  }

  /** Drops the records whose window has passed at `now`, from the front of the queue. */
  expire(now = Date.now()): void {
    while (this.head < this.end && now - this.createdAt[this.head]! >= this.windowMs) {
      const scope = this.scopes[this.head]!;
      const slots = this.byScope.get(scope)!;
      const key = this.keys[this.head]!;
      // A key whose record was replaced (its first one expired unanswered) keeps the newer one.
      if (slots.get(key) === this.first + this.head) {
        slots.delete(key);
        if (slots.size === 0) {
          this.byScope.delete(scope);
          this.scopeNames.delete(scope);
        }
      }
      this.scopes[this.head] = this.keys[this.head] = undefined;
      this.head++;
    }
    // Blocks wholly before the front are no longer read.
    const frontBlock = this.head < this.end ? this.blockOf[this.head]! : this.firstBlock + this.blocks.length;
    for (let block = this.firstBlock; block < frontBlock; block++) this.blocks[block - this.firstBlock] = undefined;
    // The consumed front is cut off once it is half the queue: each entry is moved at most once more.
    if (this.head > INITIAL_ENTRIES && this.head * 2 > this.end) this.cutFront(frontBlock);
  }

  /** Live records in the order they were made. */
  *entries(): Generator<[scope: string, key: string, record: IdempotencyRecord]> {
    for (let index = this.head; index < this.end; index++) {
      const scope = this.scopes[index]!;
      const key = this.keys[index]!;
      if (this.byScope.get(scope)?.get(key) === this.first + index) yield [scope, key, this.recordAt(index)];
    }
  }

  private gather(text: string): void {
    this.pending ??= Buffer.allocUnsafe(this.blockCharacters * MAX_UTF8_BYTES_PER_CHARACTER);
    this.pendingBytes += this.pending.write(text, this.pendingBytes, 'utf8');
  }

  private closeBlock(): void {
    this.blocks.push(this.pending?.toString('utf8', 0, this.pendingBytes) ?? '');
    this.pendingLength = this.pendingBytes = 0;
  }

  private grow(): void {
    const capacity = this.createdAt.length * 2;
    const widen = <T extends Float64Array | Uint32Array | Uint16Array | Int32Array>(array: T, make: (length: number) => T): T => {
      const wider = make(capacity);
      wider.set(array);
      return wider;
    };
    this.createdAt = widen(this.createdAt, (length) => new Float64Array(length));
    this.status = widen(this.status, (length) => new Uint16Array(length));
    this.blockOf = widen(this.blockOf, (length) => new Uint32Array(length));
    this.offsetOf = widen(this.offsetOf, (length) => new Uint32Array(length));
    this.fingerprintLength = widen(this.fingerprintLength, (length) => new Uint32Array(length));
    this.headersLength = widen(this.headersLength, (length) => new Uint32Array(length));
    this.bodyLength = widen(this.bodyLength, (length) => new Int32Array(length));
  }

  private cutFront(frontBlock: number): void {
    const cut = this.head;
    this.scopes = this.scopes.slice(cut);
    this.keys = this.keys.slice(cut);
    for (const array of [this.createdAt, this.status, this.blockOf, this.offsetOf, this.fingerprintLength, this.headersLength, this.bodyLength]) {
      array.copyWithin(0, cut, this.end);
    }
    this.first += cut;
    this.end -= cut;
    this.head = 0;
    this.blocks = this.blocks.slice(frontBlock - this.firstBlock);
    this.firstBlock = frontBlock;
  }

  private recordAt(index: number): IdempotencyRecord {
    // A record of the block still being gathered: the block is closed early (a replay is rare).
    if (this.blockOf[index]! === this.firstBlock + this.blocks.length) this.closeBlock();
    const text = this.blocks[this.blockOf[index]! - this.firstBlock]!;
    const fingerprintAt = this.offsetOf[index]!;
    const headersAt = fingerprintAt + this.fingerprintLength[index]!;
    const bodyAt = headersAt + this.headersLength[index]!;
    const bodyLength = this.bodyLength[index]!;
    const headers = text.slice(headersAt, bodyAt);
    return {
      fingerprint: text.slice(fingerprintAt, headersAt),
      status: this.status[index]!,
      body: bodyLength < 0 ? undefined : text.slice(bodyAt, bodyAt + bodyLength),
      headers: headers ? (JSON.parse(headers) as Record<string, string>) : {},
      createdAt: this.createdAt[index]!,
    };
  }
}
