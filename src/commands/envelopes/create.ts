import { defineCommand } from '../../cli/command.js';
import { parseDeadline } from '../../input/duration.js';
import { envelopeIdOf, renderEnvelope, type EnvelopeBody } from '../../output/envelope-view.js';
import { visible } from '../../output/sanitize.js';
import { nonBlank } from '../../input/required-text.js';

export const deadlineOption = {
  flags: '--deadline <when>',
  description: 'signing deadline: ISO 8601 date-time (UTC unless a zone is given) or a duration from now (7d, 12h, 30m)',
  parse: (value: string) => parseDeadline(value),
};

export default defineCommand<{ title?: string; message?: string; deadline?: string; folder?: string }>({
  name: 'create',
  description: 'Create a draft envelope',
  options: [
    { flags: '--title <title>', description: 'title', parse: nonBlank('title') },
    { flags: '--message <text>', description: 'message the participants receive' },
    deadlineOption,
    { flags: '--folder <folderId>', description: 'folder to create it in' },
  ],
  examples: ['esign envelopes create --title "NDA Acme" --deadline 7d', 'esign env create --title Lease --message "Please sign" --deadline 2030-10-01T17:00:00Z --json'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const { body: envelope } = await client.call<EnvelopeBody>('createEnvelope', {
      body: { title: args.title, message: args.message, deadline: args.deadline, folderId: args.folder },
    });
    const id = envelopeIdOf(envelope);
    ctx.output.success(`Draft envelope ${visible(id)} created.`);
    ctx.output.result(envelope, () => renderEnvelope(envelope, ctx.output.style, Date.now()));
    ctx.output.info(`Next: esign participants set ${visible(id)} --file participants.yaml`);
  },
});
