import type { IncomingMessage } from 'node:http';
import type { EmulatorOptions } from './options.js';
import type { Store } from './store.js';
import type { Events } from './events.js';
import type { Principal } from './principal.js';

/** What the envelope lifecycle works on: the store, the options it runs under, and where events go. */
export interface LifecycleDeps {
  store: Store;
  options: EmulatorOptions;
  events: Events;
}

/** What a route handler gets: the parsed request and the emulator's state, nothing of fastify. */
export interface RouteContext extends LifecycleDeps {
  operationId: string;
  params: Record<string, string>;
  query: Record<string, string | undefined>;
  body: unknown;
  /** The unread request stream, for raw (non-JSON) bodies such as a PDF to validate. */
  raw: IncomingMessage;
  headers: Record<string, string | string[] | undefined>;
  principal: Principal;
  /** Origin of the emulator as the client reached it, for signed addresses. */
  origin: string;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

/** One route file answers the operations of one resource, keyed by operationId. */
export type RouteTable = Record<string, RouteHandler>;
