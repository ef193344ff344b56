import { defineCommand } from '../../cli/command.js';
import { itemsOf } from '../../output/envelope-view.js';
import { cell } from '../../output/record.js';
import { renderTable } from '../../output/table.js';

interface CatalogEntry {
  id?: string;
  description?: string;
}

export default defineCommand({
  name: 'catalog',
  description: 'Show every capability the service knows, with what it does',
  examples: ['esign account catalog'],
  async handler(_args, ctx) {
    const { body } = await (await ctx.client()).call('getCapabilityCatalog');
    const rows = itemsOf<CatalogEntry>(body, 'capabilities') ?? [];
    ctx.output.result(body, () =>
      renderTable(
        rows,
        [
          { header: 'CAPABILITY', value: (row) => cell(row.id) },
          { header: 'DESCRIPTION', value: (row) => cell(row.description), freeText: true },
        ],
        ctx.output.style,
      ),
    );
  },
});
