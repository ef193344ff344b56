import { defineCommand } from '../../cli/command.js';
import { confirmIrreversible } from '../confirm-action.js';
import { folderPick, pickId } from '../pick.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ folderId?: string }>({
  name: 'delete',
  aliases: ['rm'],
  description: 'Delete an empty folder (asks for confirmation; --yes without a terminal)',
  arguments: [{ name: 'folderId', description: 'folder id (picked on a terminal when left out)', required: false }],
  examples: ['esign folders delete 0b7f…', 'esign folders delete 0b7f… --yes'],
  async handler(args, ctx) {
    const folderId = await pickId(ctx, args.folderId, folderPick);
    const client = await ctx.client();
    await confirmIrreversible(ctx, {
      action: 'delete',
      noun: 'folder',
      id: folderId,
      summary: async () => {
        const { body } = await client.call<{ data?: { type?: string }[]; nextCursor?: string | null }>('listFolderContent', { params: { folderId }, query: { limit: 100 } });
        const items = body.data ?? [];
        return `  folder ${folderId}: ${items.length}${body.nextCursor ? '+' : ''} item(s) inside${items.length ? ' (the service refuses to delete a folder that is not empty)' : ''}`;
      },
    });
    await client.call('deleteFolder', { params: { folderId } });
    ctx.output.success(visible(`Folder ${folderId} deleted.`));
    ctx.output.result({ folderId, deleted: true }, () => undefined);
  },
});
