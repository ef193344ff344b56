import type { Principal } from './principal.js';
import { GroupedIndex } from './derived.js';
import type { EmulatorOptions } from './options.js';
import { newId, nowIso, type State, type Store } from './store.js';
import type { EnvelopeRecord, HistoryEntry, OutboxMessage, ParticipantRecord } from './records.js';
import type { WebhookEventType } from '../shared/values.js';
import { uuidV5 } from '../shared/uuid.js';

export type { WebhookEventType };

/** Delivers an event to subscribed endpoints; the webhook module provides it. */
export type EventSink = (type: WebhookEventType, data: Record<string, unknown>) => void;

/** Each envelope's messages in the order they were sent, so that one envelope's are found without reading them all. */
const messagesByEnvelope = new GroupedIndex((outbox: State['outbox']) => outbox, (message: OutboxMessage) => message.envelopeId);

/** The messages the service would have sent about one envelope, in the order they were sent. */
export function messagesOf(state: State, envelopeId: string): readonly OutboxMessage[] {
  return messagesByEnvelope.group(state.outbox, envelopeId);
}

function recordMessage(state: State, message: OutboxMessage): void {
  messagesByEnvelope.add(state.outbox, message, (outbox) => outbox.push(message));
}

/** The namespace of creation entries' ids: an envelope's is made from its id, so it is the same at every read. */
const CREATION_ENTRIES = '6f1c4a52-3c1e-4d8e-9a57-2b0f6e1d9c34';

/** An envelope's whole history, oldest first: its creation entry, made from the record, then the entries since. */
export function historyOf(envelope: EnvelopeRecord): readonly HistoryEntry[] {
  if (!envelope.createdBy) return envelope.history;
  const created: HistoryEntry = {
    id: uuidV5(envelope.id, CREATION_ENTRIES),
    at: envelope.createdAt,
    action: 'ENVELOPE_CREATED',
    actor: envelope.createdBy,
    details: { title: envelope.createdTitle, folderId: envelope.createdFolderId, ...envelope.createdDetails },
  };
  return [created, ...envelope.history];
}

/**
 * The side effects every route shares: history entries, participant notifications (the outbox, counted toward the
 * message limit) and webhook events.
 */
export class Events {
  constructor(
    private readonly store: Store,
    private readonly options: EmulatorOptions,
    private readonly sink: EventSink,
  ) {}

  private readonly apiActors = new Map<string, { integration: unknown; responsibleUser: unknown; actor: Readonly<Record<string, unknown>> }>();

  /**
   * History actor for an action made with a key: the integration, never the key itself. One frozen object per key
   * prefix, shared by every entry it made: each create keeps an entry, and four objects apiece add up over a million.
   */
  apiActor(principal: Principal): Readonly<Record<string, unknown>> {
    const { integration, responsibleUser } = this.store.state;
    const known = this.apiActors.get(principal.prefix);
    if (known && known.integration === integration && known.responsibleUser === responsibleUser) return known.actor;
    const actor = deepFreeze({
      type: 'API_INTEGRATION',
      name: integration.name,
      integration: { id: integration.id, name: integration.name },
      credential: { prefix: principal.prefix },
      responsibleUser: { id: responsibleUser.id, name: responsibleUser.name },
    });
    this.apiActors.set(principal.prefix, { integration, responsibleUser, actor });
    return actor;
  }

  history(envelope: EnvelopeRecord, action: string, actor: Record<string, unknown>, details?: Record<string, unknown>): void {
    const at = nowIso();
    const entry: HistoryEntry = details ? { id: newId(), at, action, actor, details } : { id: newId(), at, action, actor };
    // A first entry gets an array of its own size (a push would reserve 16 slots); the empty list is shared.
    if (envelope.history.length === 0) envelope.history = [entry];
    else (envelope.history as HistoryEntry[]).push(entry);
    envelope.updatedAt = at;
    this.store.changed();
  }

  /** Records what the service would have sent; invitations and reminders count toward the message limit. */
  notify(envelope: EnvelopeRecord, participant: ParticipantRecord, kind: OutboxMessage['kind']): OutboxMessage {
    const message: OutboxMessage = {
      id: newId(),
      at: nowIso(),
      envelopeId: envelope.id,
      participantId: participant.id,
      channel: participant.deliveryMethod,
      to: participant.deliveryMethod === 'EMAIL' ? participant.email : (participant.phoneNumber ?? participant.email),
      kind,
      signingOrder: participant.signingOrder,
      linkVersion: participant.linkVersion,
    };
    recordMessage(this.store.state, message);
    if (kind === 'INVITATION' || kind === 'REMINDER') this.store.state.messagesSent++;
    this.store.changed();
    return message;
  }

  /** Legacy observers (contract, "Events": notified on sending and on completion, per their creation flags). */
  notifyObservers(envelope: EnvelopeRecord, moment: 'SENT' | 'COMPLETED'): void {
    for (const observer of envelope.observers ?? []) {
      if (!(moment === 'SENT' ? observer.notifyOnSent : observer.notifyOnCompletion)) continue;
      recordMessage(this.store.state, {
        id: newId(),
        at: nowIso(),
        envelopeId: envelope.id,
        participantId: null,
        channel: 'EMAIL',
        to: observer.email,
        kind: moment === 'SENT' ? 'OBSERVER_SENT' : 'OBSERVER_COMPLETED',
        signingOrder: null,
        linkVersion: null,
      });
    }
    this.store.changed();
  }

  messagesLeft(): number {
    return this.options.messageLimit - this.store.state.messagesSent;
  }

  emit(type: WebhookEventType, data: Record<string, unknown>): void {
    this.sink(type, data);
  }
}

function deepFreeze<T extends Record<string, unknown>>(value: T): Readonly<T> {
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null) Object.freeze(inner);
  return Object.freeze(value);
}
