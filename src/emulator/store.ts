import { randomBytes, randomUUID } from 'node:crypto';
import { constants, createReadStream, rmSync } from 'node:fs';
import { access, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { ApiCallLog, type ApiCallRecord } from './api-call-log.js';
import { EnvelopeTable } from './envelope-table.js';
import { IdempotencyLedger, type IdempotencyRecord } from './idempotency-ledger.js';
import { ensurePrivateDirectory } from './private-directory.js';
import type { Named, EnvelopeRecord, DocumentRecord, ContactRecord, FolderRecord, TemplateRecord, WebhookRecord, DeliveryRecord, OutboxMessage } from './records.js';

export interface State {
  account: Named & { plan: string };
  integration: Named;
  responsibleUser: Named & { email: string };
  capabilities: string[];
  envelopes: EnvelopeTable;
  documents: Map<string, DocumentRecord>;
  contacts: Record<string, ContactRecord>;
  contactLists: Record<string, { id: string; name: string; contactIds: string[]; createdAt: string }>;
  folders: Record<string, FolderRecord>;
  groups: Record<string, { id: string; name: string; memberIds: string[] }>;
  members: Record<string, { id: string; name: string; email: string; role: string; groupIds: string[]; permissions: string[] }>;
  invites: Record<string, { id: string; email: string; role: string; status: string; createdAt: string }>;
  templates: Record<string, TemplateRecord>;
  webhooks: Record<string, WebhookRecord>;
  deliveries: Record<string, DeliveryRecord>;
  outbox: OutboxMessage[];
  apiCalls: ApiCallLog;
  idempotency: IdempotencyLedger;
  /** Invitations and reminders counted toward the account's message limit. */
  messagesSent: number;
  envelopesCreated: number;
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** Where the next id's text is written: one buffer for all of them (the string made from it is a copy). */
const idText = Buffer.alloc(36);
let entropy = Buffer.alloc(0);
let entropyUsed = 0;

/**
 * A fresh random UUID (version 4) as one flat string. Node builds `randomUUID()` by concatenation, a tree of about 30
 * string pieces (some 700 bytes) that V8 keeps as it is, and a million envelopes hold two ids each; every request
 * makes several ids, so this writes the text into a reused buffer and allocates nothing but the 36-character string.
 */
export function newId(): string {
  if (entropyUsed === entropy.length) {
    entropy = randomBytes(4096);
    entropyUsed = 0;
  }
  let at = 0;
  for (let index = 0; index < 16; index++) {
    let byte = entropy[entropyUsed + index]!;
    if (index === 6) byte = (byte & 0x0f) | 0x40;
    else if (index === 8) byte = (byte & 0x3f) | 0x80;
    if (index === 4 || index === 6 || index === 8 || index === 10) idText[at++] = 0x2d;
    idText[at++] = HEX_DIGITS[byte >> 4]!;
    idText[at++] = HEX_DIGITS[byte & 0x0f]!;
  }
  entropyUsed += 16;
  return idText.toString('latin1');
}

let isoMillisecond = Number.NaN;
let isoText = '';

/** The current time as ISO text; within one millisecond the same string, since formatting a Date is costly. */
export function nowIso(): string {
  const now = Date.now();
  if (now !== isoMillisecond) {
    isoMillisecond = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}

export function emptyState(): State {
  return {
    account: { id: newId(), name: 'Emulated Account', plan: 'BUSINESS' },
    integration: { id: newId(), name: 'esign emulator integration' },
    responsibleUser: { id: newId(), name: 'Riley Responsible', email: 'riley@example.test' },
    capabilities: ['ANCHOR_SEARCH', 'SEND_NOW', 'TEMPLATES', 'WEBHOOKS', 'SMS_DELIVERY', 'WHATSAPP_DELIVERY'],
    envelopes: new EnvelopeTable(),
    documents: new Map(),
    contacts: {},
    contactLists: {},
    folders: {},
    groups: {},
    members: {},
    invites: {},
    templates: {},
    webhooks: {},
    deliveries: {},
    outbox: [],
    apiCalls: new ApiCallLog(),
    idempotency: new IdempotencyLedger(),
    messagesSent: 0,
    envelopesCreated: 0,
  };
}

/** The collections that grow with use: one line per record in the state file, never one value in memory. */
const STATE_FORMAT_VERSION = 3;
const STATE_FORMAT = `esign-emulator-state/${STATE_FORMAT_VERSION}`;
/**
 * Versions read. 2 kept each envelope's creation entry in its history, 3 makes it from the record (`historyOf`): an
 * esign that reads only 2 would show histories without it, so it is told the file is not its own instead.
 */
const READABLE_FORMAT_VERSIONS: readonly number[] = [2, 3];

/** A --state file that cannot be used: what is wrong, where, and what to do, for the person who gave it. */
export class StateFileError extends Error {
  constructor(
    statePath: string,
    problem: string,
    readonly hint = 'Move the file away, or give --state another path, to start afresh.',
    line?: number,
  ) {
    super(`--state ${statePath}${line === undefined ? '' : `:${line}`}: ${problem}`);
    this.name = 'StateFileError';
  }
}

type Line = [kind: 'envelope', record: EnvelopeRecord, voidedAtMs?: number] | [kind: 'document', record: DocumentRecord] | [kind: 'idempotency', slot: string, record: IdempotencyRecord] | [kind: 'blob', id: string, base64: string];

/** The shape of a record line, checked before the record is taken in (the records themselves are the emulator's own). */
function isStateLine(line: unknown): line is Line {
  if (!Array.isArray(line)) return false;
  const isObject = (value: unknown) => typeof value === 'object' && value !== null;
  switch (line[0]) {
    case 'envelope':
      return isObject(line[1]) && typeof (line[1] as { id?: unknown }).id === 'string';
    case 'document':
      return isObject(line[1]) && typeof (line[1] as { documentId?: unknown }).documentId === 'string';
    case 'idempotency':
      return typeof line[1] === 'string' && line[1].includes(':') && isObject(line[2]);
    case 'blob':
      return typeof line[1] === 'string' && typeof line[2] === 'string';
    default:
      return false;
  }
}

/** Everything of the state but the large collections, as one JSON value (the state file's first line). */
function stateHead(state: State): Record<string, unknown> {
  const { envelopes: _envelopes, documents: _documents, idempotency: _idempotency, ...rest } = state;
  return { format: STATE_FORMAT, ...rest };
}


/**
 * Removes the temporary files of saves that never finished (the process was killed mid-save: each is as large as the
 * state, and nothing else would ever remove it). Only files of the writer's name pattern for this state file go; a
 * save of this process has not begun yet.
 */
async function removeUnfinishedSaves(statePath: string): Promise<void> {
  const folder = dirname(statePath);
  const stateName = basename(statePath);
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    // No folder yet (it is made below), or one that cannot be read: that is said when the state is read or written.
    return;
  }
  const { isTemporaryFileOf } = await import('../files/atomic-file.js');
  for (const entry of entries) {
    if (entry.isFile() && isTemporaryFileOf(entry.name, stateName)) await rm(join(folder, entry.name), { force: true });
  }
}

/** Lines are gathered into chunks of about this many characters before each write. */
const WRITE_CHUNK = 1024 * 1024;

/**
 * Makes the folder of the state file and checks that a file can be created in it. Where it cannot be made, the
 * nearest folder that exists says why (a read-only file system is EROFS there, where making the missing folder below
 * it answered ENOENT).
 */
async function assertWritableFolder(statePath: string): Promise<void> {
  const folder = dirname(statePath);
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await access(folder, constants.W_OK);
  } catch (error) {
    let code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      let existing = dirname(folder);
      while (dirname(existing) !== existing && !(await stat(existing).then((entry) => entry.isDirectory(), () => false))) existing = dirname(existing);
      code = await access(existing, constants.W_OK).then(() => code, (reason: NodeJS.ErrnoException) => reason.code ?? code);
    }
    const reason = code === 'EROFS' ? 'the file system is read-only' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : 'it cannot be made or written';
    throw new StateFileError(statePath, `cannot be written: its folder ${folder}: ${reason} (${code ?? (error as Error).message}).`, 'Give --state a path in a folder you can write.');
  }
}

