import { defineCommand } from '../../cli/command.js';
import { cell } from '../../output/record.js';
import { renderTable } from '../../output/table.js';
import { folderPick, pickId } from '../pick.js';

interface AccessEntry {
  memberId?: string;
  groupId?: string;
  name?: string;
  permission?: string;
}

export default defineCommand<{ folderId?: string }>({
  name: 'access',
  description: 'Show who can see and change a folder (an API key sees every folder whatever this says)',
  arguments: [{ name: 'folderId', description: 'folder id (picked on a terminal when left out)', required: false }],
  examples: ['esign folders access 0b7f…'],
  async handler(args, ctx) {
    const folderId = await pickId(ctx, args.folderId, folderPick);
    const { body } = await (await ctx.client()).call<{ access?: AccessEntry[] }>('getFolderAccess', { params: { folderId } });
    const rows = body.access ?? [];
    ctx.output.result(body, () =>
      rows.length
        ? renderTable(
            rows,
            [
              { header: 'WHO', value: (row) => (row.groupId ? 'group' : 'member') },
              { header: 'ID', value: (row) => cell(row.groupId ?? row.memberId) },
              { header: 'NAME', value: (row) => cell(row.name) },
              { header: 'PERMISSION', value: (row) => cell(row.permission) },
            ],
            ctx.output.style,
          )
        : 'No access entries.',
      () => rows.flatMap((row) => row.groupId ?? row.memberId ?? []),
    );
  },
});
