import { colourEnvelopeStatus } from '../../output/envelope-view.js';
import { cell } from '../../output/record.js';
import { defineListCommand } from '../list-command.js';
import { folderPick, pickId } from '../pick.js';

interface ContentItem {
  type?: string;
  id?: string;
  name?: string;
  title?: string;
  path?: string;
  status?: string;
}

export default defineListCommand<{ folderId?: string }, ContentItem>({
  name: 'contents',
  aliases: ['content'],
  description: 'List what a folder holds: its subfolders, then its envelopes',
  operationId: 'listFolderContent',
  arguments: [{ name: 'folderId', description: 'folder id (picked on a terminal when left out)', required: false }],
  examples: ['esign folders contents 0b7f…', 'esign folders contents 0b7f… --all --jsonl'],
  noun: 'items',
  columns: (ctx) => [
    { header: 'TYPE', value: (item) => cell(item.type) },
    { header: 'ID', value: (item) => cell(item.id) },
    { header: 'NAME', value: (item) => cell(item.type === 'FOLDER' ? (item.path ?? item.name) : item.title), freeText: true },
    { header: 'STATUS', value: (item) => (item.type === 'ENVELOPE' ? colourEnvelopeStatus(ctx.output.style, item.status) : '') },
  ],
  source: async (args, ctx) => ({ params: { folderId: await pickId(ctx, args.folderId, folderPick) } }),
});
