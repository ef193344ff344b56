import { defineCommand } from '../../cli/command.js';
import { loadConfigFile } from '../../auth/profiles.js';
import { renderTable } from '../../output/table.js';
import { describeKey, profileView } from './describe.js';

export default defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'List profiles: default, base URLs, masked keys and where each key is stored',
  examples: ['esign profiles list', 'esign profile ls --json'],
  async handler(_args, ctx) {
    const config = await loadConfigFile();
    const names = Object.keys(config.profiles).sort();
    ctx.output.result(
      names.map((name) => profileView(name, config.profiles[name]!, name === config.defaultProfile)),
      () => {
        if (!names.length) return 'No profiles yet. Add one with `esign profiles add <name>`.';
        return renderTable(
          names,
          [
            { header: '', value: (name) => (name === config.defaultProfile ? '*' : '') },
            { header: 'PROFILE', value: (name) => name },
            { header: 'SANDBOX URL', value: (name) => config.profiles[name]!.sandboxBaseUrl ?? '-' },
            { header: 'TEST KEY', value: (name) => describeKey(config.profiles[name]!, 'sandbox') },
            { header: 'PRODUCTION URL', value: (name) => config.profiles[name]!.baseUrl ?? '-' },
            { header: 'LIVE KEY', value: (name) => describeKey(config.profiles[name]!, 'production') },
          ],
          ctx.output.style,
        );
      },
      () => names,
    );
  },
});
