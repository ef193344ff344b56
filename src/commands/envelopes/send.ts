import { defineCommand } from '../../cli/command.js';
import { formatDuration, parseTimeLimit } from '../../input/duration.js';
import { envelopeIdOf, renderEnvelope } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { defaultSendWaitMs, sendEnvelope } from '../../workflows/send.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ envelopeId: string; waitTimeout?: number }>({
  name: 'send',
  description: 'Send an envelope to its participants (waits while its documents are still processing)',
  arguments: [envelopeIdArgument],
  options: [
    {
      flags: '--wait-timeout <duration>',
      description: `how long to keep retrying while documents process (e.g. 30s, 5m; default ${formatDuration(defaultSendWaitMs)})`,
      parse: parseTimeLimit,
    },
  ],
  examples: ['esign envelopes send 3f6c…', 'esign send 3f6c… --wait-timeout 5m --json'],
  async handler(args, ctx) {
    const { envelope, replayed } = await sendEnvelope(ctx, args.envelopeId, args.waitTimeout ?? defaultSendWaitMs);
    ctx.output.success(`Envelope ${visible(envelopeIdOf(envelope))} sent${replayed ? ' (it had already been sent by this same request)' : ''}.`);
    ctx.output.result(envelope, () => renderEnvelope(envelope, ctx.output.style, Date.now()));
  },
});
