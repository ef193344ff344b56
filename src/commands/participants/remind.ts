import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { describeParticipant, isTheirTurn, participantIdOf, type ParticipantBody } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { readEnvelopeDetails } from '../envelopes/get.js';
import { visible } from '../../output/sanitize.js';
import { identityOf } from '../../output/identity.js';

export default defineCommand<{ envelopeId: string; participantId?: string }>({
  name: 'remind',
  description: "Send a reminder to whoever's turn it is, or to one participant (counts toward the account message limit)",
  arguments: [
    envelopeIdArgument,
    { name: 'participantId', description: "participant to remind (default: whoever's turn it is)", required: false },
  ],
  examples: ['esign participants remind 3f6c…', 'esign participants remind 3f6c… 7b2e…'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const envelope = await readEnvelopeDetails(client, args.envelopeId, { documents: false });
    let targets: ParticipantBody[];
    if (args.participantId) {
      targets = [envelope.participants.find((participant) => participantIdOf(participant) === args.participantId) ?? { id: args.participantId }];
    } else {
      targets = envelope.participants.filter(isTheirTurn);
      if (targets.length === 0) {
        throw new UsageError(
          `Nobody is waiting to act on envelope ${args.envelopeId} (status ${envelope.status ?? '?'}): there is no one to remind.`,
          `\`esign envelopes get ${args.envelopeId}\` shows each participant's status.`,
          'NOBODY_IN_TURN',
        );
      }
    }
    const reminded: { participantId: string; name: string | null; email: string | null }[] = [];
    for (const participant of targets) {
      const participantId = participantIdOf(participant);
      await client.call('remindParticipant', { params: { envelopeId: args.envelopeId, participantId }, body: {} });
      reminded.push({ participantId, name: participant.name ?? null, email: participant.email ?? null });
      ctx.output.success(visible(`Reminder sent to ${participant.name ? describeParticipant(participant) : `participant ${participantId}`}.`));
    }
    ctx.output.info("Each reminder counts toward the account's message limit.");
    ctx.output.result({ envelopeId: args.envelopeId, reminded }, () => undefined, () => identityOf(reminded));
  },
});
