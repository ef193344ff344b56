import { UsageError } from '../core/errors.js';
import { env } from '../core/env.js';
import type { LoadedProjectConfig } from '../config/project.js';
import { trustCommand } from '../config/trust.js';
import { credentialStore } from './credential-store.js';
import { parseBaseUrl } from './hosts.js';
import { assertKeyForMode, maskKey, modeLabel, type Mode } from './keys.js';
import { configExposures, type Exposure } from './config-dir.js';
import { loadConfigFile, requireProfile, type ConfigFile, type Profile } from './profiles.js';

export interface ResolvedCredentials {
  mode: Mode;
  baseUrl: URL;
  key: string;
  /** Where the key came from, for people: `profile acme (keychain)`, `ESIGN_API_KEY` or `ESIGN_API_KEY_FILE (path)`. */
  keySource: string;
  maskedKey: string;
  profileName?: string;
  /** How the profile whose key is used was chosen (`--profile`, ESIGN_PROFILE, a project file, the default); absent when the key came from the environment. */
  profileSource?: string;
  /** Worth telling the user, not worth refusing (a key file others can read). */
  /** About the key's own source (an ESIGN_API_KEY_FILE others can read). */
  warnings?: string[];
  /** esign's files others can change or read, for a profile's key (see configExposures). */
  exposures?: Exposure[];
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

/** Where a key came from decides where it may go: a stored key only to the base URL stored with it. */
export type KeyOrigin = 'environment' | 'profile';

export interface BaseUrlChoice {
  url: URL;
  source: string;
}

export interface BaseUrlInput {
  mode: Mode;
  keyOrigin: KeyOrigin;
  project?: LoadedProjectConfig | undefined;
  profile?: Profile | undefined;
  profileName?: string | undefined;
}

function namesFor(mode: Mode) {
  return mode === 'production'
    ? { variable: 'ESIGN_BASE_URL', setting: 'baseUrl', flag: '--base-url' }
    : { variable: 'ESIGN_SANDBOX_BASE_URL', setting: 'sandboxBaseUrl', flag: '--sandbox-base-url' };
}

/** Origin plus path prefix, as parseBaseUrl normalises them: the identity a key is bound to. */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function sameBase(one: BaseUrlChoice | undefined, other: BaseUrlChoice | undefined): boolean {
  return one !== undefined && other !== undefined && shown(one.url) === shown(other.url);
}

/**
 * The base URL a key may be sent to. Precedence is flag > environment variable > project config > profile (pins.md),
 * within two limits: a project file's base URL counts only once the user trusts that file (or when it is the profile's
 * own), and a key goes only to a base URL bound to where it came from: a stored key to the one stored with its profile
 * (or a trusted project's), never to one an environment variable names; a key from the environment to the one the
 * environment names (or a trusted project's), never to one stored with a profile.
 */
export function selectBaseUrl(input: BaseUrlInput): BaseUrlChoice {
  const { mode, keyOrigin, project, profile, profileName } = input;
  const names = namesFor(mode);
  const envValue = mode === 'production' ? env.baseUrl() : env.sandboxBaseUrl();
  const projectValue = mode === 'production' ? project?.config.baseUrl : project?.config.sandboxBaseUrl;
  const profileValue = mode === 'production' ? profile?.baseUrl : profile?.sandboxBaseUrl;
  const fromEnv = envValue ? { url: parseBaseUrl(envValue, names.variable), source: names.variable } : undefined;
  const fromProject = project && projectValue ? { url: parseBaseUrl(projectValue, project.filepath), source: project.filepath } : undefined;
  const fromProfile = profileValue ? { url: parseBaseUrl(profileValue, `profile ${profileName}`), source: `profile ${profileName}` } : undefined;

  const chosen = fromEnv ?? fromProject ?? fromProfile;
  if (!chosen) {
    if (keyOrigin === 'profile') {
      throw new UsageError(
        `Profile ${profileName} has no ${mode} base URL, and a stored key is sent only to the base URL stored with it.`,
        `Run \`esign profiles set ${profileName} ${names.flag} URL\`.`,
        'BASE_URL_MISSING',
      );
    }
    throw new UsageError(
      `No ${mode} base URL is configured.`,
      `Set ${names.variable}, or run \`esign profiles set <name> ${names.flag} URL\`. For a local emulator, run \`esign emulator\` in another terminal and use the export line it prints.`,
      'BASE_URL_MISSING',
    );
  }
  // The profile's own base URL needs no trust for the profile's own key; a key from the environment is not bound to it.
  if (chosen === fromProject && project!.trust !== 'trusted' && !(keyOrigin === 'profile' && sameBase(fromProject, fromProfile))) {
    throw new UsageError(
      `${project!.filepath} sets ${names.setting} to ${shown(fromProject.url)}, but ${project!.trust === 'changed' ? 'the file has changed since you trusted it' : 'you have not trusted this file'}, so esign sends no key there.`,
      `If you trust this file and that host, run \`${trustCommand(project!.filepath)}\`; otherwise remove ${names.setting} from it.`,
      'PROJECT_CONFIG_UNTRUSTED',
    );
  }
  if (keyOrigin === 'environment' && chosen === fromProfile) {
    throw new UsageError(
      `${names.variable} is not set, and a key from the environment (ESIGN_API_KEY, ESIGN_API_KEY_FILE) is sent only to the base URL the environment names, never to the one stored with profile ${profileName} (${shown(chosen.url)}).`,
      `Set ${names.variable} to the base URL that key is for; or, to use profile ${profileName}'s own key, unset ESIGN_API_KEY and ESIGN_API_KEY_FILE.`,
      'KEY_ORIGIN_MISMATCH',
    );
  }
  const boundToProfile = sameBase(chosen, fromProfile) || (project?.trust === 'trusted' && sameBase(chosen, fromProject));
  if (keyOrigin === 'profile' && chosen === fromEnv && !boundToProfile) {
    throw new UsageError(
      fromProfile
        ? `${names.variable} (${shown(fromEnv.url)}) is not the ${mode} base URL stored with profile ${profileName} (${shown(fromProfile.url)}), and a stored key is sent only to the base URL stored with it.`
        : `${names.variable} (${shown(fromEnv.url)}) is set, but profile ${profileName} has no ${mode} base URL, and a stored key is sent only to the base URL stored with it.`,
      `To use that host with this profile, run \`esign profiles set ${profileName} ${names.flag} ${shown(fromEnv.url)}\`; to use another key there, set ESIGN_API_KEY or ESIGN_API_KEY_FILE; or unset ${names.variable}.`,
      'KEY_ORIGIN_MISMATCH',
    );
  }
  return chosen;
}

/**
 * A live key never goes to a URL this set-up calls a sandbox URL (ESIGN_SANDBOX_BASE_URL, a project's or any profile's
 * sandboxBaseUrl): the same address in both places is a mistake, and the service would see a live key where test keys
 * go. Refused before anything is sent, naming both.
 */
function refuseSandboxUrl(baseUrl: URL, source: string, keySource: string, config: ConfigFile, project: LoadedProjectConfig | undefined): void {
  const sandboxUrls = [
    { raw: env.sandboxBaseUrl(), where: 'ESIGN_SANDBOX_BASE_URL' },
    { raw: project?.config.sandboxBaseUrl, where: `sandboxBaseUrl in ${project?.filepath}` },
    ...Object.entries(config.profiles).map(([name, profile]) => ({ raw: profile.sandboxBaseUrl, where: `profile ${name} (sandbox base URL)` })),
  ];
  for (const { raw, where } of sandboxUrls) {
    if (raw === undefined) continue;
    let sandbox: URL;
    try {
      sandbox = parseBaseUrl(raw, where);
    } catch {
      continue;
    }
    if (shown(sandbox) !== shown(baseUrl)) continue;
    throw new UsageError(
      `The live key from ${keySource} would go to ${shown(baseUrl)} (the production base URL from ${source}), which ${where} names as a sandbox URL; nothing was sent.`,
      `Set the production base URL to the live service's address (\`esign profiles set <name> --base-url URL\` or ESIGN_BASE_URL), or leave out --live to use the test key there.`,
      'LIVE_KEY_TO_SANDBOX',
    );
  }
}

interface FoundKey {
  key?: string;
  keySource: string;
  keyOrigin: KeyOrigin;
  warning?: string;
}

async function environmentKey(): Promise<FoundKey | undefined> {
  const direct = env.apiKey();
  const file = env.apiKeyFile();
  if (direct && file) {
    throw new UsageError('Both ESIGN_API_KEY and ESIGN_API_KEY_FILE are set, so the key to use is ambiguous.', 'Unset one of them.', 'KEY_AMBIGUOUS');
  }
  if (direct) return { key: direct, keySource: 'ESIGN_API_KEY', keyOrigin: 'environment' };
  if (!file) return undefined;
  const { readKeyFile } = await import('./key-file.js');
  return { ...(await readKeyFile(file)), keySource: `ESIGN_API_KEY_FILE (${file})`, keyOrigin: 'environment' };
}

async function profileKey(mode: Mode, profile: Profile | undefined, name: string | undefined): Promise<FoundKey> {
  if (!profile || !name) return { keySource: 'none', keyOrigin: 'profile' };
  const info = profile.keys[mode];
  const keySource = `profile ${name} (${info?.storage ?? 'no key'})`;
  if (!info) return { keySource, keyOrigin: 'profile' };
  try {
    return { key: await credentialStore.load({ profile: name, mode, ...(info.id ? { id: info.id } : {}) }, info.storage), keySource, keyOrigin: 'profile' };
  } catch (error) {
    // The credentials file's own problems say what to do about the file.
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `Could not read the ${mode} key of profile ${name} from the ${info.storage}: ${(error as Error).message}.`,
      'Unlock the keychain, or set ESIGN_API_KEY for this shell.',
      'KEY_UNREADABLE',
    );
  }
}

