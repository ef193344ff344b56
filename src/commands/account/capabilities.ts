import { defineCommand } from '../../cli/command.js';
import { itemsOf } from '../../output/envelope-view.js';
import { cell } from '../../output/record.js';
import { renderTable } from '../../output/table.js';

interface Capability {
  id?: string;
  enabled?: boolean;
}

export default defineCommand({
  name: 'capabilities',
  aliases: ['caps'],
  description: 'Show the capabilities in effect for this key (what the plan and environment allow)',
  examples: ['esign account capabilities', 'esign account capabilities --json'],
  async handler(_args, ctx) {
    const { body } = await (await ctx.client()).call('getEffectiveCapabilities');
    const rows = itemsOf<Capability>(body, 'capabilities') ?? [];
    ctx.output.result(body, () =>
      renderTable(
        rows,
        [
          { header: 'CAPABILITY', value: (row) => cell(row.id) },
          { header: 'ENABLED', value: (row) => cell(row.enabled) },
        ],
        ctx.output.style,
      ),
    );
  },
});