/**
 * Holds the state and, with `--state`, writes it to disk through the atomic writer (a temp file beside it, fsync,
 * rename: a crash or kill during a save leaves the previous file whole), debounced so a burst of requests costs one
 * write. The file is JSON lines: the small part of the state first, then one line per envelope, document, replayable
 * answer and in-memory document body (Base64), written a chunk at a time, so a million envelopes never become one
 * string.
 */
export class Store {
  state: State;
  /** Document bytes kept in memory, by key; a reset brings a new map (and with it new indexes derived from it). */
  blobs = new Map<string, Buffer>();
  private persistTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** Why the last save failed, until one works again. */
  private saveFailure: Error | undefined;
  /** When the state was last saved whole: what a failed save at stop loses is every change since. */
  savedAt: Date | undefined;
  /**
   * Told at once when a save fails after one that worked (the first of a run of failures, not each retry), and when
   * one works again (`undefined`): a change the emulator cannot keep is said when it happens, not only at stop.
   */
  onSaveProblem: ((failure: Error | undefined, savedAt: Date | undefined) => void) | undefined;
  /**
   * Document bytes too large for memory: beside the `--state` file (they are part of the state), else in a directory
   * of this process's own under the OS temp directory, removed when the process exits.
   */
  private readonly documentsPath: string;
  private documentsReady = false;

