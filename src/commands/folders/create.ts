import { defineCommand } from '../../cli/command.js';
import { checkFolderName } from './names.js';
import { renderFolder, type FolderBody } from './view.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ name: string; parent?: string }>({
  name: 'create',
  description: 'Create a folder, at the root or under --parent',
  arguments: [{ name: 'name', description: 'folder name (no "/")' }],
  options: [{ flags: '--parent <folderId>', description: 'parent folder id (default: the root)' }],
  examples: ['esign folders create "Q3 contracts"', 'esign folders create 2026 --parent 0b7f…'],
  async handler(args, ctx) {
    const name = checkFolderName(args.name, '<name>');
    const { body: folder } = await (await ctx.client()).call<FolderBody>('createFolder', { body: { name, ...(args.parent ? { parentId: args.parent } : {}) } });
    ctx.output.success(visible(`Folder ${folder.path ?? folder.name} created (${folder.id}).`));
    ctx.output.result(folder, () => renderFolder(folder));
  },
});
