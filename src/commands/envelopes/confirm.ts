import { ApiError, EsignError, ExitCode } from '../../core/errors.js';
import type { Context } from '../../cli/command.js';
import { finalEnvelopeStatuses, renderEnvelopeSummary } from '../../output/envelope-view.js';
import { visible } from '../../output/sanitize.js';
import { confirmIrreversible } from '../confirm-action.js';
import { readEnvelopeDetails } from './get.js';

export type EnvelopeAction = 'delete' | 'void';

/** The one status each action works on (pins.md: delete a draft, else 409 ENVELOPE_NOT_DRAFT; void a sent envelope). */
const actionRule: Record<EnvelopeAction, { status: string; code: string; done: string; what: string }> = {
  delete: { status: 'DRAFT', code: 'ENVELOPE_NOT_DRAFT', done: 'deleted', what: 'a draft' },
  void: { status: 'SENT', code: 'ENVELOPE_NOT_SENT', done: 'voided', what: 'a sent envelope' },
};

/** The envelope's status rules the action out: refused as the service would refuse it (409, exit 5), before anyone is asked. */
class EnvelopeStatusError extends EsignError {
  readonly exitCode = ExitCode.conflict;
  constructor(
    message: string,
    readonly statusCode: string,
    readonly details: { envelopeId: string; status: string },
  ) {
    super(message);
    this.name = 'EnvelopeStatusError';
  }
  get code(): string {
    return this.statusCode;
  }
  override toJSON() {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** What to do instead, for the status the envelope is in. */
export function wayOut(action: EnvelopeAction, status: string, envelopeId: string): string {
  const rule = actionRule[action];
  if (action === 'delete' && status === 'SENT') return `Only a draft can be deleted; a sent envelope is voided instead: esign envelopes void ${envelopeId} --reason "..."`;
  if (action === 'void' && status === 'DRAFT') return `Only a sent envelope can be voided; a draft, which nobody has been asked to sign, is deleted instead: esign envelopes delete ${envelopeId}`;
  if (action === 'void' && status === 'VOIDED') return 'It was voided already; there is nothing more to do.';
  if (finalEnvelopeStatuses.has(status)) return visible(`Only ${rule.what} can be ${rule.done}; a ${status} envelope has ended and is kept as it ended: it can be neither deleted nor voided.`);
  return visible(`Only ${rule.what} can be ${rule.done}.`);
}

/**
 * Void or delete: the envelope with its participants is what a person checks before saying yes. Its status is read
 * first: an action the status rules out is refused before anyone is asked (or told to pass --yes). With --yes nothing
 * is read first, and a refusal from the service gets the way out that fits (see `explainRefusal`).
 */
export async function confirmEnvelopeAction(ctx: Context, envelopeId: string, action: EnvelopeAction): Promise<void> {
  // A dry run shows the request and asks nothing, as before; --yes asks nothing and reads nothing first.
  if (ctx.globals.yes || ctx.globals.dryRun) return;
  const envelope = await readEnvelopeDetails(await ctx.client(), envelopeId, { documents: false });
  const rule = actionRule[action];
  if (envelope.status && envelope.status !== rule.status) {
    const error = new EnvelopeStatusError(visible(`Envelope ${envelopeId} is ${envelope.status}; it cannot be ${rule.done}.`), rule.code, { envelopeId, status: envelope.status });
    error.hint = wayOut(action, envelope.status, envelopeId);
    throw error;
  }
  await confirmIrreversible(ctx, { action, noun: 'envelope', id: envelopeId, summary: async () => renderEnvelopeSummary(envelope, ctx.output.style) });
}

/** A 409 from the service for an envelope in the wrong state: the hint fits the status it is in (read once more). */
export async function explainRefusal(ctx: Context, error: unknown, envelopeId: string, action: EnvelopeAction): Promise<never> {
  if (error instanceof ApiError && error.status === 409) {
    const status = await readEnvelopeDetails(await ctx.client(), envelopeId, { documents: false }).then(
      (envelope) => envelope.status,
      () => undefined,
    );
    if (status && status !== actionRule[action].status) error.hint = wayOut(action, status, envelopeId);
  }
  throw error;
}
