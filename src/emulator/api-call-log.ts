import { randomUUID } from 'node:crypto';
import { uuidV5 } from '../shared/uuid.js';

/** How many calls `GET /account/api-calls` can show. */
export const API_CALL_LOG_LENGTH = 1000;

export interface ApiCallRecord {
  id: string;
  at: string;
  method: string;
  path: string;
  operationId: string;
  status: number;
  keyPrefix: string;
}

/** Distinct paths kept for reuse before the set starts again: enough for every route a test or a load run calls. */
const KNOWN_PATHS = 4096;

/**
 * The last `API_CALL_LOG_LENGTH` calls, in a ring of arrays made at start: a call fills a slot and keeps no object or
 * string of its own (its path is one already seen, when it can be), so a stream of requests leaves the
 * young-generation collections nothing to copy. An id is made when a call is listed, from the call's number, so it
 * is the same each time; ids read from a state file are kept as they were.
 */
export class ApiCallLog {
  private readonly atMs = new Float64Array(API_CALL_LOG_LENGTH);
  private readonly status = new Uint16Array(API_CALL_LOG_LENGTH);
  private readonly method: string[] = new Array<string>(API_CALL_LOG_LENGTH).fill('');
  private readonly path: string[] = new Array<string>(API_CALL_LOG_LENGTH).fill('');
  private readonly operationId: string[] = new Array<string>(API_CALL_LOG_LENGTH).fill('');
  private readonly keyPrefix: string[] = new Array<string>(API_CALL_LOG_LENGTH).fill('');
  private readonly keptIds: (string | undefined)[] = new Array<string | undefined>(API_CALL_LOG_LENGTH).fill(undefined);
  private readonly paths = new Map<string, string>();
  /** The namespace of the ids made for this log's calls. */
  private readonly idSpace = randomUUID();
  /** Calls recorded: the next call's number. */
  private count = 0;

  static from(records: readonly ApiCallRecord[]): ApiCallLog {
    const log = new ApiCallLog();
    for (const record of records.slice(-API_CALL_LOG_LENGTH)) {
      log.keptIds[log.record(record.method, record.path, record.operationId, record.status, record.keyPrefix, Date.parse(record.at))] = record.id;
    }
    return log;
  }

  /** Records a call; gives back its slot. */
  record(method: string, path: string, operationId: string, status: number, keyPrefix: string, atMs = Date.now()): number {
    const slot = this.count++ % API_CALL_LOG_LENGTH;
    this.atMs[slot] = atMs;
    this.status[slot] = status;
    this.method[slot] = method;
    this.path[slot] = this.knownPath(path);
    this.operationId[slot] = operationId;
    this.keyPrefix[slot] = keyPrefix;
    this.keptIds[slot] = undefined;
    return slot;
  }

  /**
   * A page of the calls made with a key, newest first, from the call before number `before` on: numbered, a page
   * stays where it was while new calls arrive (the request for the next page is one of them).
   */
  madeWith(keyPrefix: string, limit: number, before = this.count): { calls: ApiCallRecord[]; last: number; more: boolean } {
    const calls: ApiCallRecord[] = [];
    let last = -1;
    for (let number = Math.min(before, this.count) - 1; number >= Math.max(0, this.count - API_CALL_LOG_LENGTH); number--) {
      if (this.keyPrefix[number % API_CALL_LOG_LENGTH] !== keyPrefix) continue;
      if (calls.length === limit) return { calls, last, more: true };
      calls.push(this.callAt(number));
      last = number;
    }
    return { calls, last, more: false };
  }

  /** Oldest first, as the state file keeps them. */
  toJSON(): ApiCallRecord[] {
    const calls: ApiCallRecord[] = [];
    for (let number = Math.max(0, this.count - API_CALL_LOG_LENGTH); number < this.count; number++) calls.push(this.callAt(number));
    return calls;
  }

  private callAt(number: number): ApiCallRecord {
    const slot = number % API_CALL_LOG_LENGTH;
    return {
      id: this.keptIds[slot] ?? uuidV5(String(number), this.idSpace),
      at: new Date(this.atMs[slot]!).toISOString(),
      method: this.method[slot]!,
      path: this.path[slot]!,
      operationId: this.operationId[slot]!,
      status: this.status[slot]!,
      keyPrefix: this.keyPrefix[slot]!,
    };
  }

  private knownPath(path: string): string {
    const known = this.paths.get(path);
    if (known !== undefined) return known;
    if (this.paths.size >= KNOWN_PATHS) this.paths.clear();
    this.paths.set(path, path);
    return path;
  }
}
