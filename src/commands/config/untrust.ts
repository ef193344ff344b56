import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { defineCommand } from '../../cli/command.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { changeConfig } from '../../auth/profile-change.js';
import { loadConfigFile, type ConfigFile } from '../../auth/profiles.js';
import { configFilePath } from '../../files/own-files.js';
import { trustedProjectConfigs } from '../../config/trust.js';
import { visible } from '../../output/sanitize.js';
import { locateProjectConfig } from './locate.js';

/** A trusted file may since have been deleted: it is still named by the path it was trusted under. */
async function trustedPath(file: string | undefined): Promise<string> {
  if (!file) return (await locateProjectConfig(undefined)).realpath;
  return realpath(file).catch(() => resolve(file));
}

export default defineCommand<{ file?: string }>({
  name: 'untrust',
  description: 'Withdraw the trust in a project config file',
  arguments: [{ name: 'file', description: 'the file (default: the project config found in the working directory)', required: false, completion: 'file' }],
  examples: ['esign config untrust', 'esign config untrust ./.esignrc.yaml'],
  async handler(args, ctx) {
    const path = await trustedPath(args.file);
    const trusted = (config: ConfigFile) => trustedProjectConfigs(config).some((entry) => entry.path === path);
    if (trusted(await loadConfigFile())) stopIfDryRun(ctx, `withdraw the trust in ${visible(path)}`, [configFilePath()]);
    const { value: removed } = await changeConfig((current) => {
      if (!trusted(current)) return false;
      current.trustedProjectConfigs = trustedProjectConfigs(current).filter((entry) => entry.path !== path);
      return true;
    });
    ctx.output.success(removed ? `No longer trusted: ${visible(path)}.` : `${visible(path)} was not trusted; nothing changed.`);
    ctx.output.result({ path, removed }, () => undefined, () => [path]);
  },
});
