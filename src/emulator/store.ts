import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ensurePrivateDirectory } from './private-directory.js';

export interface PageInfo {
  page: number;
  width: number;
  height: number;
  rotate: number;
}

export type EnvelopeStatus = 'DRAFT' | 'SENT' | 'COMPLETED' | 'VOIDED' | 'DECLINED' | 'EXPIRED';
export type ParticipantStatus = 'PENDING' | 'NOTIFIED' | 'SIGNED' | 'APPROVED' | 'REFUSED';
export type DocumentStatus = 'AWAITING_UPLOAD' | 'PROCESSING' | 'AWAITING_CONVERSION_CONFIRMATION' | 'READY' | 'FAILED';
export type DeliveryMethod = 'EMAIL' | 'SMS' | 'WHATSAPP';

export interface Named {
  id: string;
  name: string;
}

export interface HistoryEntry {
  id: string;
  at: string;
  action: string;
  /** `{type: 'API_INTEGRATION', integration: {id, name}, credential: {id, prefix}, responsibleUser: {id, name}}`, or a participant. */
  actor: Record<string, unknown>;
  details?: Record<string, unknown>;
}

export interface ParticipantRecord {
  id: string;
  name: string;
  email: string;
  phoneNumber?: string;
  deliveryMethod: DeliveryMethod;
  role: 'SIGNER' | 'APPROVER';
  signingOrder: number;
  status: ParticipantStatus;
  templateParticipantId?: string;
  /** Bumped when a correction invalidates the signing link. */
  linkVersion: number;
  refusalReason?: string;
  completedAt?: string;
}

/** A field as stored: one page, whole box, in displayed top-left PDF points. */
export interface StoredField {
  id: string;
  participantId: string;
  type: string;
  pages: number[];
  position: { x: number; y: number };
  size: { width: number; height: number };
  properties?: Record<string, unknown>;
}

/**
 * send-now fields wait here until every document is processed (an upload clears a document's fields): with an anchor,
 * or with pages + position.
 */
export interface PendingAnchorField {
  documentId: string;
  participantId: string;
  type: string;
  anchor?: Record<string, unknown>;
  pages?: number[];
  position?: { x: number; y: number };
  size: { width: number; height: number };
  properties?: Record<string, unknown>;
  id: string;
}

export interface EnvelopeRecord {
  id: string;
  title: string;
  message: string;
  status: EnvelopeStatus;
  deadline: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt?: string;
  completedAt?: string;
  folderId: string;
  sender: Named;
  cancellationReason?: string;
  participants: ParticipantRecord[];
  documentIds: string[];
  history: HistoryEntry[];
  /** Created by send-now: sent by the emulator itself once documents are ready. */
  sendWhenReady?: boolean;
  pendingAnchors?: PendingAnchorField[];
  templateId?: string;
  /** Legacy v2 observers. */
  observers?: { email: string; notifyOnSent: boolean; notifyOnCompletion: boolean }[];
}

export interface DocumentRecord {
  documentId: string;
  envelopeId?: string;
  templateId?: string;
  fileName: string;
  contentType: string;
  status: DocumentStatus;
  uploadExpiresAt: string;
  /** When PROCESSING ends (epoch ms); the status is derived lazily from the clock. */
  processingUntil?: number;
  /** What processing will end in once the delay passes. */
  processingOutcome?: DocumentStatus;
  failureReason?: string;
  convertedFromDocx?: boolean;
  byteLength?: number;
  pageCount?: number;
  pages?: PageInfo[];
  fields: StoredField[];
  sha256?: string;
  createdAt: string;
}

export interface ContactRecord {
  id: string;
  name: string;
  email: string;
  phoneNumber?: string;
  company?: string;
  createdAt: string;
  updatedAt: string;
}

export interface FolderRecord {
  id: string;
  name: string;
  parentId: string | null;
  createdAt: string;
}

export interface TemplateRecord {
  id: string;
  name: string;
  description?: string;
  documentIds: string[];
  participants: { templateParticipantId: string; role: 'SIGNER' | 'APPROVER'; label: string; signingOrder: number }[];
  /** Fields by template participant, placed on the template's documents. */
  fields: (StoredField & { documentId: string; templateParticipantId: string })[];
  createdAt: string;
}

