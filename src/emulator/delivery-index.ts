import { Derived, entryIn } from './derived.js';
import type { DeliveryRecord, State } from './store.js';

/** Each webhook's deliveries in the order they were made, so that a page of one webhook's does not read them all. */
const deliveriesByWebhook = new Derived((deliveries: State['deliveries']) => {
  const index = new Map<string, DeliveryRecord[]>();
  for (const delivery of Object.values(deliveries)) entryIn(index, delivery.webhookId, () => []).push(delivery);
  return index;
});

/** Stores a new delivery: the one way deliveries are added. */
export function addDelivery(state: State, delivery: DeliveryRecord): void {
  const index = deliveriesByWebhook.of(state.deliveries);
  state.deliveries[delivery.id] = delivery;
  entryIn(index, delivery.webhookId, () => []).push(delivery);
}

/** A webhook's deliveries, oldest first. */
export function deliveriesOf(state: State, webhookId: string): readonly DeliveryRecord[] {
  return deliveriesByWebhook.of(state.deliveries).get(webhookId) ?? [];
}

/** Forgets the deliveries of a deleted webhook. */
export function dropDeliveriesOf(state: State, webhookId: string): void {
  for (const delivery of deliveriesOf(state, webhookId)) delete state.deliveries[delivery.id];
  deliveriesByWebhook.of(state.deliveries).delete(webhookId);
}
