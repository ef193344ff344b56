import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Events } from '../events.js';
import { ApiFailure } from '../errors.js';
import { findEnvelope, findParticipant, finishParticipant, participantActor, REASON_MAX, refuseForParticipant } from '../lifecycle.js';
import type { EmulatorOptions } from '../options.js';
import { seedState } from '../seed.js';
import { emptyState, type Store } from '../store.js';
import { seedTemplates } from '../template-seed.js';
import { lazySchema, parseBody } from '../validate.js';
import { envelopeView } from '../views.js';
import type { WebhookDispatcher } from '../webhook-dispatcher.js';

export interface ControlDeps {
  store: Store;
  options: EmulatorOptions;
  events: Events;
  requestLog: { authorizationOnSignedAddresses: number; requests: number };
  dispatcher: WebhookDispatcher;
}

/** Host names that can only mean this machine: a DNS name that resolves to loopback (rebinding) is not one of them. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `host[:port]` names the emulator itself: a loopback name (or the one it listens on) and the port it answered on. */
export function isOwnHost(host: string | undefined, listenHost: string, localPort: number | undefined): boolean {
  const match = host === undefined ? null : /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host.toLowerCase());
  if (!match) return false;
  const name = match[1]!;
  const port = match[2] === undefined ? 80 : Number(match[2]);
  const listening = listenHost.includes(':') ? `[${listenHost.toLowerCase()}]` : listenHost.toLowerCase();
  return (LOOPBACK_NAMES.has(name) || name === listening) && port === localPort;
}

/**
 * The control routes reset and read the whole state with no key, so only a client on this machine that addresses the
 * emulator by its own name may use them: a web page (any `Origin` but the emulator's own) or a rebound DNS name (a
 * foreign `Host`) gets 403.
 */
export function assertControlCaller(request: FastifyRequest, listenHost: string): void {
  const localPort = request.socket.localPort;
  const host = request.headers.host;
  if (!isOwnHost(host, listenHost, localPort)) {
    throw new ApiFailure(403, 'CONTROL_HOST_REFUSED', `The control routes answer only requests addressed to the emulator itself (Host: 127.0.0.1:${localPort}), not Host: ${host ?? '(none)'}.`, {
      host: host ?? null,
    });
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let originHost: string | undefined;
  try {
    const url = new URL(origin);
    if (url.protocol === 'http:' && url.pathname === '/') originHost = url.host;
  } catch {
    // not a URL ("null" from a sandboxed page, or garbage): foreign
  }
  if (originHost === undefined || !isOwnHost(originHost, listenHost, localPort)) {
    throw new ApiFailure(403, 'CONTROL_ORIGIN_REFUSED', `The control routes do not answer requests made by a web page (Origin: ${origin}).`, { origin });
  }
}

/** `/_emulator/*`: test controls, no API key (pins.md, "Emulator control surface"), for callers on this machine only. */
export function registerControlRoutes(app: FastifyInstance, deps: ControlDeps): void {
  registerOpenApi(app, deps.options);
  void app.register(async (control) => {
    control.addHook('onRequest', async (request) => assertControlCaller(request, deps.options.host));
    registerControls(control, deps);
    registerParticipantActions(control, deps);
  });
}

/** Where the emulator serves the OpenAPI document of the contract (docs/emulator.md). */
export const OPENAPI_PATH = '/_emulator/openapi.json';

/**
 * The OpenAPI document of the contract, with this emulator as its server. Outside the control routes' guard: it reads
 * and changes nothing of the state, so any caller that reaches the port may fetch it (a generator in a container).
 */
function registerOpenApi(app: FastifyInstance, options: EmulatorOptions): void {
  let document: Promise<Record<string, unknown>> | undefined;
  app.get(OPENAPI_PATH, async (request) => {
    document ??= import('../openapi.js').then(({ openApiDocument }) => openApiDocument());
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    const server = (await document).servers as { url: string; description: string }[];
    return { ...(await document), servers: [{ ...server[0]!, url: `http://${host}:${request.socket.localPort}` }] };
  });
}

function registerControls(app: FastifyInstance, deps: ControlDeps): void {
  const { store, options, requestLog } = deps;
  app.get('/_emulator/health', async () => ({ status: 'ok', environment: options.environment }));
  app.get('/_emulator/outbox', async () => ({ data: store.state.outbox }));
  app.get('/_emulator/request-log', async () => requestLog);
  app.get('/_emulator/webhook-deliveries', async () => ({ data: Object.values(store.state.deliveries) }));
  app.post('/_emulator/reset', async () => {
    await store.reset(options.seed ? seedState() : emptyState());
    if (options.seed) await seedTemplates(store);
    requestLog.authorizationOnSignedAddresses = 0;
    requestLog.requests = 0;
    return { status: 'reset' };
  });
}

/**
 * What a participant does from their signing link: sign, approve or refuse. `linkVersion`, when given, must be the
 * participant's current one (the one in their latest outbox invitation): an older link was invalidated by a
 * correction and gets 410 SIGNING_LINK_INVALID.
 */
const actionSchema = lazySchema((z) =>
  z.strictObject({ linkVersion: z.number().int().min(1).optional(), reason: z.string().trim().min(1).max(REASON_MAX).optional() }),
);

function registerParticipantActions(app: FastifyInstance, deps: ControlDeps): void {
  for (const action of ['sign', 'approve', 'refuse'] as const) {
    app.post<{ Params: { envelopeId: string; participantId: string } }>(
      `/_emulator/envelopes/:envelopeId/participants/:participantId/${action}`,
      async (request) => {
        const body = parseBody(await actionSchema(), request.body);
        const envelope = findEnvelope(deps, request.params.envelopeId);
        const participant = findParticipant(envelope, request.params.participantId);
        if (body.linkVersion !== undefined && body.linkVersion !== participant.linkVersion) {
          throw new ApiFailure(410, 'SIGNING_LINK_INVALID', `This signing link (version ${body.linkVersion}) was replaced by a newer invitation.`, {
            participantId: participant.id,
            linkVersion: body.linkVersion,
          });
        }
        const actor = participantActor(participant);
        if (action === 'refuse') refuseForParticipant(deps, envelope, participant, body.reason ?? 'Refused by the participant.', actor);
        else finishParticipant(deps, envelope, participant, action === 'sign' ? 'SIGNED' : 'APPROVED', actor);
        return envelopeView(deps.store.state, envelope);
      },
    );
  }
}
