import { EsignError, UsageError, WaitError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { interruption, interruptionOf, InterruptedError } from '../../core/interrupt.js';
import { formatDuration, parseTimeLimit } from '../../input/duration.js';
import { renderEnvelope, renderEnvelopeList, type EnvelopeBody } from '../../output/envelope-view.js';
import { envelopeIdDescription } from '../../workflows/envelope-id.js';
import { waitForEnvelope, waitTargets, warnOnOutage, type WaitTarget } from '../../workflows/wait.js';
import { visible } from '../../output/sanitize.js';

const defaultWaitMs = 10 * 60_000;

function parseTarget(value: string): WaitTarget {
  const target = value.toUpperCase();
  if (!(waitTargets as readonly string[]).includes(target)) throw new Error(`expected one of ${waitTargets.join(', ')}.`);
  return target as WaitTarget;
}

export default defineCommand<{ envelopeIds: string[]; until?: WaitTarget; waitTimeout?: number }>({
  name: 'wait',
  description: 'Wait until envelopes reach a status (exit 0; 5 if one ended in another final state; 7 on timeout)',
  arguments: [{ name: 'envelopeIds', description: `${envelopeIdDescription}; several are followed together`, variadic: true }],
  options: [
    { flags: '--until <status>', description: `status to wait for: ${waitTargets.join(', ')} (required)`, parse: parseTarget, completion: { words: waitTargets } },
    { flags: '--wait-timeout <duration>', description: `give up after this long (e.g. 90s, 30m, 2h; default ${formatDuration(defaultWaitMs)})`, parse: parseTimeLimit },
  ],
  examples: [
    'esign envelopes wait 3f6c… --until COMPLETED --wait-timeout 2h',
    'esign send 3f6c… && esign env wait 3f6c… --until SENT',
    'esign env wait $(esign batch run batch.yaml --json | jq -r ".envelopes[].envelopeId") --until COMPLETED',
  ],
  async handler(args, ctx) {
    if (!args.until) throw new UsageError('--until is required.', `Pass the status to wait for: --until ${waitTargets.join('|')}.`);
    const until = args.until;
    const ids = [...new Set(args.envelopeIds)];
    const timeoutMs = args.waitTimeout ?? defaultWaitMs;
    const client = await ctx.client();
    const what = ids.length === 1 ? `envelope ${ids[0]}` : `${ids.length} envelopes`;
    const spinner = await ctx.output.spinner(`Waiting for ${what} to be ${until}`);
    const statuses = new Map<string, string | null | undefined>();
    // The first envelope that fails for a reason other than time (it ended otherwise, it does not exist) decides the
    // outcome: the others are no longer waited for.
    const decided = new AbortController();
    let decidedBy: string | undefined;
    const signal = AbortSignal.any([interruption.signal, decided.signal]);
    const outcomes = await Promise.allSettled(
      ids.map((envelopeId) =>
        waitForEnvelope(client, envelopeId, {
          until,
          timeoutMs,
          signal,
          onStatus: (status, elapsedMs) => {
            statuses.set(envelopeId, status);
            const reached = [...statuses.values()].filter((value) => value === until).length;
            spinner.update(`Waiting for ${what} to be ${until}: ${ids.length === 1 ? (status ?? '?') : `${reached}/${ids.length}`} after ${formatDuration(elapsedMs)} (gives up after ${formatDuration(timeoutMs)})`);
          },
          onOutage: warnOnOutage(ctx.output, `envelope ${envelopeId}`),
        }).catch((error: unknown) => {
          if (!decided.signal.aborted && !interruption.signal.aborted && !(error instanceof WaitError && error.code === 'WAIT_TIMEOUT')) {
            decidedBy = envelopeId;
            decided.abort(error);
          }
          throw error;
        }),
      ),
    );
    spinner.stop();
    const failures = outcomes.flatMap((outcome, index) => {
      if (outcome.status === 'fulfilled') return [];
      // One cut short because another decided the outcome is left out; the one that decided it is kept.
      if (decidedBy !== undefined && ids[index] !== decidedBy && !interruption.signal.aborted) return [];
      return [{ envelopeId: ids[index]!, error: outcome.reason as unknown }];
    });
    const stopped = failures.map(({ error }) => interruptionOf(error)).find(Boolean);
    if (stopped) {
      // Waiting changes nothing on the service: stopping it loses nothing, and the same command picks it up.
      const where = ids.map((envelopeId) => `envelope ${envelopeId} was ${statuses.get(envelopeId) ?? 'not read yet'}`).join(', ');
      throw new InterruptedError(
        stopped.signal,
        `Stopped waiting by ${stopped.signal}: ${where}, not ${until}. Nothing was changed.`,
        `Wait again: esign envelopes wait ${ids.join(' ')} --until ${until}`,
        ids.length === 1
          ? { envelopeId: ids[0], status: statuses.get(ids[0]!) ?? null, until }
          : { envelopes: ids.map((envelopeId) => ({ envelopeId, status: statuses.get(envelopeId) ?? null })), until },
      );
    }
    if (failures.length) {
      const first = failures[0]!.error;
      if (ids.length === 1 || !(first instanceof EsignError)) throw first;
      const lines = failures.map(({ envelopeId, error }) => `${envelopeId}: ${error instanceof EsignError ? `${error.code}: ${error.message}` : String(error)}`);
      const reached = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
      const cutShort = ids.length - failures.length - reached;
      if (cutShort > 0) lines.push(`Stopped waiting for the other ${cutShort === 1 ? 'one' : cutShort}: the outcome was decided.`);
      throw new WaitError([`${failures.length} of ${ids.length} envelopes did not reach ${until}:`, ...lines], first.exitCode, first.code, { failures: failures.map(({ envelopeId, error }) => ({ envelopeId, ...(error instanceof EsignError ? error.toJSON() : { message: String(error) }) })) });
    }
    const envelopes = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<EnvelopeBody>).value);
    if (ids.length === 1) {
      ctx.output.success(`Envelope ${ids[0]} is ${visible(String(envelopes[0]!.status))}.`);
      ctx.output.result(envelopes[0], () => renderEnvelope(envelopes[0]!, ctx.output.style, Date.now()));
      return;
    }
    ctx.output.success(`All ${ids.length} envelopes are ${until}.`);
    ctx.output.result(envelopes, () => renderEnvelopeList(envelopes, ctx.output.style, Date.now()));
  },
});
