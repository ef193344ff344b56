import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { renderEnvelope, type EnvelopeBody } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { deadlineOption } from './create.js';
import { visible } from '../../output/sanitize.js';
import { nonBlank } from '../../input/required-text.js';

interface SettingsArgs {
  envelopeId: string;
  title?: string;
  message?: string;
  /** An ISO date-time, or false for --no-deadline. */
  deadline?: string | false;
}

export default defineCommand<SettingsArgs>({
  name: 'settings',
  description: "Change an envelope's title, message or deadline",
  arguments: [envelopeIdArgument],
  options: [
    { flags: '--title <title>', description: 'new title', parse: nonBlank('title') },
    { flags: '--message <text>', description: 'new message' },
    deadlineOption,
    { flags: '--no-deadline', description: 'remove the deadline' },
  ],
  examples: ['esign envelopes settings 3f6c… --title "NDA Acme v2" --deadline 14d', 'esign env settings 3f6c… --no-deadline'],
  async handler(args, ctx) {
    const body: Record<string, unknown> = {};
    if (args.title !== undefined) body.title = args.title;
    if (args.message !== undefined) body.message = args.message;
    if (args.deadline !== undefined) body.deadline = args.deadline === false ? null : args.deadline;
    if (Object.keys(body).length === 0) throw new UsageError('Nothing to change.', 'Pass --title, --message, --deadline or --no-deadline.');
    const client = await ctx.client();
    const { body: envelope } = await client.call<EnvelopeBody>('updateEnvelopeSettings', { params: { envelopeId: args.envelopeId }, body });
    ctx.output.success(visible(`Settings of envelope ${args.envelopeId} updated.`));
    ctx.output.result(envelope, () => renderEnvelope(envelope, ctx.output.style, Date.now()));
  },
});
