import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isValidIdempotencyKey } from '../api/idempotency.js';
import { operations, type Operation } from '../api/operations.js';
import { interruption } from '../core/interrupt.js';
import { parseKey } from '../shared/keys.js';
import { bearerCredential } from './authorization.js';
import type { RouteContext, RouteTable } from './context.js';
import type { Principal } from './principal.js';
import { ApiFailure } from './errors.js';
import { JSON_BODY_LIMIT_BYTES, jsonBodyTooLarge, mediaType, notJsonBody, parseJsonBody, withRawBodies } from './json-body.js';
import { Events, type EventSink } from './events.js';
import { defaultEmulatorOptions, type EmulatorOptions } from './options.js';
import { emptyState, Store } from './store.js';
import { loadRouteModules } from './routes/index.js';
import { replayedWebhookAnswer } from './routes/webhooks.js';

export interface Emulator {
  app: FastifyInstance;
  store: Store;
  options: EmulatorOptions;
  events: Events;
  /** Authorization headers that reached the upload and download addresses (they must never arrive). */
  requestLog: { authorizationOnSignedAddresses: number; requests: number };
  url: string;
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The headers of a stored answer that had none of its own: one object for all of them. */
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Operations whose body is a file, not JSON (the PDF to validate). */
const RAW_BODY_OPERATIONS = new Set(['validateSealedDocument']);

/** `{envelopeId}` → `:envelopeId`; a literal colon (`anchors:find`) is written `::` for fastify's router. */
function routePath(path: string): string {
  return path.replace(/:/g, '::').replace(/\{(\w+)\}/g, ':$1');
}

function fingerprint(request: FastifyRequest): string {
  // The one-shot hash: no Hash object per request.
  return hash('sha256', `${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`);
}

function sendFailure(reply: FastifyReply, failure: ApiFailure): FastifyReply {
  return reply.code(failure.status).headers(failure.headers).send(failure.body);
}

async function loadRouteTables(): Promise<RouteTable> {
  const modules = await loadRouteModules();
  return Object.assign({}, ...modules.map((module) => module.routes)) as RouteTable;
}

export async function startEmulator(partial: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  const options: EmulatorOptions = { ...defaultEmulatorOptions, ...partial, faults: { ...defaultEmulatorOptions.faults, ...partial.faults } };
  const random = options.random ?? Math.random;
  const { default: Fastify } = await import('fastify');
  const { seedState } = await import('./seed.js');
  const { store } = await Store.open(options.statePath, () => (options.seed ? seedState() : emptyState()));
  store.onSaveProblem = options.onStateSaveProblem;
  if (options.seed && Object.keys(store.state.templates).length === 0) {
    const { seedTemplates } = await import('./template-seed.js');
    await seedTemplates(store);
  }
  const { createWebhookDispatcher } = await import('./webhook-dispatcher.js');
  const dispatcher = createWebhookDispatcher(store, options);
  const sink: EventSink = (type, data) => dispatcher.emit(type, data);
  const events = new Events(store, options, sink);
  if (options.preloadDrafts) {
    const { preloadDrafts } = await import('./lifecycle.js');
    preloadDrafts({ store, options, events }, options.preloadDrafts);
  }
  if (options.preloadContacts) {
    const { preloadContacts } = await import('./routes/contacts.js');
    preloadContacts(store, options.preloadContacts);
  }
  const requestLog = { authorizationOnSignedAddresses: 0, requests: 0 };

  const app = Fastify({
    logger: false,
    // Only JSON is read by fastify: files (uploads, validate) are streamed by their routes, against --max-document-bytes.
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: false,
  });
  // Every route reads JSON only (fastify's own text/plain parser would hand a route a string), but those registered
  // through withRawBodies, which stream their file themselves.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, _payload, done) => {
    done(notJsonBody(mediaType(request.headers['content-type'])) as unknown as Error, undefined);
  });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiFailure) return sendFailure(reply, error);
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) return sendFailure(reply, jsonBodyTooLarge(request.headers['content-length']));
    if (status && status < 500) return sendFailure(reply, new ApiFailure(status, 'BAD_REQUEST', (error as Error).message));
    return sendFailure(reply, new ApiFailure(500, 'INTERNAL_ERROR', `Emulator error: ${(error as Error).message}`));
  });
  app.setNotFoundHandler((request, reply) =>
    sendFailure(reply, new ApiFailure(404, 'RESOURCE_NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`)),
  );

  /** The account's requests in the current second, authenticated ones only: what `--rate-limit` is held against. */
  const rateWindow = { second: 0, count: 0 };
  function countRequest(): void {
    const second = Math.floor(Date.now() / 1000);
    if (second !== rateWindow.second) {
      rateWindow.second = second;
      rateWindow.count = 0;
    }
    rateWindow.count++;
  }

  /**
   * Every 429 carries Retry-After and RateLimit-Limit, -Remaining and -Reset (pins.md, "Rate limit"). An injected 429
   * without `--rate-limit` plays a ceiling just reached: the requests of this second.
   */
  function rateLimited(message: string, retryAfterSeconds: number): ApiFailure {
    const wait = String(retryAfterSeconds);
    return new ApiFailure(429, 'RATE_LIMITED', message, undefined, {
      'retry-after': wait,
      'ratelimit-limit': String(options.rateLimit ?? rateWindow.count),
      'ratelimit-remaining': '0',
      'ratelimit-reset': wait,
    });
  }

  /** Counts an authenticated request toward the account's ceiling; past it, the 429 to answer. */
  function rateLimit(reply: FastifyReply): ApiFailure | undefined {
    countRequest();
    if (!options.rateLimit) return undefined;
    if (rateWindow.count > options.rateLimit) return rateLimited(`Account request ceiling of ${options.rateLimit}/s reached.`, 1);
    reply.header('ratelimit-limit', String(options.rateLimit)).header('ratelimit-remaining', String(options.rateLimit - rateWindow.count)).header('ratelimit-reset', '1');
    return undefined;
  }

  /** The principals of accepted Authorization headers: a client sends the same one with every request. */
  const principals = new Map<string, Principal>();
  function authenticate(request: FastifyRequest): Principal {
    const header = request.headers.authorization;
    const known = header === undefined ? undefined : principals.get(header);
    if (known) return known;
    const key = bearerCredential(header, 'API key');
    const parsed = parseKey(key);
    if (!options.keys.includes(key)) {
      if (parsed && parsed.mode !== options.environment) {
        throw new ApiFailure(401, 'KEY_ENVIRONMENT_MISMATCH', `A ${parsed.mode === 'production' ? 'live' : 'test'} key is not accepted by the ${options.environment} host.`);
      }
      throw new ApiFailure(401, 'INVALID_API_KEY', 'The API key is invalid or revoked.');
    }
    const principal = { prefix: parsed?.prefix ?? '' };
    principals.set(header!, principal);
    return principal;
  }

  const tables = await loadRouteTables();
  const inFlight = new Map<string, Promise<void>>();

  function register(target: FastifyInstance, operation: Operation): void {
    const handler = tables[operation.id];
    if (!handler) return;
    target.route({
      method: operation.method,
      url: routePath(operation.path),
      handler: async (request, reply) => {
        requestLog.requests++;
        if (options.faults.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.faults.latencyMs));
        // A request without a valid key is no request of the account: it is refused before it could use the ceiling.
        const principal = authenticate(request);
        const limited = rateLimit(reply);
        if (limited) return sendFailure(reply, limited);
        const idempotencyKey = request.headers['idempotency-key'];
        const roll = random();
        const faults = options.faults;
        const resetAfterCommit = roll < faults.reset;
        if (!resetAfterCommit && roll < faults.reset + faults.unavailable) {
          return sendFailure(reply, new ApiFailure(503, 'SERVICE_UNAVAILABLE', 'Injected fault: service unavailable.', undefined, { 'retry-after': '0' }));
        }
        if (!resetAfterCommit && roll < faults.reset + faults.unavailable + faults.rateLimited) {
          return sendFailure(reply, rateLimited('Injected fault: rate limited.', 0));
        }
        if (resetAfterCommit && !(operation.method === 'POST' && typeof idempotencyKey === 'string')) {
          request.raw.socket.destroy();
          return reply;
        }

        let idempotencyScope: string | undefined;
        let idempotencySlot: string | undefined;
        let print: string | undefined;
        let releaseSlot: (() => void) | undefined;
        // Required on the operations marked (I); honoured on any other POST that sends one (a client may, to retry it),
        // except those that change nothing (a search, a check: "no Idempotency-Key; repeating is safe"), whose answer
        // must follow the document, never be replayed.
        if (operation.idempotent || (operation.method === 'POST' && !operation.readOnly && idempotencyKey !== undefined)) {
          if (typeof idempotencyKey !== 'string' || !isValidIdempotencyKey(idempotencyKey)) {
            throw recordedFailure(operation, request, principal, new ApiFailure(400, 'IDEMPOTENCY_KEY_INVALID', 'This operation requires an Idempotency-Key header of 8 to 255 printable ASCII characters.'));
          }
          // Scoped to the account, not to the key: a key stands for the whole account (contract, Authentication 3), so a
          // retry after a key rotation replays. Each environment keeps its own (a --state file may serve both in turn).
          idempotencyScope = `${options.environment}.${store.state.account.id}`;
          idempotencySlot = `${idempotencyScope}:${idempotencyKey}`;
          print = fingerprint(request);
          // The same key in flight: wait for it, then answer as a replay (or run, if it failed and stored nothing).
          while (inFlight.has(idempotencySlot)) await inFlight.get(idempotencySlot);
          const stored = store.state.idempotency.get(idempotencyScope, idempotencyKey);
          if (stored) {
            if (stored.fingerprint !== print) {
              throw recordedFailure(operation, request, principal, new ApiFailure(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for a different request.'));
            }
            // A replay is a call the key made, answered as the first was.
            recordCall(operation, request, stored.status, principal);
            reply.code(stored.status).headers({ ...stored.headers, 'idempotent-replayed': 'true' });
            if (stored.body === undefined) return reply.send();
            return reply.type(JSON_TYPE).send(replayedWebhookAnswer(store.state, operation.id, request.params as Record<string, string>, stored.body));
          }
          let settle!: () => void;
          inFlight.set(idempotencySlot, new Promise<void>((resolve) => (settle = resolve)));
          releaseSlot = () => {
            inFlight.delete(idempotencySlot!);
            settle();
          };
        }
        const context: RouteContext = {
          operationId: operation.id,
          params: request.params as Record<string, string>,
          query: request.query as Record<string, string | undefined>,
          body: request.body,
          raw: request.raw,
          headers: request.headers,
          principal,
          store,
          options,
          events,
          origin: `${request.protocol}://${request.headers.host ?? `${options.host}:${options.port}`}`,
        };
        try {
          const result = await handler(context);
          recordCall(operation, request, result.status, principal);
          // Only successes are replayed: a refused request may be fixed and sent again with the same key.
          // Serialized once: the same text is sent now and kept for replays (less memory than the object).
          const text = result.body === undefined ? undefined : JSON.stringify(result.body);
          if (idempotencyScope && typeof idempotencyKey === 'string' && print && result.status < 400) {
            store.state.idempotency.set(idempotencyScope, idempotencyKey, { fingerprint: print, status: result.status, body: text, headers: result.headers ?? NO_HEADERS, createdAt: Date.now() });
            store.changed();
          }
          if (resetAfterCommit) {
            // The request was applied; only a retry with the same Idempotency-Key avoids a duplicate.
            request.raw.socket.destroy();
            return reply;
          }
          reply.code(result.status);
          if (result.headers) reply.headers(result.headers);
          return text === undefined ? reply.send() : reply.type(JSON_TYPE).send(text);
        } catch (error) {
          if (error instanceof ApiFailure) recordCall(operation, request, error.status, principal);
          throw error;
        } finally {
          releaseSlot?.();
        }
      },
    });
  }

  /** A refusal of the request itself, recorded in the call log as the handler's refusals are. */
  function recordedFailure(operation: Operation, request: FastifyRequest, principal: Principal, failure: ApiFailure): ApiFailure {
    recordCall(operation, request, failure.status, principal);
    return failure;
  }

  function recordCall(operation: Operation, request: FastifyRequest, status: number, principal: Principal): void {
    const { url } = request;
    const query = url.indexOf('?');
    store.state.apiCalls.record(request.method, query < 0 ? url : url.slice(0, query), operation.id, status, principal.prefix);
  }

  const apiOperations = operations.filter((operation) => operation.id !== 'createEnvelopeV2');
  for (const operation of apiOperations) if (!RAW_BODY_OPERATIONS.has(operation.id)) register(app, operation);
  withRawBodies(app, (scope) => {
    for (const operation of apiOperations) if (RAW_BODY_OPERATIONS.has(operation.id)) register(scope, operation);
  });

  const { registerLegacyRoutes } = await import('./routes/legacy.js');
  registerLegacyRoutes(app, { store, options, events });
  const { registerSignedAddressRoutes } = await import('./routes/signed-addresses.js');
  registerSignedAddressRoutes(app, { store, options, events, requestLog });
  const { resumeProcessing } = await import('./processing.js');
  resumeProcessing({ store, options, events });
  const { registerControlRoutes } = await import('./routes/control.js');
  registerControlRoutes(app, { store, options, events, requestLog, dispatcher });

  const address = await app.listen({ host: options.host, port: options.port });
  return {
    app,
    store,
    options,
    events,
    requestLog,
    url: address,
    async close() {
      dispatcher.stop();
      await app.close();
      // A signal's forced exit would cut a large state's save short and lose the changes since the last one.
      await interruption.finishing(store.flush());
    },
  };
}
