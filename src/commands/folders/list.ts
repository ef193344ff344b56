import { defineListCommand } from '../list-command.js';
import { folderColumns, type FolderBody } from './view.js';

export default defineListCommand<Record<string, never>, FolderBody>({
  name: 'list',
  aliases: ['ls'],
  description: 'List every folder with its id and path (the ids `envelopes move` and `envelopes list --folder` take)',
  operationId: 'listFolders',
  examples: ['esign folders list', 'esign folders list --all --json | jq -r ".[] | [.id, .path] | @tsv"'],
  noun: 'folders',
  columns: folderColumns,
});
