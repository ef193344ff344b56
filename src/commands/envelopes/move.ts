import { defineCommand } from '../../cli/command.js';
import { renderEnvelope, type EnvelopeBody } from '../../output/envelope-view.js';
import { envelopeIdArgument } from '../../workflows/envelope-id.js';
import { folderPick, pickId } from '../pick.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ envelopeId: string; folder?: string }>({
  name: 'move',
  description: 'Move an envelope to another folder',
  arguments: [envelopeIdArgument],
  options: [{ flags: '--folder <folderId>', description: 'destination folder (picked on a terminal when left out)' }],
  examples: ['esign envelopes move 3f6c… --folder 9a1d…'],
  async handler(args, ctx) {
    const folderId = await pickId(ctx, args.folder, { ...folderPick, argument: '--folder <folderId>' });
    const client = await ctx.client();
    const { body } = await client.call<EnvelopeBody | undefined>('moveEnvelope', { params: { envelopeId: args.envelopeId }, body: { folderId } });
    ctx.output.success(visible(`Envelope ${args.envelopeId} moved to folder ${folderId}.`));
    const result = body ?? { envelopeId: args.envelopeId, folderId };
    ctx.output.result(result, () => (body ? renderEnvelope(body, ctx.output.style, Date.now()) : undefined));
  },
});
