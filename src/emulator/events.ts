import type { Principal } from './context.js';
import type { EmulatorOptions } from './options.js';
import { newId, nowIso, type EnvelopeRecord, type HistoryEntry, type OutboxMessage, type ParticipantRecord, type State, type Store } from './store.js';
import type { WebhookEventType } from '../shared/values.js';

export type { WebhookEventType };

/** Delivers an event to subscribed endpoints; the webhook module provides it. */
export type EventSink = (type: WebhookEventType, data: Record<string, unknown>) => void;

function listMessage(index: Map<string, OutboxMessage[]>, message: OutboxMessage): void {
  const list = index.get(message.envelopeId);
  if (list) list.push(message);
  else index.set(message.envelopeId, [message]);
}

/** Each envelope's messages, per outbox (a start, a `--state` load or a reset brings a new one, indexed on first use). */
const messageIndexes = new WeakMap<State['outbox'], Map<string, OutboxMessage[]>>();

function messagesByEnvelope(state: State): Map<string, OutboxMessage[]> {
  let index = messageIndexes.get(state.outbox);
  if (!index) {
    index = new Map();
    messageIndexes.set(state.outbox, index);
    for (const message of state.outbox) listMessage(index, message);
  }
  return index;
}

/** The messages the service would have sent about one envelope, in the order they were sent. */
export function messagesOf(state: State, envelopeId: string): readonly OutboxMessage[] {
  return messagesByEnvelope(state).get(envelopeId) ?? [];
}

function recordMessage(state: State, message: OutboxMessage): void {
  const index = messagesByEnvelope(state);
  state.outbox.push(message);
  listMessage(index, message);
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
    // A first entry gets an array of its own size (a push would reserve 16 slots): a million drafts hold one each.
    if (envelope.history.length === 0) envelope.history = [entry];
    else envelope.history.push(entry);
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
