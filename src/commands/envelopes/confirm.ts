import { UsageError } from '../../api/errors.js';
import type { Context } from '../../cli/command.js';
import { renderEnvelopeSummary } from '../../output/envelope-view.js';
import { readEnvelopeDetails } from './get.js';

/**
 * Irreversible actions on an envelope are often run by support staff against production: show what is about to be
 * hit and ask. In live mode a yes is not enough, the person types the envelope id. Without a terminal, `--yes` is
 * required (the Prompter refuses and names it); with `--yes` nothing is read first.
 */
export async function confirmEnvelopeAction(ctx: Context, envelopeId: string, action: string): Promise<void> {
  if (ctx.globals.yes) return;
  const question = `${action[0]!.toUpperCase()}${action.slice(1)} envelope ${envelopeId}?`;
  if (!ctx.prompts.canAsk) {
    await ctx.prompts.confirm(question, '--yes');
    return;
  }
  const envelope = await readEnvelopeDetails(await ctx.client(), envelopeId, { documents: false });
  ctx.output.warn(`About to ${action} this envelope; this cannot be undone:\n${renderEnvelopeSummary(envelope, ctx.output.style)}`);
  if (ctx.globals.live) {
    await ctx.prompts.input(`Live envelope: type its id to ${action} it`, '--yes', {
      validate: (value) => value.trim() === envelopeId || 'That is not the envelope id (Ctrl-C to stop).',
    });
    return;
  }
  if (!(await ctx.prompts.confirm(question, '--yes', false))) throw new UsageError('Cancelled; nothing was changed.', undefined, 'CANCELLED');
}
