import { UsageError } from '../core/errors.js';
import type { Context } from '../cli/command.js';

export interface IrreversibleAction {
  /** `void`, `delete` */
  action: string;
  /** `envelope`, `folder` */
  noun: string;
  id: string;
  /** What is about to be hit, read only when a person is there to see it. */
  summary(): Promise<string>;
}

/**
 * Irreversible actions are often run by support staff against production: show what is about to be hit and ask. In
 * live mode a yes is not enough, the person types the id. Without a terminal, `--yes` is required (the Prompter
 * refuses and names it); with `--yes` nothing is read first. A dry run changes nothing, so it asks nothing.
 */
export async function confirmIrreversible(ctx: Context, target: IrreversibleAction): Promise<void> {
  if (ctx.globals.yes || ctx.globals.dryRun) return;
  const { action, noun, id } = target;
  const question = `${action[0]!.toUpperCase()}${action.slice(1)} ${noun} ${id}?`;
  if (!ctx.prompts.canAsk) {
    await ctx.prompts.confirm(question, '--yes');
    return;
  }
  ctx.output.warn(`About to ${action} this ${noun}; this cannot be undone:\n${await target.summary()}`);
  if (ctx.globals.live) {
    await ctx.prompts.input(`Live ${noun}: type its id to ${action} it`, '--yes', {
      validate: (value) => value.trim() === id || `That is not the ${noun} id (Ctrl-C to stop).`,
    });
    return;
  }
  if (!(await ctx.prompts.confirm(question, '--yes', false))) throw new UsageError('Cancelled; nothing was changed.', undefined, 'CANCELLED');
}
