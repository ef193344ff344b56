import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { readEnvelopeSpec } from '../../workflows/envelope-spec.js';
import { formatDuration, parseTimeLimit } from '../../input/duration.js';
import { envelopeIdOf, renderDocuments, renderEnvelope } from '../../output/envelope-view.js';
import { PreflightError, findingLine } from '../../workflows/preflight.js';
import { preflightEnvelopeSpec, sendNow } from '../../workflows/send-now.js';
import { visible } from '../../output/sanitize.js';

const defaultWaitMs = 10 * 60_000;

interface SendNowArgs {
  file?: string;
  wait?: boolean;
  waitTimeout?: number;
  confirmConversion?: boolean;
}

export default defineCommand<SendNowArgs>({
  name: 'send-now',
  description: 'Create and send an envelope in one call from envelope.yaml: checked offline first, then documents uploaded',
  options: [
    { flags: '-f, --file <path>', description: 'envelope.yaml (title, participants, documents, fields); - reads standard input', completion: 'file' },
    { flags: '--wait', description: 'follow the envelope until it is SENT (exit 0) or VOIDED (exit 5, with the reason)' },
    { flags: '--wait-timeout <duration>', description: `with --wait, give up after this long (default ${formatDuration(defaultWaitMs)})`, parse: parseTimeLimit },
    { flags: '--confirm-conversion', description: 'with --wait, accept the converted PDF of each .docx without asking' },
  ],
  examples: ['esign envelopes send-now --file envelope.yaml --wait', 'esign env send-now -f nda.yaml --json > sent.json'],
  async handler(args, ctx) {
    if (!args.file) throw new UsageError('--file is required.', 'Describe the envelope in a YAML file: esign envelopes send-now --file envelope.yaml.');
    // Both act during the wait: without --wait they would be ignored without a word.
    const waitOnly = [args.waitTimeout !== undefined && '--wait-timeout', args.confirmConversion && '--confirm-conversion'].filter(Boolean);
    if (!args.wait && waitOnly.length > 0) throw new UsageError(`${waitOnly.join(' and ')} ${waitOnly.length === 1 ? 'works' : 'work'} only with --wait.`, `Add --wait, or leave ${waitOnly.length === 1 ? 'it' : 'them'} out.`);
    const loaded = await readEnvelopeSpec(args.file, ctx.stdin);
    const preflight = await preflightEnvelopeSpec(loaded);
    if (preflight.problems.length > 0) {
      throw new PreflightError(
        `Not sent: the service would void this envelope (${preflight.problems.length} problem${preflight.problems.length === 1 ? '' : 's'}).`,
        { problems: preflight.problems, warnings: preflight.warnings },
      );
    }
    for (const warning of preflight.warnings) ctx.output.warn(findingLine(warning));
    for (const { ref, reason } of preflight.unchecked) ctx.output.warn(visible(`Fields on document ${ref} are not checked offline: ${reason}.`));

    const client = await ctx.client();
    const outcome = await sendNow(ctx, client, loaded, {
      wait: args.wait === true,
      timeoutMs: args.waitTimeout ?? defaultWaitMs,
      confirmConversion: args.confirmConversion === true,
    });
    const envelopeId = envelopeIdOf(outcome.envelope);
    if (args.wait) {
      ctx.output.success(visible(`Envelope ${envelopeId} is ${outcome.envelope.status}.`));
      ctx.output.result(outcome.envelope, () => renderEnvelope(outcome.envelope, ctx.output.style, Date.now()));
      return;
    }
    ctx.output.success(
      outcome.resumed && outcome.envelope.status !== 'DRAFT'
        ? `Envelope ${visible(envelopeId)} (created by an earlier run of this spec) is ${visible(String(outcome.envelope.status))}.`
        : `Envelope ${visible(envelopeId)} ${outcome.resumed ? '(created by an earlier run of this spec) has all its documents' : 'created'}; the service sends it once they are processed.`,
    );
    ctx.output.info(`Follow it: esign envelopes wait ${visible(envelopeId)} --until SENT`);
    ctx.output.result(outcome.envelope, () => renderDocuments(outcome.documents, ctx.output.style));
  },
});
