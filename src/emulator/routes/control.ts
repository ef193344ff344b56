import type { FastifyInstance } from 'fastify';
import type { Events } from '../events.js';
import type { EmulatorOptions } from '../options.js';
import { seedState } from '../seed.js';
import { emptyState, type Store } from '../store.js';
import type { WebhookDispatcher } from '../webhook-dispatcher.js';

export interface ControlDeps {
  store: Store;
  options: EmulatorOptions;
  events: Events;
  requestLog: { authorizationOnSignedAddresses: number; requests: number };
  dispatcher: WebhookDispatcher;
}

/** `/_emulator/*`: test controls, no API key (pins.md, "Emulator control surface"). */
export function registerControlRoutes(app: FastifyInstance, deps: ControlDeps): void {
  const { store, options, requestLog } = deps;
  app.get('/_emulator/health', async () => ({ status: 'ok', environment: options.environment }));
  app.get('/_emulator/outbox', async () => ({ data: store.state.outbox }));
  app.get('/_emulator/request-log', async () => requestLog);
  app.get('/_emulator/webhook-deliveries', async () => ({ data: Object.values(store.state.deliveries) }));
  app.post('/_emulator/reset', async () => {
    store.reset(options.seed ? seedState() : emptyState());
    requestLog.authorizationOnSignedAddresses = 0;
    requestLog.requests = 0;
    return { status: 'reset' };
  });
}
