import { join } from 'node:path';
import { env } from '../core/env.js';

/** esign's profiles, with the base URL each key is bound to. */
export const configFilePath = (): string => join(env.configDir(), 'config.json');

/** Keys stored without a keychain, and webhook secrets. */
export const credentialsFilePath = (): string => join(env.configDir(), 'credentials.json');

/** The names (never the values) of the keys a profile change is storing or deleting, until it is done. */
export const pendingKeysFilePath = (): string => join(env.configDir(), 'pending-keys.json');

/**
 * The files a key or its binding is read from. No command output may replace one (`--out credentials.json --force`
 * would lose every stored key); only esign's own writes of them may.
 */
export function keyBearingFiles(): string[] {
  const keyFile = env.apiKeyFile();
  return [configFilePath(), credentialsFilePath(), ...(keyFile ? [keyFile] : [])];
}
