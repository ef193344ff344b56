import { defineCommand } from '../../cli/command.js';

export default defineCommand<{ envelopeId: string; participantId: string }>({
  name: 'remind',
  description: 'Send a participant a reminder (counts toward the account message limit)',
  arguments: [
    { name: 'envelopeId', description: 'envelope id' },
    { name: 'participantId', description: 'participant to remind' },
  ],
  examples: ['esign participants remind 3f6c… 7b2e…'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const { body } = await client.call('remindParticipant', { params: { envelopeId: args.envelopeId, participantId: args.participantId }, body: {} });
    ctx.output.success(`Reminder sent to participant ${args.participantId}; it counts toward the account's message limit.`);
    ctx.output.result(body ?? { envelopeId: args.envelopeId, participantId: args.participantId, reminded: true }, () => undefined);
  },
});
