import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { renderEnvelope, type EnvelopeBody } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { confirmEnvelopeAction, explainRefusal } from './confirm.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ envelopeId: string; reason?: string }>({
  name: 'void',
  description: 'Void a sent envelope (asks for confirmation; --yes without a terminal)',
  arguments: [envelopeIdArgument],
  options: [{ flags: '--reason <text>', description: 'why (required; kept as cancellationReason and in the history)' }],
  examples: ['esign envelopes void 3f6c… --reason "Wrong contract version"', 'esign env void 3f6c… --reason "Customer cancelled" --yes'],
  async handler(args, ctx) {
    const reason = args.reason?.trim();
    if (!reason) throw new UsageError('--reason is required.', 'Say why, e.g. --reason "Wrong contract version": it is recorded in the envelope history.');
    await confirmEnvelopeAction(ctx, args.envelopeId, 'void');
    const client = await ctx.client();
    const { body: envelope } = await client
      .call<EnvelopeBody>('voidEnvelope', { params: { envelopeId: args.envelopeId }, body: { reason } })
      .catch((error: unknown) => explainRefusal(ctx, error, args.envelopeId, 'void'));
    ctx.output.success(visible(`Envelope ${args.envelopeId} voided.`));
    ctx.output.result(envelope, () => renderEnvelope(envelope, ctx.output.style, Date.now()));
  },
});