  constructor(
    state: State,
    private readonly statePath?: string,
  ) {
    this.state = state;
    this.documentsPath = statePath ? `${statePath}.documents` : join(tmpdir(), `esign-emulator-${randomUUID()}`);
  }

  static async open(statePath: string | undefined, initial: () => State): Promise<{ store: Store; restored: boolean }> {
    if (statePath) {
      await removeUnfinishedSaves(statePath);
      let restored: Store | undefined;
      try {
        restored = await Store.load(statePath);
      } catch (error) {
        if (error instanceof StateFileError) throw error;
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EISDIR') throw new StateFileError(statePath, 'is a directory.', 'Give --state the path of a file (it is made on the first change).');
        if (code !== 'ENOENT') throw new StateFileError(statePath, `cannot be read (${code ?? (error as Error).message}).`, 'Check the file and its permissions, or give --state another path.');
      }
      // The state file is written at each change: a folder it cannot go in (read-only, not ours) is said now, not then.
      await assertWritableFolder(statePath);
      if (restored) return { store: restored, restored: true };
    }
    return { store: new Store(initial(), statePath), restored: false };
  }

  private static async load(statePath: string): Promise<Store> {
    const input = createReadStream(statePath, { encoding: 'utf8', highWaterMark: WRITE_CHUNK });
    const lines = createInterface({ input, crlfDelay: Infinity });
    let store: Store | undefined;
    let lineNumber = 0;
    const parsed = (text: string): unknown => {
      try {
        return JSON.parse(text);
      } catch (error) {
        throw new StateFileError(statePath, `not JSON (${(error as Error).message}); the file is damaged.`, undefined, lineNumber);
      }
    };
    for await (const text of lines) {
      lineNumber++;
      if (!store) {
        const head = parsed(text) as Record<string, unknown> | null;
        const version = Number(/^esign-emulator-state\/(\d+)$/.exec(String(head?.format))?.[1]);
        if (version > STATE_FORMAT_VERSION) {
          throw new StateFileError(statePath, `was written by a newer esign (state format ${version}; this one reads up to ${STATE_FORMAT_VERSION}).`, 'Run the newer esign, or move the file away to start afresh.');
        }
        if (!READABLE_FORMAT_VERSIONS.includes(version)) throw new StateFileError(statePath, `is not a state file of this emulator (format ${STATE_FORMAT} expected).`);
        const { format: _format, apiCalls, ...rest } = head!;
        store = new Store(
          {
            ...(rest as Omit<State, 'envelopes' | 'documents' | 'idempotency' | 'apiCalls'>),
            apiCalls: ApiCallLog.from((apiCalls ?? []) as ApiCallRecord[]),
            envelopes: new EnvelopeTable(),
            documents: new Map(),
            idempotency: new IdempotencyLedger(),
          },
          statePath,
        );
        continue;
      }
      if (text === '') continue;
      const line = parsed(text);
      if (!isStateLine(line)) throw new StateFileError(statePath, "is not a record of this emulator's state; the file is damaged.", undefined, lineNumber);
      if (line[0] === 'envelope') store.state.envelopes.add(line[1], line[2]);
      else if (line[0] === 'document') store.state.documents.set(line[1].documentId, line[1]);
      else if (line[0] === 'idempotency') {
        // The slot is `<scope>:<Idempotency-Key>`; a scope (an environment and an account id, or in files of earlier
        // versions a key's hex hash) has no colon, so the first colon ends it.
        const colon = line[1].indexOf(':');
        store.state.idempotency.set(line[1].slice(0, colon), line[1].slice(colon + 1), line[2]);
      }
      else store.blobs.set(line[1], Buffer.from(line[2], 'base64'));
    }
    if (!store) throw new StateFileError(statePath, 'is empty.');
    store.state.idempotency.expire();
    return store;
  }

