/** The records the emulator keeps: envelopes, documents and every other resource, as stored (not as answered). */
import type { DeliveryMethod, EnvelopeStatus, ParticipantRole, WebhookDeliveryStatus } from '../shared/values.js';

export type { DeliveryMethod, EnvelopeStatus };

export interface PageInfo {
  page: number;
  width: number;
  height: number;
  rotate: number;
}

export type ParticipantStatus = 'PENDING' | 'NOTIFIED' | 'SIGNED' | 'APPROVED' | 'REFUSED';
export type DocumentStatus = 'AWAITING_UPLOAD' | 'PROCESSING' | 'AWAITING_CONVERSION_CONFIRMATION' | 'READY' | 'FAILED';

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
  role: ParticipantRole;
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
  /** Creation order, unique in the account: the lists' order and their cursors. */
  seq: number;
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
  participants: readonly ParticipantRecord[];
  documentIds: readonly string[];
  /**
   * What happened since the creation, oldest first (a record from an older state file holds its creation entry here
   * too); `historyOf` reads the whole history.
   */
  history: readonly HistoryEntry[];
  /**
   * What the ENVELOPE_CREATED entry is made of when the history is read, held as references to what the record
   * already has, so that a create makes no entry, id or details object: each would be copied by the young-generation
   * collections under a stream of creates, and a million drafts would hold them all.
   */
  createdBy?: Readonly<Record<string, unknown>>;
  createdTitle?: string;
  createdFolderId?: string;
  createdDetails?: Record<string, unknown> | undefined;
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
  participants: { templateParticipantId: string; role: ParticipantRole; label: string; signingOrder: number }[];
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
  status: WebhookDeliveryStatus;
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
