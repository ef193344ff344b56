import type { FastifyInstance } from 'fastify';
import type { Events } from '../events.js';
import type { EmulatorOptions } from '../options.js';
import type { Store } from '../store.js';

export function registerLegacyRoutes(_app: FastifyInstance, _deps: { store: Store; options: EmulatorOptions; events: Events }): void {}
