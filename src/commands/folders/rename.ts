import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { folderPick, pickId } from '../pick.js';
import { checkFolderName } from './names.js';
import { renderFolder, type FolderBody } from './view.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ folderId?: string; name?: string }>({
  name: 'rename',
  description: 'Rename a folder',
  arguments: [{ name: 'folderId', description: 'folder id (picked on a terminal when left out)', required: false }],
  options: [{ flags: '--name <name>', description: 'the new name (required)' }],
  examples: ['esign folders rename 0b7f… --name "Signed 2026"'],
  async handler(args, ctx) {
    if (args.name === undefined) throw new UsageError('--name is required.', 'Give the new name, e.g. --name "Signed 2026".');
    const name = checkFolderName(args.name, '--name');
    const folderId = await pickId(ctx, args.folderId, folderPick);
    const { body: folder } = await (await ctx.client()).call<FolderBody>('renameFolder', { params: { folderId }, body: { name } });
    ctx.output.success(visible(`Folder ${folderId} renamed to ${folder.path ?? name}.`));
    ctx.output.result(folder, () => renderFolder(folder));
  },
});
