import { UsageError } from '../../api/errors.js';
import { defineCommand } from '../../cli/command.js';
import { interruption, interruptionOf, InterruptedError } from '../../cli/interrupt.js';
import { formatDuration, parseDuration } from '../../input/duration.js';
import { renderEnvelope } from '../../output/envelope-view.js';
import { waitForEnvelope, waitTargets, type WaitTarget } from '../../workflows/wait.js';

const defaultWaitMs = 10 * 60_000;

function parseTarget(value: string): WaitTarget {
  const target = value.toUpperCase();
  if (!(waitTargets as readonly string[]).includes(target)) throw new Error(`expected one of ${waitTargets.join(', ')}.`);
  return target as WaitTarget;
}

export default defineCommand<{ envelopeId: string; until?: WaitTarget; waitTimeout?: number }>({
  name: 'wait',
  description: 'Wait until an envelope reaches a status (exit 0; 5 if it ended in another final state; 7 on timeout)',
  arguments: [{ name: 'envelopeId', description: 'envelope id' }],
  options: [
    { flags: '--until <status>', description: `status to wait for: ${waitTargets.join(', ')} (required)`, parse: parseTarget },
    { flags: '--wait-timeout <duration>', description: `give up after this long (e.g. 90s, 30m, 2h; default ${formatDuration(defaultWaitMs)})`, parse: parseDuration },
  ],
  examples: ['esign envelopes wait 3f6c… --until COMPLETED --wait-timeout 2h', 'esign send 3f6c… && esign env wait 3f6c… --until SENT'],
  async handler(args, ctx) {
    if (!args.until) throw new UsageError('--until is required.', `Pass the status to wait for: --until ${waitTargets.join('|')}.`);
    const until = args.until;
    const timeoutMs = args.waitTimeout ?? defaultWaitMs;
    const client = await ctx.client();
    const spinner = await ctx.output.spinner(`Waiting for envelope ${args.envelopeId} to be ${until}`);
    let lastStatus: string | undefined;
    try {
      const envelope = await waitForEnvelope(client, args.envelopeId, {
        until,
        timeoutMs,
        signal: interruption.signal,
        onStatus: (status, elapsedMs) => {
          lastStatus = status;
          spinner.update(`Waiting for envelope ${args.envelopeId} to be ${until}: ${status ?? '?'} after ${formatDuration(elapsedMs)} (gives up after ${formatDuration(timeoutMs)})`);
        },
      });
      spinner.stop();
      ctx.output.success(`Envelope ${args.envelopeId} is ${envelope.status}.`);
      ctx.output.result(envelope, () => renderEnvelope(envelope, ctx.output.style, Date.now()));
    } catch (error) {
      spinner.stop();
      const stopped = interruptionOf(error);
      if (stopped) {
        // Waiting changes nothing on the service: stopping it loses nothing, and the same command picks it up.
        throw new InterruptedError(
          stopped.signal,
          `Stopped waiting by ${stopped.signal}: envelope ${args.envelopeId} was ${lastStatus ?? 'not read yet'}, not ${until}. Nothing was changed.`,
          `Wait again: esign envelopes wait ${args.envelopeId} --until ${until}`,
          { envelopeId: args.envelopeId, status: lastStatus ?? null, until },
        );
      }
      throw error;
    }
  },
});
