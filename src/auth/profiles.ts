import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../api/errors.js';
import { env } from '../config/env.js';
import type { TrustedProjectConfig } from '../config/trust.js';
import { writeFileAtomic } from '../output/atomic-file.js';
import type { KeyStorage } from './credential-store.js';
import type { Mode } from './keys.js';

export interface ProfileKeyInfo {
  storage: KeyStorage;
  masked: string;
}

/** What config.json holds about a profile: never a key, only where the key is and how it looks masked. */
export interface Profile {
  baseUrl?: string;
  sandboxBaseUrl?: string;
  keys: Partial<Record<Mode, ProfileKeyInfo>>;
}

export interface ConfigFile {
  defaultProfile?: string;
  profiles: Record<string, Profile>;
  /** Project config files whose base URLs and code the user accepts (`esign config trust`). */
  trustedProjectConfigs?: TrustedProjectConfig[];
}

export function configFilePath(): string {
  return join(env.configDir(), 'config.json');
}

const profileNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function assertProfileName(name: string): void {
  if (!profileNamePattern.test(name)) {
    throw new UsageError(
      `Invalid profile name ${JSON.stringify(name)}: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
    );
  }
}

export async function loadConfigFile(): Promise<ConfigFile> {
  const path = configFilePath();
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<ConfigFile>;
    return { ...parsed, profiles: parsed.profiles ?? {} };
  } catch (error) {
    throw new UsageError(`${path} is not valid JSON: ${(error as Error).message}.`, 'Fix or remove the file; `esign profiles add` recreates it.', 'CONFIG_INVALID');
  }
}

export async function saveConfigFile(config: ConfigFile): Promise<void> {
  const path = configFilePath();
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // esign's own file: always replaced, never half-written.
  await writeFileAtomic(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600, overwrite: true });
}

export function requireProfile(config: ConfigFile, name: string): Profile {
  const profile = config.profiles[name];
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
