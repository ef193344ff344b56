import { defineCommand } from '../../cli/command.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { changeConfig } from '../../auth/profile-change.js';
import { configFilePath, credentialsFilePath } from '../../files/own-files.js';
import { modeLabel, type Mode } from '../../auth/keys.js';
import { loadConfigFile, requireProfile, type ProfileKeyInfo } from '../../auth/profiles.js';
import { visible } from '../../output/sanitize.js';

export default defineCommand<{ name: string }>({
  name: 'remove',
  aliases: ['rm'],
  description: 'Remove a profile and delete its keys from the keychain or credentials file',
  arguments: [{ name: 'name', description: 'profile name', completion: 'profile' }],
  examples: ['esign profiles remove acme', 'esign profiles rm ci --yes'],
  async handler(args, ctx) {
    const config = await loadConfigFile();
    const profile = requireProfile(config, args.name);
    const keys = (Object.entries(profile.keys) as [Mode, { storage: 'keychain' | 'file' }][]).map(
      ([mode, info]) => `its ${modeLabel(mode)} key (${info.storage === 'file' ? credentialsFilePath() : 'keychain'})`,
    );
    // A dry run changes nothing, so it asks nothing.
    stopIfDryRun(ctx, `remove profile ${args.name}${keys.length ? ` and delete ${keys.join(' and ')}` : ''}`, [configFilePath()]);
    if (!ctx.globals.yes) {
      const confirmed = await ctx.prompts.confirm(`Remove profile ${args.name} and delete its keys?`, '--yes');
      if (!confirmed) {
        ctx.output.info('Nothing removed.');
        return;
      }
    }
    // config.json first, then the keys: a profile never points at a deleted key, whatever stops this half-way.
    const { notDeleted } = await changeConfig((current, keyChanges) => {
      const removed = requireProfile(current, args.name);
      for (const [mode, info] of Object.entries(removed.keys) as [Mode, ProfileKeyInfo][]) keyChanges.retire(args.name, mode, info);
      delete current.profiles[args.name];
      if (current.defaultProfile === args.name) delete current.defaultProfile;
    });
    for (const problem of notDeleted) ctx.output.warn(`Could not delete ${visible(problem)}; no profile uses it any more, and the next change of a profile deletes it.`);
    ctx.output.success(`Profile ${args.name} removed.`);
    ctx.output.result({ removed: args.name }, () => undefined, () => [args.name]);
  },
});
