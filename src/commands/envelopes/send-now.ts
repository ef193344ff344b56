import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { readEnvelopeSpec } from '../../workflows/envelope-spec.js';
import { formatDuration, parseTimeLimit } from '../../input/duration.js';
import { envelopeIdOf, renderDocuments, renderEnvelope } from '../../output/envelope-view.js';
import { PreflightError, findingLine } from '../../workflows/preflight.js';
import { earlierRunOf, preflightEnvelopeSpec, sendNow } from '../../workflows/send-now.js';
import { runIdOf, sendAnewHint } from '../../input/run-id.js';
import { visible } from '../../output/sanitize.js';

const defaultWaitMs = 10 * 60_000;

interface SendNowArgs {
  file?: string;
  wait?: boolean;
  waitTimeout?: number;
  confirmConversion?: boolean;
  runId?: string;
}

export default defineCommand<SendNowArgs>({
  name: 'send-now',
  description: 'Create and send an envelope in one call from envelope.yaml: checked offline first, then documents uploaded',
  options: [
    { flags: '-f, --file <path>', description: 'envelope.yaml (title, participants, documents, fields); - reads standard input', completion: 'file' },
    { flags: '--wait', description: 'follow the envelope until it is SENT (exit 0) or VOIDED (exit 5, with the reason)' },
    { flags: '--wait-timeout <duration>', description: `with --wait, give up after this long (default ${formatDuration(defaultWaitMs)})`, parse: parseTimeLimit },
    { flags: '--confirm-conversion', description: 'with --wait, accept the converted PDF of each .docx without asking' },
    { flags: '--run-id <id>', description: 'this run\'s id (else ESIGN_RUN_ID): the same id finds the envelope it sent, a new one sends anew' },
  ],
  examples: ['esign envelopes send-now --file envelope.yaml --wait', 'esign env send-now -f nda.yaml --json > sent.json', 'esign envelopes send-now -f smoke.yaml --run-id "$GITHUB_RUN_ID"'],
  async handler(args, ctx) {
    if (!args.file) throw new UsageError('--file is required.', 'Describe the envelope in a YAML file: esign envelopes send-now --file envelope.yaml.');
    // Both act during the wait: without --wait they would be ignored without a word.
    const waitOnly = [args.waitTimeout !== undefined && '--wait-timeout', args.confirmConversion && '--confirm-conversion'].filter(Boolean);
    if (!args.wait && waitOnly.length > 0) throw new UsageError(`${waitOnly.join(' and ')} ${waitOnly.length === 1 ? 'works' : 'work'} only with --wait.`, `Add --wait, or leave ${waitOnly.length === 1 ? 'it' : 'them'} out.`);
    const runId = runIdOf(args.runId);
    if (runId !== undefined && ctx.globals.idempotencyKey !== undefined) {
      throw new UsageError('--idempotency-key and a run id (--run-id or ESIGN_RUN_ID) both choose the Idempotency-Key.', 'Give one of them: the run id derives the key from itself and the spec.', 'RUN_ID_WITH_IDEMPOTENCY_KEY');
    }
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
      ...(runId === undefined ? {} : { runId }),
      wait: args.wait === true,
      timeoutMs: args.waitTimeout ?? defaultWaitMs,
      confirmConversion: args.confirmConversion === true,
    });
    const envelopeId = envelopeIdOf(outcome.envelope);
    // Said every time: this run sent nothing new, and how to send a new envelope.
    if (outcome.resumed) ctx.output.warn(`Envelope ${visible(envelopeId)} comes from an earlier run ${earlierRunOf(runId)}; no new envelope was created. ${ctx.globals.idempotencyKey === undefined ? sendAnewHint(runId, 'a new envelope') : 'To send a new one, give another --idempotency-key.'}`);
    if (args.wait) {
      ctx.output.success(visible(`Envelope ${envelopeId} is ${outcome.envelope.status}.`));
      ctx.output.result(outcome.envelope, () => renderEnvelope(outcome.envelope, ctx.output.style, Date.now()));
      return;
    }
    ctx.output.success(
      outcome.resumed && outcome.envelope.status !== 'DRAFT'
        ? `Envelope ${visible(envelopeId)} (from an earlier run) is ${visible(String(outcome.envelope.status))}.`
        : `Envelope ${visible(envelopeId)} ${outcome.resumed ? '(from an earlier run) has all its documents' : 'created'}; the service sends it once they are processed.`,
    );
    ctx.output.info(`Follow it: esign envelopes wait ${visible(envelopeId)} --until SENT`);
    ctx.output.result(outcome.envelope, () => renderDocuments(outcome.documents, ctx.output.style));
  },
});
