import { UsageError } from '../../api/errors.js';
import { defineCommand } from '../../cli/command.js';
import { parseBaseUrl } from '../../auth/hosts.js';
import { loadConfigFile, requireProfile, saveConfigFile } from '../../auth/profiles.js';
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
    if (args.baseUrl) profile.baseUrl = parseBaseUrl(args.baseUrl, '--base-url').href.replace(/\/$/, '');
    if (args.sandboxBaseUrl) profile.sandboxBaseUrl = parseBaseUrl(args.sandboxBaseUrl, '--sandbox-base-url').href.replace(/\/$/, '');
    await saveConfigFile(config);
    ctx.output.success(`Profile ${args.name} updated.`);
    ctx.output.result(profileView(args.name, profile, config.defaultProfile === args.name), () => undefined, () => [args.name]);
  },
});
