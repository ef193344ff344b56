import { ApiClient } from '../../api/client.js';
import { ApiError, isEsignError, UsageError } from '../../core/errors.js';
import { defineCommand, type Context } from '../../cli/command.js';
import { readStdin } from '../../input/stdin.js';
import { stopIfDryRun } from '../../cli/dry-run-change.js';
import { changeConfig } from '../../auth/profile-change.js';
import { configFilePath, credentialsFilePath } from '../../files/own-files.js';
import { parseBaseUrl } from '../../auth/hosts.js';
import { assertKeyForMode, maskKey, modeLabel, type Mode } from '../../auth/keys.js';
import { parseKey } from '../../shared/keys.js';
import { assertProfileName, findProfile, loadConfigFile, type Profile } from '../../auth/profiles.js';
import { redactor } from '../../output/redact.js';
import { visible } from '../../output/sanitize.js';

interface AddArgs {
  name: string;
  testKeyStdin?: boolean;
  liveKeyStdin?: boolean;
  baseUrl?: string;
  sandboxBaseUrl?: string;
  verify?: boolean;
  default?: boolean;
}

function keyValidator(mode: Mode) {
  return (value: string): true | string => {
    if (value === '') return true;
    const parsed = parseKey(value.trim());
    if (!parsed) return 'Not a valid key: expected <prefix>_test_<secret> or <prefix>_live_<secret>.';
    if (parsed.mode !== mode) return `That is a ${modeLabel(parsed.mode)} key; this prompt wants the ${modeLabel(mode)} key.`;
    return true;
  };
}

/** Keys from stdin: with both flags, the first non-empty line is the test key and the second the live key. */
async function keysFromStdin(args: AddArgs, ctx: Context): Promise<Partial<Record<Mode, string>>> {
  const lines = (await readStdin(ctx.stdin, 'The key')).split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  const wanted: Mode[] = [...(args.testKeyStdin ? (['sandbox'] as const) : []), ...(args.liveKeyStdin ? (['production'] as const) : [])];
  if (lines.length !== wanted.length) {
    throw new UsageError(
      `Expected ${wanted.length} key line(s) on standard input, got ${lines.length}.`,
      wanted.length === 2 ? 'Send the test key on the first line and the live key on the second.' : undefined,
    );
  }
  return Object.fromEntries(wanted.map((mode, index) => [mode, lines[index]!]));
}

/**
 * `me` with the key before it is stored. A failure says which key (masked) from where, and that nothing was saved: a
 * bare 401 left the person unsure whether the profile now held a wrong key.
 */
async function verifyKey(key: string, mode: Mode, source: string, baseUrl: URL, profile: string, ctx: Context): Promise<void> {
  const client = new ApiClient({ baseUrl, key, userAgent: `esign-cli/${ctx.version}`, timeoutMs: ctx.globals.timeout * 1000 });
  try {
    const { body } = await client.call<{ account?: { name?: string } }>('getMe');
    ctx.output.success(`${maskKey(key)} is valid for ${visible(body.account?.name ?? 'the account')} at ${baseUrl.origin}`);
  } catch (error) {
    if (isEsignError(error)) {
      const refused = error instanceof ApiError && error.status === 401 ? 'was refused' : 'could not be checked';
      const what = `The ${modeLabel(mode)} key ${maskKey(key)} from ${source} ${refused} at ${baseUrl.origin}; nothing was saved (profile ${profile} is as it was).`;
      error.hint = [what, error.hint].filter(Boolean).join(' ');
    }
    throw error;
  } finally {
    await client.close();
  }
}

/** What the key was read from, for messages: the flag, or the prompt. */
function keySourceOf(args: AddArgs, mode: Mode): string {
  if (args.testKeyStdin || args.liveKeyStdin) return `standard input (${mode === 'production' ? '--live-key-stdin' : '--test-key-stdin'})`;
  return `the ${mode === 'production' ? 'Live' : 'Test'} key prompt`;
}

