import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ envelopeId: string; participantId: string; reason?: string }>({
  name: 'refuse',
  description: 'Refuse an envelope as one of its approvers',
  arguments: [
    envelopeIdArgument,
    { name: 'participantId', description: 'the approver (a participant with role APPROVER)' },
  ],
  options: [{ flags: '--reason <text>', description: 'why (required; recorded in the history)' }],
  examples: ['esign participants refuse 3f6c… 7b2e… --reason "Amount is wrong"'],
  async handler(args, ctx) {
    const reason = args.reason?.trim();
    if (!reason) throw new UsageError('--reason is required.', 'Say why, e.g. --reason "Amount is wrong": it is recorded in the envelope history.');
    const client = await ctx.client();
    const { body } = await client.call('refuseParticipant', { params: { envelopeId: args.envelopeId, participantId: args.participantId }, body: { reason } });
    ctx.output.success(visible(`Participant ${args.participantId} refused envelope ${args.envelopeId}.`));
    ctx.output.result(body ?? { envelopeId: args.envelopeId, participantId: args.participantId, status: 'REFUSED', reason }, () => undefined);
  },
});
