import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { folderPick, pickId } from '../pick.js';
import { renderFolder, type FolderBody } from './view.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ folderId?: string; parent?: string; root?: boolean }>({
  name: 'move',
  description: 'Move a folder under another folder (--parent) or to the root (--root)',
  arguments: [{ name: 'folderId', description: 'folder id (picked on a terminal when left out)', required: false }],
  options: [
    { flags: '--parent <folderId>', description: 'the new parent folder' },
    { flags: '--root', description: 'move to the root', conflicts: ['--parent'] },
  ],
  examples: ['esign folders move 0b7f… --parent 41c2…', 'esign folders move 0b7f… --root'],
  async handler(args, ctx) {
    if (Boolean(args.parent) === Boolean(args.root)) throw new UsageError('Say where to: pass --parent <folderId> or --root (one of them).');
    const folderId = await pickId(ctx, args.folderId, folderPick);
    const { body: folder } = await (await ctx.client()).call<FolderBody>('moveFolder', { params: { folderId }, body: { parentId: args.parent ?? null } });
    ctx.output.success(visible(`Folder ${folderId} is now ${folder.path ?? 'moved'}.`));
    ctx.output.result(folder, () => renderFolder(folder));
  },
});
