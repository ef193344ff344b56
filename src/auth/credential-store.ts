import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { env } from '../config/env.js';
import { writeFileAtomic } from '../output/atomic-file.js';
import type { Mode } from './keys.js';

export type KeyStorage = 'keychain' | 'file';

export interface StoredKeyRef {
  profile: string;
  mode: Mode;
}

const keyringService = 'esign-cli';
// Secret Service and Keychain calls can hang on headless machines (no unlocked collection, no D-Bus): give up fast.
const keyringTimeoutMs = 3_000;

function account(ref: StoredKeyRef): string {
  return `${ref.profile}:${ref.mode}`;
}

export function credentialsFilePath(): string {
  return join(env.configDir(), 'credentials.json');
}

type FileContents = Record<string, string>;

async function readCredentialsFile(): Promise<FileContents> {
  try {
    return JSON.parse(await readFile(credentialsFilePath(), 'utf8')) as FileContents;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
}

async function writeCredentialsFile(contents: FileContents): Promise<void> {
  const path = credentialsFilePath();
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // Created 0600 from the first byte (the umask can only take bits away), then renamed over: the key is never
  // readable by others, not even briefly, and a failed write leaves the previous keys in place.
  await writeFileAtomic(path, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600, overwrite: true });
}

async function withKeyring<T>(use: (entry: import('@napi-rs/keyring').AsyncEntry, signal: AbortSignal) => Promise<T>, ref: StoredKeyRef): Promise<T> {
  const { AsyncEntry } = await import('@napi-rs/keyring');
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error('the keychain did not answer within 3 s'));
    }, keyringTimeoutMs);
  });
  try {
    return await Promise.race([use(new AsyncEntry(keyringService, account(ref)), controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Keys live in the OS keychain; where none answers (or ESIGN_NO_KEYRING=1) they fall back to a 0600 file, and the
 * caller is told so it can say it once.
 */
export const credentialStore = {
  async save(ref: StoredKeyRef, key: string): Promise<{ storage: KeyStorage; path?: string; keychainError?: string }> {
    let keychainError: string | undefined = env.noKeyring() ? 'ESIGN_NO_KEYRING is set' : undefined;
    if (!keychainError) {
      try {
        await withKeyring((entry, signal) => entry.setPassword(key, signal), ref);
        const readBack = await withKeyring((entry, signal) => entry.getPassword(signal), ref);
        if (readBack === key) {
          await removeFromFile(ref);
          return { storage: 'keychain' };
        }
        keychainError = 'the keychain did not return the stored key';
      } catch (error) {
        keychainError = (error as Error).message;
      }
    }
    const contents = await readCredentialsFile();
    contents[account(ref)] = key;
    await writeCredentialsFile(contents);
    return { storage: 'file', path: credentialsFilePath(), ...(keychainError ? { keychainError } : {}) };
  },

  async load(ref: StoredKeyRef, storage: KeyStorage): Promise<string | undefined> {
    if (storage === 'file') {
      const contents = await readCredentialsFile();
      return Object.hasOwn(contents, account(ref)) ? contents[account(ref)] : undefined;
    }
    return (await withKeyring((entry, signal) => entry.getPassword(signal), ref)) ?? undefined;
  },

  async remove(ref: StoredKeyRef, storage: KeyStorage): Promise<void> {
    if (storage === 'file') return removeFromFile(ref);
    await withKeyring((entry, signal) => entry.deleteCredential(signal), ref);
  },
};

async function removeFromFile(ref: StoredKeyRef): Promise<void> {
  const contents = await readCredentialsFile();
  if (!Object.hasOwn(contents, account(ref))) return;
  delete contents[account(ref)];
  await writeCredentialsFile(contents);
}
