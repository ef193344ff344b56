import type { WebhookEventType } from './events.js';
import type { EmulatorOptions } from './options.js';
import type { Store } from './store.js';

export interface WebhookDispatcher {
  emit(type: WebhookEventType, data: Record<string, unknown>): void;
  stop(): void;
}

export function createWebhookDispatcher(_store: Store, _options: EmulatorOptions): WebhookDispatcher {
  return { emit: () => {}, stop: () => {} };
}
