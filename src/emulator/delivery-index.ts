import type { DeliveryRecord, State } from './store.js';

/**
 * Each webhook's deliveries in the order they were made, per deliveries object (a start, a `--state` load or a reset
 * brings a new one, indexed on first use), so that a page of one webhook's deliveries does not read every delivery.
 */
const indexes = new WeakMap<State['deliveries'], Map<string, DeliveryRecord[]>>();

function listIn(index: Map<string, DeliveryRecord[]>, webhookId: string): DeliveryRecord[] {
  let list = index.get(webhookId);
  if (!list) {
    list = [];
    index.set(webhookId, list);
  }
  return list;
}

function deliveriesByWebhook(state: State): Map<string, DeliveryRecord[]> {
  let index = indexes.get(state.deliveries);
  if (!index) {
    index = new Map();
    for (const delivery of Object.values(state.deliveries)) listIn(index, delivery.webhookId).push(delivery);
    indexes.set(state.deliveries, index);
  }
  return index;
}

/** Stores a new delivery: the one way deliveries are added. */
export function addDelivery(state: State, delivery: DeliveryRecord): void {
  const index = deliveriesByWebhook(state);
  state.deliveries[delivery.id] = delivery;
  listIn(index, delivery.webhookId).push(delivery);
}

/** A webhook's deliveries, oldest first. */
export function deliveriesOf(state: State, webhookId: string): readonly DeliveryRecord[] {
  return deliveriesByWebhook(state).get(webhookId) ?? [];
}

/** Forgets the deliveries of a deleted webhook. */
export function dropDeliveriesOf(state: State, webhookId: string): void {
  for (const delivery of deliveriesOf(state, webhookId)) delete state.deliveries[delivery.id];
  deliveriesByWebhook(state).delete(webhookId);
}