/** No key to use: says what is missing, and only the fixes that apply (never --live for a profile without a live key). */
function missingKey(mode: Mode, config: ConfigFile, profile: Profile | undefined, name: string | undefined): UsageError {
  if (profile && name) {
    const other: Mode = mode === 'production' ? 'sandbox' : 'production';
    const switchMode = profile.keys[other] ? (mode === 'production' ? ', or leave out --live to use its test key' : ', or pass --live to use its live key') : '';
    return new UsageError(`Profile ${name} has no ${modeLabel(mode)} key.`, `Add it with \`esign profiles add ${name}\`${switchMode}.`, 'KEY_MISSING');
  }
  const known = Object.keys(config.profiles).sort();
  if (known.length) {
    return new UsageError(
      `No default profile, and no --profile, ESIGN_PROFILE, ESIGN_API_KEY or ESIGN_API_KEY_FILE says which key to use.`,
      `Profiles here: ${known.join(', ')}. Make one the default with \`esign profiles use <name>\`, or pass --profile <name>.`,
      'PROFILE_NOT_CHOSEN',
    );
  }
  return new UsageError(
    'No API key: no ESIGN_API_KEY, no ESIGN_API_KEY_FILE and no profile.',
    'Run `esign profiles add <name>`, or set ESIGN_API_KEY (`esign emulator` prints a key for local use).',
    'KEY_MISSING',
  );
}

