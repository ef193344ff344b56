import { defineCommand } from '../../cli/command.js';
import { loadConfigFile, requireProfile } from '../../auth/profiles.js';
import { renderFields } from '../../output/table.js';
import { describeKey, profileView } from './describe.js';

export default defineCommand<{ name: string }>({
  name: 'show',
  description: 'Show one profile (keys masked)',
  arguments: [{ name: 'name', description: 'profile name', completion: 'profile' }],
  examples: ['esign profiles show acme', 'esign profiles show acme --json'],
  async handler(args, ctx) {
    const config = await loadConfigFile();
    const profile = requireProfile(config, args.name);
    ctx.output.result(profileView(args.name, profile, config.defaultProfile === args.name), () =>
      renderFields([
        ['Profile', `${args.name}${config.defaultProfile === args.name ? ' (default)' : ''}`],
        ['Sandbox URL', profile.sandboxBaseUrl ?? '-'],
        ['Test key', describeKey(profile, 'sandbox')],
        ['Production URL', profile.baseUrl ?? '-'],
        ['Live key', describeKey(profile, 'production')],
      ]),
      () => [args.name],
    );
  },
});
