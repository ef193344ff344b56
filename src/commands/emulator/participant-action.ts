import { UsageError } from '../../core/errors.js';
import { defineCommand, type CommandSpec } from '../../cli/command.js';
import { describeParticipant, envelopeIdOf, isTheirTurn, participantIdOf, renderEnvelope, type EnvelopeBody, type ParticipantBody } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { visible } from '../../output/sanitize.js';

type Action = 'sign' | 'approve' | 'refuse';

const roleFor: Record<Action, string | undefined> = { sign: 'SIGNER', approve: 'APPROVER', refuse: undefined };
const operationFor: Record<Action, string> = { sign: 'emulatorSignParticipant', approve: 'emulatorApproveParticipant', refuse: 'emulatorRefuseParticipant' };

/**
 * `esign emulator sign|approve|refuse`: what a participant would do from their signing link, through the emulator's
 * control routes, so a CI job can take envelopes to COMPLETED without curl. Only an emulator answers these.
 */
export function participantAction(action: Action): CommandSpec<never> {
  return defineCommand<{ envelopeId: string; participantId?: string; reason?: string }>({
    name: action,
    description: `Act as a participant of an envelope in the emulator: ${action} (default: whoever's turn it is)`,
    arguments: [
      envelopeIdArgument,
      { name: 'participantId', description: "participant id (default: the one whose turn it is)", required: false },
    ],
    options: action === 'refuse' ? [{ flags: '--reason <text>', description: 'why they refuse', defaultValue: 'Refused in the emulator' }] : [],
    examples: [`esign emulator ${action} 3f6c…`, `esign emulator ${action} 3f6c… 9a1b…`],
    async handler(args, ctx) {
      const client = await ctx.client();
      let participantId = args.participantId;
      let participant: ParticipantBody | undefined;
      if (!participantId) {
        const { body } = await client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId: args.envelopeId } });
        const role = roleFor[action];
        const turn = (body.participants ?? []).filter((candidate) => isTheirTurn(candidate) && (!role || candidate.role === role));
        if (turn.length === 0) {
          throw new UsageError(`Nobody${roleFor[action] ? ` who can ${action}` : ''} has their turn on envelope ${args.envelopeId} (status ${body.status ?? '?'}).`, 'Send the envelope first, or name the participant.', 'NO_PARTICIPANT_TURN');
        }
        participant = turn[0]!;
        participantId = participantIdOf(participant);
      }
      await client.call(operationFor[action], {
        params: { envelopeId: args.envelopeId, participantId },
        body: action === 'refuse' ? { reason: args.reason } : {},
      });
      const { body: envelope } = await client.call<EnvelopeBody>('getEnvelope', { params: { envelopeId: args.envelopeId } });
      const who = participant ? describeParticipant(participant) : participantId;
      ctx.output.success(visible(`${who} ${action === 'sign' ? 'signed' : action === 'approve' ? 'approved' : 'refused'}; envelope ${envelopeIdOf(envelope)} is ${envelope.status}.`));
      ctx.output.result(envelope, () => renderEnvelope(envelope, ctx.output.style, Date.now()));
    },
  });
}
