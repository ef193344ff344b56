import { defineCommand } from '../cli/command.js';

/**
 * `esign __complete profiles`: the profile names in the local config file, one a line, for the completion scripts.
 * Never the network, and silent on a missing or broken config (a Tab press is no place for an error).
 */
export default defineCommand<{ what: string }>({
  name: '__complete',
  description: 'Values for the shell completion scripts: profiles (the profile names in the local config)',
  arguments: [{ name: 'what', description: 'profiles' }],
  examples: ['esign __complete profiles'],
  async handler(args, ctx) {
    if (args.what !== 'profiles') return;
    const { loadConfigFile } = await import('../auth/profiles.js');
    const names = await loadConfigFile().then(
      (config) => Object.keys(config.profiles).sort(),
      () => [],
    );
    if (names.length) ctx.output.data(names.join('\n'));
  },
});
