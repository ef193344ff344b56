import { defineCommand } from '../../cli/command.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { changeConfig, unusedFileKeys } from '../../auth/profile-change.js';
import { credentialStore } from '../../auth/credential-store.js';
import { loadConfigFile } from '../../auth/profiles.js';
import { credentialsFilePath } from '../../files/own-files.js';

/**
 * Keys that earlier versions left in credentials.json with no profile pointing at them (a `profiles add` that failed
 * half-way, or was killed): nothing uses them, and each is a live credential in a plain file.
 */
export default defineCommand({
  name: 'prune',
  description: 'Delete the keys in the credentials file that no profile uses (asks first; --yes without a terminal)',
  examples: ['esign profiles prune', 'esign profiles prune --yes'],
  async handler(_args, ctx) {
    const path = credentialsFilePath();
    const found = await unusedFileKeys(await loadConfigFile());
    const listed = found.map((entry) => `${entry.account} (${entry.masked})`).join(', ');
    if (found.length === 0) {
      ctx.output.success(`No key without a profile in ${path}.`);
      ctx.output.result({ removed: [] }, () => undefined);
      return;
    }
    stopIfDryRun(ctx, `delete ${found.length} key${found.length === 1 ? '' : 's'} no profile uses from ${path}: ${listed}`, [path]);
    if (!ctx.globals.yes && !(await ctx.prompts.confirm(`Delete ${found.length} key${found.length === 1 ? '' : 's'} no profile uses (${listed})?`, '--yes'))) {
      ctx.output.info('Nothing deleted.');
      return;
    }
    // Under config.json's lock, against the profiles as they are then: a key a profile took meanwhile stays.
    const { value: removed } = await changeConfig(async (config) => {
      const unused = (await unusedFileKeys(config)).map((entry) => entry.account);
      await credentialStore.removeFromFile(unused);
      return unused;
    });
    ctx.output.success(`Deleted ${removed.length} key${removed.length === 1 ? '' : 's'} no profile used from ${path}.`);
    ctx.output.result({ removed }, () => undefined, () => removed);
  },
});
