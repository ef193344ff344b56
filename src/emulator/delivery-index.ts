import { GroupedIndex } from './derived.js';
import type { State } from './store.js';
import type { DeliveryRecord } from './records.js';

/** Each webhook's deliveries in the order they were made, so that a page of one webhook's does not read them all. */
const deliveriesByWebhook = new GroupedIndex((deliveries: State['deliveries']) => Object.values(deliveries), (delivery: DeliveryRecord) => delivery.webhookId);

/** Stores a new delivery: the one way deliveries are added. */
export function addDelivery(state: State, delivery: DeliveryRecord): void {
  deliveriesByWebhook.add(state.deliveries, delivery, (deliveries) => (deliveries[delivery.id] = delivery));
}

/** A webhook's deliveries, oldest first. */
export function deliveriesOf(state: State, webhookId: string): readonly DeliveryRecord[] {
  return deliveriesByWebhook.group(state.deliveries, webhookId);
}

/** Forgets the deliveries of a deleted webhook. */
export function dropDeliveriesOf(state: State, webhookId: string): void {
  for (const delivery of deliveriesOf(state, webhookId)) delete state.deliveries[delivery.id];
  deliveriesByWebhook.drop(state.deliveries, webhookId);
}