export default defineCommand<AddArgs>({
  name: 'add',
  description: 'Add or update a profile: its test and live keys (stored in the OS keychain) and base URLs',
  arguments: [{ name: 'name', description: 'profile name, e.g. acme' }],
  options: [
    { flags: '--test-key-stdin', description: 'read the test key from standard input (never pass a key as an argument)' },
    { flags: '--live-key-stdin', description: 'read the live key from standard input (after the test key when both are given)' },
    { flags: '--base-url <url>', description: 'production API base URL' },
    { flags: '--sandbox-base-url <url>', description: 'sandbox API base URL' },
    { flags: '--verify', description: 'call `me` with each key before storing it' },
    { flags: '--default', description: 'make this the default profile (the first profile always is)' },
  ],
  examples: [
    'esign profiles add acme',
    'printf %s "$ESIGN_TEST_KEY" | esign profiles add ci --test-key-stdin --sandbox-base-url https://sandbox.example.com',
  ],
  async handler(args, ctx) {
    assertProfileName(args.name);
    const config = await loadConfigFile();
    const existing: Profile = findProfile(config, args.name) ?? { keys: {} };
    let keys: Partial<Record<Mode, string>>;
    let sandboxBaseUrl = args.sandboxBaseUrl ?? existing.sandboxBaseUrl;
    let baseUrl = args.baseUrl ?? existing.baseUrl;

    if (args.testKeyStdin || args.liveKeyStdin) {
      keys = await keysFromStdin(args, ctx);
    } else {
      const instead = '--test-key-stdin and/or --live-key-stdin (with the key piped in)';
      const test = (await ctx.prompts.secret('Test key (Enter to skip)', instead, keyValidator('sandbox'))).trim();
      const live = (await ctx.prompts.secret('Live key (Enter to skip)', instead, keyValidator('production'))).trim();
      keys = { ...(test ? { sandbox: test } : {}), ...(live ? { production: live } : {}) };
      // A key is sent only to the base URL stored with it: a key saved without one could never be used.
      const validUrl =
        (known: string | undefined, where: string) =>
        (value: string): true | string => {
          if (value.trim() === '') return known ? true : `A base URL is needed: the key is sent only there. ${where}`;
          try {
            parseBaseUrl(value.trim(), 'the prompt');
            return true;
          } catch (error) {
            return (error as Error).message;
          }
        };
      const sandboxWhere = 'Your provider gives the sandbox address; for the emulator, the URL `esign emulator` prints.';
      const ask = async (message: string, flag: string, known: string | undefined, where: string) =>
        (await ctx.prompts.input(message, flag, { validate: validUrl(known, where), ...(known ? { defaultValue: known } : {}) })).trim() || known;
      if (keys.sandbox) sandboxBaseUrl = await ask('Sandbox base URL', '--sandbox-base-url', sandboxBaseUrl, sandboxWhere);
      if (keys.production) baseUrl = await ask('Production base URL', '--base-url', baseUrl, 'Your provider gives the production address.');
    }
    if (!keys.sandbox && !keys.production && !args.baseUrl && !args.sandboxBaseUrl) {
      throw new UsageError('Nothing to store: no key and no base URL was given.', 'Give at least one key (at the prompt or with --test-key-stdin / --live-key-stdin).');
    }
    const urls: Record<Mode, URL | undefined> = {
      sandbox: sandboxBaseUrl ? parseBaseUrl(sandboxBaseUrl, 'the sandbox base URL') : undefined,
      production: baseUrl ? parseBaseUrl(baseUrl, 'the production base URL') : undefined,
    };
    for (const [mode, key] of Object.entries(keys) as [Mode, string][]) {
      redactor.registerSecret(key);
      const [source, otherFlag] = mode === 'production' ? ['the live key input', '--test-key-stdin'] : ['the test key input', '--live-key-stdin'];
      assertKeyForMode(key, mode, source, `Read it with ${otherFlag} instead (with both flags, the test key is the first line and the live key the second).`);
      if (args.verify) {
        const url = urls[mode];
        if (!url) throw new UsageError(`--verify needs the ${mode} base URL.`, mode === 'production' ? 'Pass --base-url.' : 'Pass --sandbox-base-url.');
        await verifyKey(key, mode, keySourceOf(args, mode), url, args.name, ctx);
      }
    }

    const makeDefault = args.default === true || !config.defaultProfile;
    const stored = (Object.entries(keys) as [Mode, string][]).map(([mode, key]) => `${modeLabel(mode)} key ${maskKey(key)}`);
    const changes = [
      ...stored,
      ...(urls.sandbox ? [`sandbox base URL ${urls.sandbox.href}`] : []),
      ...(urls.production ? [`production base URL ${urls.production.href}`] : []),
      ...(makeDefault ? ['as the default profile'] : []),
    ];
    stopIfDryRun(
      ctx,
      `save profile ${args.name}: ${changes.join(', ')}${stored.length ? ` (keys in the OS keychain, or ${credentialsFilePath()} where none answers)` : ''}`,
      [configFilePath()],
    );
    // One transaction: the keys stored under fresh ids, config.json switched to them, the keys they replace deleted.
    const { value: saved, notDeleted } = await changeConfig(async (current, keyChanges) => {
      const before: Profile = findProfile(current, args.name) ?? { keys: {} };
      // A base URL only defaulted from the profile as first read is not written back over one changed since.
      const profile: Profile = {
        ...before,
        ...(urls.production && baseUrl !== existing.baseUrl ? { baseUrl: urls.production.href.replace(/\/$/, '') } : {}),
        ...(urls.sandbox && sandboxBaseUrl !== existing.sandboxBaseUrl ? { sandboxBaseUrl: urls.sandbox.href.replace(/\/$/, '') } : {}),
        keys: { ...before.keys },
      };
      const inFile: string[] = [];
      for (const [mode, key] of Object.entries(keys) as [Mode, string][]) {
        const kept = await keyChanges.store(args.name, mode, key);
        const replaced = before.keys[mode];
        if (replaced) keyChanges.retire(args.name, mode, replaced);
        profile.keys[mode] = kept.info;
        if (kept.file) {
          inFile.push(`No usable keychain${kept.file.keychainError ? ` (${visible(kept.file.keychainError)})` : ''}: the ${modeLabel(mode)} key is stored in a plain file, ${kept.file.path} (mode 0600).`);
        }
      }
      current.profiles[args.name] = profile;
      if (args.default === true || !current.defaultProfile) current.defaultProfile = args.name;
      return { profile, isDefault: current.defaultProfile === args.name, inFile };
    });
    for (const warning of saved.inFile) ctx.output.warn(warning);
    for (const problem of notDeleted) ctx.output.warn(`The key replaced could not be deleted yet (${visible(problem)}); no profile uses it, and the next change of a profile deletes it.`);
    const { profile, isDefault } = saved;
    const storedKeys = (Object.keys(keys) as Mode[]).map((mode) => `${profile.keys[mode]!.masked} (${profile.keys[mode]!.storage})`);
    ctx.output.success(`Profile ${args.name} saved${storedKeys.length ? `: ${storedKeys.join(', ')}` : ''}${isDefault ? ' (default)' : ''}.`);
    // Where each key is kept, as `profiles show` says it; its id is config.json's business.
    const shownKeys = Object.fromEntries(Object.entries(profile.keys).map(([mode, info]) => [mode, { storage: info.storage, masked: info.masked }]));
    ctx.output.result({ profile: args.name, default: isDefault, ...profile, keys: shownKeys }, () => undefined, () => [args.name]);
  },
});