  /** Call after every change. */
  changed(): void {
    if (!this.statePath || this.persistTimer) return;
    this.persistTimer = setTimeout(() => {
      this.persistTimer = undefined;
      // A failed save is reported through onSaveProblem; the next change, and the stop, try again.
      this.flush().catch(() => {});
    }, 50);
  }

  private saved(failure: Error | undefined): void {
    if (failure === undefined) this.savedAt = new Date();
    if ((failure === undefined) !== (this.saveFailure === undefined)) this.onSaveProblem?.(failure, this.savedAt);
    this.saveFailure = failure;
  }

  async flush(): Promise<void> {
    if (!this.statePath) return;
    if (this.persistTimer) {
      clearTimeout(this.persistTimer);
      this.persistTimer = undefined;
    }
    const path = this.statePath;
    const save = this.writing.then(() => this.save(path));
    this.writing = save.then(
      () => this.saved(undefined),
      (error: unknown) => this.saved(error as Error),
    );
    await save;
  }

  private async save(path: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const { openAtomic } = await import('../files/atomic-file.js');
    // The state holds webhook secrets and documents: readable by this user only.
    const file = await openAtomic(path, { mode: 0o600, overwrite: true, label: `--state ${path}`, finishAfterInterrupt: true });
    try {
      let chunk = `${JSON.stringify(stateHead(this.state))}\n`;
      const emit = async (line: Line): Promise<void> => {
        chunk += `${JSON.stringify(line)}\n`;
        if (chunk.length >= WRITE_CHUNK) {
          await file.write(chunk);
          chunk = '';
        }
      };
      const { envelopes, documents, idempotency } = this.state;
      for (const envelope of envelopes.values()) await emit(envelope.status === 'VOIDED' ? ['envelope', envelope, envelopes.voidedAtOf(envelope)] : ['envelope', envelope]);
      for (const document of documents.values()) await emit(['document', document]);
      for (const [scope, key, record] of idempotency.entries()) await emit(['idempotency', `${scope}:${key}`, record]);
      for (const [id, bytes] of this.blobs) await emit(['blob', id, bytes.toString('base64')]);
      await file.write(chunk);
      await file.commit();
    } catch (error) {
      await file.abort();
      throw error;
    }
  }

  /**
   * Starts over from `state`. The document bytes on disk go too, once the new state is saved: a stop in between
   * leaves the old state with its documents whole.
   */
  async reset(state: State): Promise<void> {
    this.state = state;
    this.blobs = new Map();
    await this.flush();
    let names: string[];
    try {
      names = await readdir(this.documentsPath);
    } catch (error) {
      // Nothing was ever spilled (also in an earlier run on the same --state).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) await rm(join(this.documentsPath, name), { force: true });
  }

  /** Where spilled document bytes are (the directory may not exist yet: then nothing was spilled). */
  documentDirectory(): string {
    return this.documentsPath;
  }

  /** The document directory, created 0700 on first use. */
  preparedDocumentDirectory(): string {
    if (this.documentsReady) return this.documentsPath;
    ensurePrivateDirectory(this.documentsPath);
    if (!this.statePath) {
      const path = this.documentsPath;
      process.once('exit', () => rmSync(path, { recursive: true, force: true }));
    }
    this.documentsReady = true;
    return this.documentsPath;
  }
}