export interface WebhookRecord {
  id: string;
  url: string;
  events: string[];
  isActive: boolean;
  secret: string;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttempt {
  at: string;
  status: number | null;
  error?: string;
  durationMs: number;
  responseBody?: string;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: Record<string, unknown>;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface OutboxMessage {
  id: string;
  at: string;
  envelopeId: string;
  /** Null for a message to a legacy observer, who is no participant. */
  participantId: string | null;
  channel: DeliveryMethod;
  to: string;
  kind: 'INVITATION' | 'REMINDER' | 'COMPLETED' | 'VOIDED' | 'OBSERVER_SENT' | 'OBSERVER_COMPLETED';
  signingOrder: number | null;
  linkVersion: number | null;
}

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: unknown;
  headers: Record<string, string>;
  createdAt: number;
}

export interface ApiCallRecord {
  id: string;
  at: string;
  method: string;
  path: string;
  operationId: string;
  status: number;
  keyPrefix: string;
}

export interface State {
  account: Named & { plan: string };
  integration: Named;
  responsibleUser: Named & { email: string };
  capabilities: string[];
  envelopes: Record<string, EnvelopeRecord>;
  documents: Record<string, DocumentRecord>;
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
  apiCalls: ApiCallRecord[];
  idempotency: Record<string, IdempotencyRecord>;
  /** Invitations and reminders counted toward the account's message limit. */
  messagesSent: number;
  envelopesCreated: number;
}

export function newId(): string {
  return randomUUID();
}

export function nowIso(): string {
  return new Date().toISOString();
}

export function emptyState(): State {
  return {
    account: { id: newId(), name: 'Emulated Account', plan: 'BUSINESS' },
    integration: { id: newId(), name: 'esign emulator integration' },
    responsibleUser: { id: newId(), name: 'Riley Responsible', email: 'riley@example.test' },
    capabilities: ['ANCHOR_SEARCH', 'SEND_NOW', 'TEMPLATES', 'WEBHOOKS', 'SMS_DELIVERY', 'WHATSAPP_DELIVERY'],
    envelopes: {},
    documents: {},
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
    apiCalls: [],
    idempotency: {},
    messagesSent: 0,
    envelopesCreated: 0,
  };
}

/**
 * Holds the state and, with `--state`, writes it to disk atomically (temp file + rename), debounced so a burst of
 * requests costs one write. Document bytes live beside the JSON state in the same file, Base64-encoded.
 */
export class Store {
  state: State;
  readonly blobs = new Map<string, Buffer>();
  private persistTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
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

  static async open(statePath: string | undefined, initial: () => State): Promise<{ store: Store; restored: boolean }> {
    if (statePath) {
      try {
        const saved = JSON.parse(await readFile(statePath, 'utf8')) as { state: State; blobs: Record<string, string> };
        const store = new Store(saved.state, statePath);
        for (const [id, data] of Object.entries(saved.blobs ?? {})) store.blobs.set(id, Buffer.from(data, 'base64'));
        return { store, restored: true };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`--state ${statePath}: ${(error as Error).message}`);
      }
    }
    return { store: new Store(initial(), statePath), restored: false };
  }

  /** Call after every change. */
  changed(): void {
    if (!this.statePath || this.persistTimer) return;
    this.persistTimer = setTimeout(() => {
      this.persistTimer = undefined;
      void this.flush();
    }, 50);
  }

  async flush(): Promise<void> {
    if (!this.statePath) return;
    if (this.persistTimer) {
      clearTimeout(this.persistTimer);
      this.persistTimer = undefined;
    }
    const path = this.statePath;
    const snapshot = JSON.stringify({
      state: this.state,
      blobs: Object.fromEntries([...this.blobs].map(([id, data]) => [id, data.toString('base64')])),
    });
    this.writing = this.writing.then(async () => {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${randomUUID()}.tmp`;
      // The state holds webhook secrets and documents: readable by this user only.
      await writeFile(temporary, snapshot, { flag: 'wx', mode: 0o600 });
      await rename(temporary, path);
    });
    await this.writing;
  }

  reset(state: State): void {
    this.state = state;
    this.blobs.clear();
    this.changed();
  }
}
