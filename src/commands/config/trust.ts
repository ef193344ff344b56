import { defineCommand } from '../../cli/command.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { changeConfig } from '../../auth/profile-change.js';
import { configFilePath } from '../../files/own-files.js';
import { assertNoKeyShapedText, assertSelfContained, evaluateProjectConfigFile } from '../../config/project.js';
import { trustedProjectConfigs } from '../../config/trust.js';
import { visible } from '../../output/sanitize.js';
import { locateProjectConfig } from './locate.js';

export default defineCommand<{ file?: string }>({
  name: 'trust',
  description: 'Trust a project config file as it is now: esign then uses its base URLs (and runs it, if it is code)',
  arguments: [{ name: 'file', description: 'the file (default: the project config found in the working directory)', required: false, completion: 'file' }],
  examples: ['esign config trust', 'esign config trust ./.esignrc.yaml'],
  async handler(args, ctx) {
    const file = await locateProjectConfig(args.file);
    assertNoKeyShapedText(file);
    assertSelfContained(file);
    const settings = file.executesCode ? undefined : await evaluateProjectConfigFile(file);
    // The path and the base URLs come from the file system and the file: control characters are shown, never sent.
    const trusted = visible(`${file.realpath} (sha256 ${file.sha256.slice(0, 12)}…)`);
    const destinations = visible(`sandbox ${settings?.sandboxBaseUrl ?? '(not set)'}, production ${settings?.baseUrl ?? '(not set)'}`);
    stopIfDryRun(ctx, `trust ${trusted}, ${file.executesCode ? 'a program esign would then run on every command that needs a key' : `which sends keys to ${destinations}`}`, [configFilePath()]);
    const entry = { path: file.realpath, sha256: file.sha256, trustedAt: new Date().toISOString() };
    await changeConfig((current) => {
      current.trustedProjectConfigs = [...trustedProjectConfigs(current).filter((trusted) => trusted.path !== file.realpath), entry];
    });
    ctx.output.success(`Trusted ${trusted}.`);
    ctx.output.info(file.executesCode ? 'It is a program: esign will run it on every command that needs a key, until it changes.' : `It sends keys to: ${destinations}; until it changes.`);
    ctx.output.result({ ...entry, executesCode: file.executesCode, baseUrl: settings?.baseUrl ?? null, sandboxBaseUrl: settings?.sandboxBaseUrl ?? null }, () => undefined, () => [file.realpath]);
  },
});
