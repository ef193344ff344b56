import { defineCommand } from '../../cli/command.js';
import { parseInstant } from '../../input/instant.js';
import { cell } from '../../output/record.js';
import { renderTable } from '../../output/table.js';
import { resolveGroup } from '../../workflows/team-group.js';

interface UsageRow {
  groupId?: string;
  name?: string;
  memberCount?: number;
  envelopesSent?: number;
  byStatus?: Record<string, number>;
}

const isoInstant = (value: string): string => new Date(parseInstant(value)).toISOString();

export default defineCommand<{ group?: string; from?: string; to?: string }>({
  name: 'usage',
  description: 'Show envelopes sent per team group (--from/--to bound the sending time)',
  options: [
    { flags: '--group <groupId|name>', description: 'only this group (its id or name)' },
    { flags: '--from <date>', description: 'sent at or after (a date, or a time ago such as 30d)', parse: isoInstant },
    { flags: '--to <date>', description: 'sent before', parse: isoInstant },
  ],
  examples: ['esign reports usage', 'esign reports usage --group Legal --from 2026-01-01'],
  async handler(args, ctx) {
    const client = await ctx.client();
    const groupId = args.group === undefined ? undefined : await resolveGroup(client, args.group);
    const { body } = await client.call<{ data?: UsageRow[] }>('getUsageByGroup', { query: { from: args.from, to: args.to } });
    const rows = (body.data ?? []).filter((row) => groupId === undefined || row.groupId === groupId);
    ctx.output.result({ ...body, data: rows }, () =>
      renderTable(
        rows,
        [
          { header: 'GROUP', value: (row) => cell(row.name) },
          { header: 'ID', value: (row) => cell(row.groupId) },
          { header: 'MEMBERS', value: (row) => cell(row.memberCount) },
          { header: 'SENT', value: (row) => cell(row.envelopesSent) },
          { header: 'BY STATUS', value: (row) => Object.entries(row.byStatus ?? {}).map(([status, count]) => `${status} ${count}`).join(', ') || '-' },
        ],
        ctx.output.style,
      ),
    );
  },
});
