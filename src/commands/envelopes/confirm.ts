import type { Context } from '../../cli/command.js';
import { renderEnvelopeSummary } from '../../output/envelope-view.js';
import { confirmIrreversible } from '../confirm-action.js';
import { readEnvelopeDetails } from './get.js';

/** Void or delete: the envelope with its participants is what a person checks before saying yes. */
export async function confirmEnvelopeAction(ctx: Context, envelopeId: string, action: string): Promise<void> {
  await confirmIrreversible(ctx, {
    action,
    noun: 'envelope',
    id: envelopeId,
    summary: async () => renderEnvelopeSummary(await readEnvelopeDetails(await ctx.client(), envelopeId, { documents: false }), ctx.output.style),
  });
}
