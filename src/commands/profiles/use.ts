import { defineCommand } from '../../cli/command.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { changeConfig } from '../../auth/profile-change.js';
import { loadConfigFile, requireProfile } from '../../auth/profiles.js';
import { configFilePath } from '../../files/own-files.js';

export default defineCommand<{ name: string }>({
  name: 'use',
  description: 'Make a profile the default',
  arguments: [{ name: 'name', description: 'profile name', completion: 'profile' }],
  examples: ['esign profiles use acme', 'esign profile use ci && esign me   # me now uses ci'],
  async handler(args, ctx) {
    const config = await loadConfigFile();
    requireProfile(config, args.name);
    stopIfDryRun(ctx, `make ${args.name} the default profile (now ${config.defaultProfile ?? 'none'})`, [configFilePath()]);
    await changeConfig((current) => {
      requireProfile(current, args.name);
      current.defaultProfile = args.name;
    });
    ctx.output.success(`Default profile is now ${args.name}.`);
    ctx.output.result({ defaultProfile: args.name }, () => undefined, () => [args.name]);
  },
});
