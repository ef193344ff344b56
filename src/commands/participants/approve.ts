import { defineCommand } from '../../cli/command.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ envelopeId: string; participantId: string }>({
  name: 'approve',
  description: 'Approve an envelope as one of its approvers',
  arguments: [
    envelopeIdArgument,
    { name: 'participantId', description: 'the approver (a participant with role APPROVER)' },
  ],
  examples: ['esign participants approve 3f6c… 7b2e…'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const { body } = await client.call('approveParticipant', { params: { envelopeId: args.envelopeId, participantId: args.participantId }, body: {} });
    ctx.output.success(visible(`Participant ${args.participantId} approved envelope ${args.envelopeId}.`));
    ctx.output.result(body ?? { envelopeId: args.envelopeId, participantId: args.participantId, status: 'APPROVED' }, () => undefined);
  },
});
