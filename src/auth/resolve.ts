import { UsageError } from '../api/errors.js';
import { env } from '../config/env.js';
import type { LoadedProjectConfig } from '../config/project.js';
import { credentialStore } from './credential-store.js';
import { parseBaseUrl } from './hosts.js';
import { assertKeyForMode, maskKey, type Mode } from './keys.js';
import { loadConfigFile, requireProfile, type ConfigFile, type Profile } from './profiles.js';

export interface ResolvedCredentials {
  mode: Mode;
  baseUrl: URL;
  key: string;
  /** Where the key came from, for people: `profile acme (keychain)` or `ESIGN_API_KEY`. */
  keySource: string;
  maskedKey: string;
  profileName?: string;
}

export interface ResolveInput {
  live: boolean;
  profileFlag?: string;
  project?: LoadedProjectConfig;
  config?: ConfigFile;
}

/** flag > environment variable > project config file > profile default (pins.md, "Precedence"). */
export function selectProfileName(input: ResolveInput, config: ConfigFile): { name?: string; source: string } {
  if (input.profileFlag) return { name: input.profileFlag, source: '--profile' };
  const fromEnv = env.profile();
  if (fromEnv) return { name: fromEnv, source: 'ESIGN_PROFILE' };
  if (input.project?.config.profile) return { name: input.project.config.profile, source: input.project.filepath };
  if (config.defaultProfile) return { name: config.defaultProfile, source: 'default profile' };
  return { source: 'none' };
}

export function selectBaseUrl(mode: Mode, project: LoadedProjectConfig | undefined, profile: Profile | undefined): { url?: string; source: string } {
  const envValue = mode === 'production' ? env.baseUrl() : env.sandboxBaseUrl();
  if (envValue) return { url: envValue, source: mode === 'production' ? 'ESIGN_BASE_URL' : 'ESIGN_SANDBOX_BASE_URL' };
  const projectValue = mode === 'production' ? project?.config.baseUrl : project?.config.sandboxBaseUrl;
  if (projectValue) return { url: projectValue, source: project!.filepath };
  const profileValue = mode === 'production' ? profile?.baseUrl : profile?.sandboxBaseUrl;
  if (profileValue) return { url: profileValue, source: 'profile' };
  return { source: 'none' };
}

export async function resolveCredentials(input: ResolveInput): Promise<ResolvedCredentials> {
  const mode: Mode = input.live ? 'production' : 'sandbox';
  const config = input.config ?? (await loadConfigFile());
  const selected = selectProfileName(input, config);
  const profile = selected.name ? requireProfile(config, selected.name, selected.source) : undefined;

  const envKey = env.apiKey();
  let key: string | undefined;
  let keySource: string;
  if (envKey) {
    key = envKey;
    keySource = 'ESIGN_API_KEY';
  } else if (profile && selected.name) {
    const info = profile.keys[mode];
    keySource = `profile ${selected.name} (${info?.storage ?? 'no key'})`;
    if (info) {
      try {
        key = await credentialStore.load({ profile: selected.name, mode }, info.storage);
      } catch (error) {
        throw new UsageError(
          `Could not read the ${mode} key of profile ${selected.name} from the ${info.storage}: ${(error as Error).message}.`,
          'Unlock the keychain, or set ESIGN_API_KEY for this shell.',
          'KEY_UNREADABLE',
        );
      }
    }
  } else {
    keySource = 'none';
  }
  if (!key) {
    const kind = mode === 'production' ? 'live' : 'test';
    throw new UsageError(
      selected.name ? `Profile ${selected.name} has no ${kind} key.` : `No API key: no ESIGN_API_KEY and no profile.`,
      selected.name
        ? `Add it with \`esign profiles add ${selected.name}\`${mode === 'production' ? '' : ', or pass --live to use the live key'}.`
        : 'Run `esign profiles add <name>`, or set ESIGN_API_KEY (`esign emulator` prints a key for local use).',
      'KEY_MISSING',
    );
  }
  assertKeyForMode(key, mode, keySource);

  const base = selectBaseUrl(mode, input.project, profile);
  if (!base.url) {
    const variable = mode === 'production' ? 'ESIGN_BASE_URL' : 'ESIGN_SANDBOX_BASE_URL';
    const flag = mode === 'production' ? '--base-url' : '--sandbox-base-url';
    throw new UsageError(
      `No ${mode} base URL is configured.`,
      `Set ${variable}, or run \`esign profiles set <name> ${flag} URL\`. For a local emulator, run \`esign emulator\` in another terminal and use the export line it prints.`,
      'BASE_URL_MISSING',
    );
  }
  const baseUrl = parseBaseUrl(base.url, base.source);

  return {
    mode,
    baseUrl,
    key,
    keySource,
    maskedKey: maskKey(key),
    ...(selected.name ? { profileName: selected.name } : {}),
  };
}
