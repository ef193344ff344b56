import { defineCommand } from '../../cli/command.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { confirmEnvelopeAction, explainRefusal } from './confirm.js';

export default defineCommand<{ envelopeId: string }>({
  name: 'delete',
  aliases: ['rm'],
  description: 'Delete a draft envelope (asks for confirmation; --yes without a terminal)',
  arguments: [envelopeIdArgument],
  examples: ['esign envelopes delete 3f6c…', 'esign env rm 3f6c… --yes'],
  async handler(args, ctx) {
    await confirmEnvelopeAction(ctx, args.envelopeId, 'delete');
    const client = await ctx.client();
    await client.call('deleteEnvelope', { params: { envelopeId: args.envelopeId } }).catch((error: unknown) => explainRefusal(ctx, error, args.envelopeId, 'delete'));
    ctx.output.result({ envelopeId: args.envelopeId, deleted: true }, () => `Envelope ${args.envelopeId} deleted.`);
  },
});
