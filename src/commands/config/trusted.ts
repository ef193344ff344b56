import { defineCommand } from '../../cli/command.js';
import { loadConfigFile } from '../../auth/profiles.js';
import { readProjectConfigFile } from '../../config/project.js';
import { trustedProjectConfigs, trustState } from '../../config/trust.js';
import { renderTable } from '../../output/table.js';

export default defineCommand({
  name: 'trusted',
  description: 'List the trusted project config files, and whether each is still as it was trusted',
  examples: ['esign config trusted', 'esign config trusted --json'],
  async handler(_args, ctx) {
    const trusted = trustedProjectConfigs(await loadConfigFile());
    const rows = await Promise.all(
      trusted.map(async (entry) => {
        const file = await readProjectConfigFile(entry.path).catch(() => undefined);
        const state = file ? trustState(file, [entry]) : 'missing';
        return { path: entry.path, sha256: entry.sha256, trustedAt: entry.trustedAt, state };
      }),
    );
    ctx.output.result(rows, () => {
      if (!rows.length) return 'No trusted project config files. Trust one with `esign config trust [file]`.';
      return renderTable(
        rows,
        [
          { header: 'STATE', value: (row) => row.state },
          { header: 'TRUSTED AT', value: (row) => row.trustedAt },
          { header: 'PATH', value: (row) => row.path },
        ],
        ctx.output.style,
      );
    }, () => rows.map((row) => row.path));
  },
});
