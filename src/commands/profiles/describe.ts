import { credentialsFilePath } from '../../files/own-files.js';
import type { Mode } from '../../auth/keys.js';
import type { Profile } from '../../auth/profiles.js';

export function describeKey(profile: Profile, mode: Mode): string {
  const info = profile.keys[mode];
  if (!info) return '-';
  return `${info.masked} (${info.storage === 'file' ? `file ${credentialsFilePath()}` : 'keychain'})`;
}

export function profileView(name: string, profile: Profile, isDefault: boolean) {
  return {
    name,
    default: isDefault,
    baseUrl: profile.baseUrl ?? null,
    sandboxBaseUrl: profile.sandboxBaseUrl ?? null,
    keys: Object.fromEntries(
      (['sandbox', 'production'] as const).map((mode) => [mode, profile.keys[mode] ? { masked: profile.keys[mode]!.masked, storage: profile.keys[mode]!.storage } : null]),
    ),
  };
}
