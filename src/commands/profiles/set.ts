import { UsageError } from '../../core/errors.js';
import { defineCommand } from '../../cli/command.js';
import { parseBaseUrl } from '../../auth/hosts.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { changeConfig } from '../../auth/profile-change.js';
import { loadConfigFile, requireProfile } from '../../auth/profiles.js';
import { configFilePath } from '../../files/own-files.js';
import { profileView } from './describe.js';

export default defineCommand<{ name: string; baseUrl?: string; sandboxBaseUrl?: string }>({
  name: 'set',
  description: "Change a profile's base URLs",
  arguments: [{ name: 'name', description: 'profile name', completion: 'profile' }],
  options: [
    { flags: '--base-url <url>', description: 'production API base URL' },
    { flags: '--sandbox-base-url <url>', description: 'sandbox API base URL' },
  ],
  examples: ['esign profiles set acme --sandbox-base-url https://sandbox.example.com', 'esign profiles set ci --sandbox-base-url http://127.0.0.1:8787   # the emulator'],
  async handler(args, ctx) {
    if (!args.baseUrl && !args.sandboxBaseUrl) throw new UsageError('Nothing to change.', 'Pass --base-url and/or --sandbox-base-url.');
    const config = await loadConfigFile();
    const profile = requireProfile(config, args.name);
    const baseUrl = args.baseUrl ? parseBaseUrl(args.baseUrl, '--base-url').href.replace(/\/$/, '') : undefined;
    const sandboxBaseUrl = args.sandboxBaseUrl ? parseBaseUrl(args.sandboxBaseUrl, '--sandbox-base-url').href.replace(/\/$/, '') : undefined;
    const changes = [
      ...(sandboxBaseUrl ? [`sandbox base URL to ${sandboxBaseUrl} (was ${profile.sandboxBaseUrl ?? 'not set'})`] : []),
      ...(baseUrl ? [`production base URL to ${baseUrl} (was ${profile.baseUrl ?? 'not set'})`] : []),
    ];
    stopIfDryRun(ctx, `set profile ${args.name}'s ${changes.join(' and ')}`, [configFilePath()]);
    const { value: view } = await changeConfig((current) => {
      const changed = requireProfile(current, args.name);
      if (baseUrl) changed.baseUrl = baseUrl;
      if (sandboxBaseUrl) changed.sandboxBaseUrl = sandboxBaseUrl;
      return profileView(args.name, changed, current.defaultProfile === args.name);
    });
    ctx.output.success(`Profile ${args.name} updated.`);
    ctx.output.result(view, () => undefined, () => [args.name]);
  },
});
