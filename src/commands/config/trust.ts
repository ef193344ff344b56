import { defineCommand } from '../../cli/command.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { configFilePath, loadConfigFile, saveConfigFile } from '../../auth/profiles.js';
import { assertNoKeyShapedText, evaluateProjectConfigFile } from '../../config/project.js';
import { trustedProjectConfigs } from '../../config/trust.js';
import { locateProjectConfig } from './locate.js';

export default defineCommand<{ file?: string }>({
  name: 'trust',
  description: 'Trust a project config file as it is now: esign then uses its base URLs (and runs it, if it is code)',
  arguments: [{ name: 'file', description: 'the file (default: the project config found in the working directory)', required: false, completion: 'file' }],
  examples: ['esign config trust', 'esign config trust ./.esignrc.yaml'],
  async handler(args, ctx) {
    const file = await locateProjectConfig(args.file);
    assertNoKeyShapedText(file);
    const settings = file.executesCode ? undefined : await evaluateProjectConfigFile(file);
    const what = file.executesCode
      ? 'It is a program: esign will run it on every command that needs a key, until it changes.'
      : `It sends keys to: sandbox ${settings?.sandboxBaseUrl ?? '(not set)'}, production ${settings?.baseUrl ?? '(not set)'}; until it changes.`;
    const config = await loadConfigFile();
    stopIfDryRun(
      ctx,
      `trust ${file.realpath} (sha256 ${file.sha256.slice(0, 12)}…), ${file.executesCode ? 'a program esign would then run on every command that needs a key' : `which sends keys to sandbox ${settings?.sandboxBaseUrl ?? '(not set)'}, production ${settings?.baseUrl ?? '(not set)'}`}`,
      [configFilePath()],
    );
    const entry = { path: file.realpath, sha256: file.sha256, trustedAt: new Date().toISOString() };
    config.trustedProjectConfigs = [...trustedProjectConfigs(config).filter((trusted) => trusted.path !== file.realpath), entry];
    await saveConfigFile(config);
    ctx.output.success(`Trusted ${file.realpath} (sha256 ${file.sha256.slice(0, 12)}…).\n${what}`);
    ctx.output.result({ ...entry, executesCode: file.executesCode, baseUrl: settings?.baseUrl ?? null, sandboxBaseUrl: settings?.sandboxBaseUrl ?? null }, () => undefined, () => [file.realpath]);
  },
});
