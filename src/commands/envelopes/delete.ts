import { ApiError } from '../../api/errors.js';
import { defineCommand } from '../../cli/command.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { confirmEnvelopeAction } from './confirm.js';

export default defineCommand<{ envelopeId: string }>({
  name: 'delete',
  aliases: ['rm'],
  description: 'Delete a draft envelope (asks for confirmation; --yes without a terminal)',
  arguments: [envelopeIdArgument],
  examples: ['esign envelopes delete 3f6c…', 'esign env rm 3f6c… --yes'],
  async handler(args, ctx) {
    await confirmEnvelopeAction(ctx, args.envelopeId, 'delete');
    const client = await ctx.client();
    try {
      await client.call('deleteEnvelope', { params: { envelopeId: args.envelopeId } });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ENVELOPE_NOT_DRAFT') {
        error.hint = `Only a draft can be deleted; a sent envelope is voided instead: esign envelopes void ${args.envelopeId} --reason "..."`;
      }
      throw error;
    }
    ctx.output.result({ envelopeId: args.envelopeId, deleted: true }, () => `Envelope ${args.envelopeId} deleted.`);
  },
});
