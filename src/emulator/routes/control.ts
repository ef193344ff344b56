import type { FastifyInstance } from 'fastify';
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

/** `/_emulator/*`: test controls, no API key (pins.md, "Emulator control surface"). */
export function registerControlRoutes(app: FastifyInstance, deps: ControlDeps): void {
  const { store, options, requestLog } = deps;
  app.get('/_emulator/health', async () => ({ status: 'ok', environment: options.environment }));
  app.get('/_emulator/outbox', async () => ({ data: store.state.outbox }));
  app.get('/_emulator/request-log', async () => requestLog);
  app.get('/_emulator/webhook-deliveries', async () => ({ data: Object.values(store.state.deliveries) }));
  app.post('/_emulator/reset', async () => {
    store.reset(options.seed ? seedState() : emptyState());
    if (options.seed) await seedTemplates(store);
    requestLog.authorizationOnSignedAddresses = 0;
    requestLog.requests = 0;
    return { status: 'reset' };
  });
  registerParticipantActions(app, deps);
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
