import { UsageError } from '../core/errors.js';
import { configFilePath } from '../files/own-files.js';
import { readConfigDirFile } from './config-dir.js';
import { trustedProjectConfigs, type TrustedProjectConfig } from '../config/trust.js';
import { writeFileAtomic } from '../files/atomic-file.js';
import type { KeyStorage } from './credential-store.js';
import { containsKeyShapedText, type Mode } from './keys.js';
import { keyShapedPaths } from '../shared/keys.js';

export interface ProfileKeyInfo {
  storage: KeyStorage;
  masked: string;
  /** The key's own id where it is kept (see StoredKeyRef.id); none for a key stored by an earlier version. */
  id?: string;
}

/** What config.json holds about a profile: never a key, only where the key is and how it looks masked. */
export interface Profile {
  baseUrl?: string;
  sandboxBaseUrl?: string;
  keys: Partial<Record<Mode, ProfileKeyInfo>>;
}

export interface ConfigFile {
  defaultProfile?: string;
  /** A null-prototype map read with own-property lookups, so no name (`toString`, `constructor`) finds a built-in. */
  profiles: Record<string, Profile>;
  /** Project config files whose base URLs and code the user accepts (`esign config trust`). */
  trustedProjectConfigs?: TrustedProjectConfig[];
}

const profileNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** Profile names are plain identifiers: never `__proto__`, never key-shaped. */
export function assertProfileName(name: string, source?: string): void {
  if (!profileNamePattern.test(name) || containsKeyShapedText(name)) {
    throw new UsageError(
      `Invalid profile name ${JSON.stringify(name)}${source ? ` (from ${source})` : ''}: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
      containsKeyShapedText(name) ? 'That looks like an API key: keys are stored with `esign profiles add <name>`, never used as names.' : undefined,
      'PROFILE_NAME_INVALID',
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The path of the first key-shaped name or value in a parsed JSON document, if any. */
function keyShapedAt(value: unknown): string | undefined {
  const path = keyShapedPaths(value)[0];
  return path && (path.join('.') || '(root)');
}

/** A config.json a person may have edited: checked, and its profiles put in a null-prototype map. */
function readConfig(parsed: unknown, path: string): ConfigFile {
  const invalid = (what: string) =>
    new UsageError(`${path}: ${what}.`, 'Fix or remove the file; `esign profiles add` recreates it.', 'CONFIG_INVALID');
  const keyAt = keyShapedAt(parsed);
  if (keyAt) {
    throw new UsageError(
      `${path} holds an API key (at ${keyAt}); keys belong in the keychain or the credentials file, never in config.json.`,
      'Remove it from the file, then store it with `esign profiles add <name>`.',
      'CONFIG_CONTAINS_KEY',
    );
  }
  if (!isRecord(parsed)) throw invalid('expected a JSON object');
  const { profiles = {}, defaultProfile, ...rest } = parsed;
  if (!isRecord(profiles)) throw invalid('"profiles" must be an object');
  if (defaultProfile !== undefined && typeof defaultProfile !== 'string') throw invalid('"defaultProfile" must be a string');
  const map: Record<string, Profile> = Object.create(null) as Record<string, Profile>;
  for (const [name, profile] of Object.entries(profiles)) {
    assertProfileName(name, path);
    if (!isRecord(profile) || (profile.keys !== undefined && !isRecord(profile.keys))) throw invalid(`profile ${name} must be an object with a "keys" object`);
    map[name] = { ...profile, keys: { ...(profile.keys as Profile['keys'] | undefined) } } as Profile;
  }
  return { ...rest, ...(defaultProfile === undefined ? {} : { defaultProfile }), profiles: map };
}

export async function loadConfigFile(): Promise<ConfigFile> {
  const path = configFilePath();
  const text = await readConfigDirFile(path);
  if (text === undefined) return { profiles: Object.create(null) as Record<string, Profile> };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}.`, 'Fix or remove the file; `esign profiles add` recreates it.', 'CONFIG_INVALID');
  }
  return readConfig(parsed, path);
}

/**
 * Replaces config.json, never half-written. Only changeConfig (profile-change.ts) calls it, holding the file's lock
 * from the read the change was made on to this write, so that no other esign's change in between is lost.
 */
export async function writeConfigFile(config: ConfigFile): Promise<void> {
  await writeFileAtomic(configFilePath(), `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600, overwrite: true, keyBearing: true });
}

export function findProfile(config: ConfigFile, name: string): Profile | undefined {
  return Object.hasOwn(config.profiles, name) ? config.profiles[name] : undefined;
}

/** The named profile; `source` says where the name came from (`ESIGN_PROFILE`, a project config) when not an argument. */
export function requireProfile(config: ConfigFile, name: string, source?: string): Profile {
  assertProfileName(name, source);
  const profile = findProfile(config, name);
  if (!profile) {
    const known = Object.keys(config.profiles);
    throw new UsageError(
      `No profile named ${JSON.stringify(name)}.`,
      known.length ? `Known profiles: ${known.join(', ')}.` : 'Create one with `esign profiles add <name>`.',
      'PROFILE_NOT_FOUND',
    );
  }
  return profile;
}

/** The project config files config.json says the user trusts (`esign config trust`). */
export async function loadTrustedProjectConfigs(): Promise<TrustedProjectConfig[]> {
  return trustedProjectConfigs(await loadConfigFile());
}
