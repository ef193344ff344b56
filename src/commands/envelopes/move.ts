import { UsageError } from '../../api/errors.js';
import { defineCommand } from '../../cli/command.js';
import { renderEnvelope, type EnvelopeBody } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';

export default defineCommand<{ envelopeId: string; folder?: string }>({
  name: 'move',
  description: 'Move an envelope to another folder',
  arguments: [envelopeIdArgument],
  options: [{ flags: '--folder <folderId>', description: 'destination folder (required)' }],
  examples: ['esign envelopes move 3f6c… --folder 9a1d…'],
  async handler(args, ctx) {
    if (!args.folder) throw new UsageError('--folder is required.', 'Pass the destination folder id: --folder <folderId>.');
    const client = await ctx.client();
    const { body } = await client.call<EnvelopeBody | undefined>('moveEnvelope', { params: { envelopeId: args.envelopeId }, body: { folderId: args.folder } });
    ctx.output.success(`Envelope ${args.envelopeId} moved to folder ${args.folder}.`);
    const result = body ?? { envelopeId: args.envelopeId, folderId: args.folder };
    ctx.output.result(result, () => (body ? renderEnvelope(body, ctx.output.style, Date.now()) : undefined));
  },
});