export async function resolveCredentials(input: ResolveInput): Promise<ResolvedCredentials> {
  const mode: Mode = input.live ? 'production' : 'sandbox';
  const config = input.config ?? (await loadConfigFile());
  const selected = selectProfileName(input, config);
  const profile = selected.name ? requireProfile(config, selected.name, selected.source) : undefined;

  const found = (await environmentKey()) ?? (await profileKey(mode, profile, selected.name));
  const { key, keySource } = found;
  if (!key) throw missingKey(mode, config, profile, selected.name);
  assertKeyForMode(key, mode, keySource);
  const { url: baseUrl, source: baseUrlSource } = selectBaseUrl({ mode, keyOrigin: found.keyOrigin, project: input.project, profile, profileName: selected.name });
  if (mode === 'production') refuseSandboxUrl(baseUrl, baseUrlSource, keySource, config, input.project);

  return {
    mode,
    baseUrl,
    key,
    keySource,
    maskedKey: maskKey(key),
    ...(selected.name ? { profileName: selected.name } : {}),
    ...(found.keyOrigin === 'profile' ? { profileSource: selected.source } : {}),
    ...(await warningsOf(found)),
  };
}

/**
 * What the person is told beside the answer: a key file others can read, and, for a profile's key, config files
 * others can change (the base URL the key goes to) or read (the keys), which only `esign doctor` said before.
 */
async function warningsOf(found: FoundKey): Promise<Pick<ResolvedCredentials, 'warnings' | 'exposures'>> {
  const exposures = found.keyOrigin === 'profile' ? await configExposures() : [];
  return { ...(found.warning ? { warnings: [found.warning] } : {}), ...(exposures.length ? { exposures } : {}) };
}

/**
 * Where the key in use came from, for people: the variable, or the profile, its storage and what chose that profile. A
 * profile whose key was not used (ESIGN_API_KEY set beside --profile) is never named.
 */
export function describeKeyOrigin(credentials: Pick<ResolvedCredentials, 'keySource' | 'profileSource'>): string {
  const { keySource, profileSource } = credentials;
  if (!profileSource) return keySource;
  return `${keySource}, ${profileSource === 'default profile' ? 'the default profile' : `chosen by ${profileSource}`}`;
}

/** What to say when the service refuses the key (401): which key, from where, and how to replace it. */
export function refusedKeyHint(credentials: ResolvedCredentials): string {
  const kind = modeLabel(credentials.mode);
  const replace = credentials.profileSource
    ? `store a current one with \`esign profiles add ${credentials.profileName}\``
    : credentials.keySource === 'ESIGN_API_KEY'
      ? `set ESIGN_API_KEY to a current ${kind} key`
      : `put a current ${kind} key in that file`;
  return `The ${kind} key ${credentials.maskedKey} from ${describeKeyOrigin(credentials)} was refused. If it was revoked or mistyped, ${replace}; \`esign doctor\` checks the whole set-up.`;
}
