import { crypto } from '../shared/crypto.js';
import { UsageError } from '../core/errors.js';
import { env } from '../core/env.js';
import { credentialsFilePath } from '../files/own-files.js';
import { lockConfigDirFile, readConfigDirFile } from './config-dir.js';
import { writeFileAtomic } from '../files/atomic-file.js';
import type { Mode } from './keys.js';

export type KeyStorage = 'keychain' | 'file';

export interface StoredKeyRef {
  profile: string;
  mode: Mode;
  /**
   * Fresh for every key stored, so that a new key never overwrites the one a profile uses until config.json points at
   * it (see profile-change.ts). Keys stored by earlier versions have none.
   */
  id?: string;
}

/** A webhook endpoint's signing secret, kept for `esign webhooks listen --endpoint <id>`. */
export interface WebhookSecretRef {
  webhookId: string;
}

export type StoredRef = StoredKeyRef | WebhookSecretRef;

const keyringService = 'esign-cli';
// Secret Service and Keychain calls can hang on headless machines (no unlocked collection, no D-Bus): give up fast.
const keyringTimeoutMs = 3_000;

/** Where a key is kept: its name in the keychain and in credentials.json. */
export function account(ref: StoredRef): string {
  return 'webhookId' in ref ? `webhook:${ref.webhookId}` : `${ref.profile}:${ref.mode}${ref.id ? `:${ref.id}` : ''}`;
}

/** A profile's key as `account` names it, or undefined for anything else (a webhook secret). */
export function profileKeyOf(name: string): StoredKeyRef | undefined {
  const match = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,63}):(sandbox|production)(?::([0-9a-f]{16}))?$/.exec(name);
  return match ? { profile: match[1]!, mode: match[2] as Mode, ...(match[3] ? { id: match[3] } : {}) } : undefined;
}

type FileContents = Record<string, string>;

async function readCredentialsFile(): Promise<FileContents> {
  const path = credentialsFilePath();
  const text = await readConfigDirFile(path);
  if (text === undefined) return {};
  try {
    const contents: unknown = JSON.parse(text);
    if (typeof contents === 'object' && contents !== null && !Array.isArray(contents) && Object.values(contents).every((value) => typeof value === 'string')) {
      return contents as FileContents;
    }
  } catch {
    // The parser's message quotes the text around the fault, which may be part of a key: it is not passed on.
  }
  throw new UsageError(
    `${path} is damaged (not a JSON object of keys); nothing of it is shown, as it holds keys.`,
    'Move it away, then store the keys again with `esign profiles add <name>`.',
    'CREDENTIALS_INVALID',
  );
}

/** Reads, changes and writes the file under its lock; `change` answers false when it changed nothing. */
async function changeCredentialsFile(change: (contents: FileContents) => boolean | void): Promise<void> {
  const path = credentialsFilePath();
  const release = await lockConfigDirFile(path);
  try {
    const contents = await readCredentialsFile();
    if (change(contents) === false) return;
    // Created 0600 from the first byte (the umask can only take bits away), then renamed over: the key is never
    // readable by others, not even briefly, and a failed write leaves the previous keys in place.
    await writeFileAtomic(path, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600, overwrite: true, keyBearing: true });
  } finally {
    await release();
  }
}

async function withKeyring<T>(use: (entry: import('@napi-rs/keyring').AsyncEntry, signal: AbortSignal) => Promise<T>, ref: StoredRef): Promise<T> {
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
  async save(ref: StoredRef, key: string): Promise<{ storage: KeyStorage; path?: string; keychainError?: string }> {
    let keychainError: string | undefined = env.noKeyring() ? 'ESIGN_NO_KEYRING is set' : undefined;
    if (!keychainError) {
      try {
        await withKeyring((entry, signal) => entry.setPassword(key, signal), ref);
        const readBack = await withKeyring((entry, signal) => entry.getPassword(signal), ref);
        if (readBack === key) {
          await credentialStore.removeFromFile([account(ref)]);
          return { storage: 'keychain' };
        }
        keychainError = 'the keychain did not return the stored key';
      } catch (error) {
        keychainError = (error as Error).message;
      }
    }
    await changeCredentialsFile((contents) => {
      contents[account(ref)] = key;
    });
    return { storage: 'file', path: credentialsFilePath(), ...(keychainError ? { keychainError } : {}) };
  },

  async load(ref: StoredRef, storage: KeyStorage): Promise<string | undefined> {
    if (storage === 'file') {
      const contents = await readCredentialsFile();
      return Object.hasOwn(contents, account(ref)) ? contents[account(ref)] : undefined;
    }
    return (await withKeyring((entry, signal) => entry.getPassword(signal), ref)) ?? undefined;
  },

  /**
   * Why the keychain cannot keep a key here, or undefined when it can (`esign doctor`). It does what `save` does: writes
   * a test entry, reads it back and deletes it. Reading alone is not enough: a locked or missing collection answers a
   * read with nothing, and refuses the write that `profiles add` then makes (the key goes to the file).
   */
  async keychainProblem(): Promise<string | undefined> {
    if (env.noKeyring()) return 'ESIGN_NO_KEYRING is set';
    const probe: StoredRef = { profile: 'esign-doctor-probe', mode: 'sandbox' };
    const value = `probe-${crypto().randomUUID()}`;
    try {
      await withKeyring((entry, signal) => entry.setPassword(value, signal), probe);
      const readBack = await withKeyring((entry, signal) => entry.getPassword(signal), probe);
      await withKeyring((entry, signal) => entry.deleteCredential(signal), probe);
      return readBack === value ? undefined : 'the keychain did not return the test entry it was given';
    } catch (error) {
      return (error as Error).message;
    }
  },

  /** Where the storage is not recorded (a webhook secret): the keychain first, then the file. */
  async find(ref: StoredRef): Promise<string | undefined> {
    if (!env.noKeyring()) {
      try {
        const found = await credentialStore.load(ref, 'keychain');
        if (found) return found;
      } catch {
        // No keychain answering here: the file fallback is where save put it.
      }
    }
    return credentialStore.load(ref, 'file');
  },

  /** Removes it wherever it is; nothing stored is fine. */
  async forget(ref: StoredRef): Promise<void> {
    if (!env.noKeyring()) {
      try {
        await credentialStore.remove(ref, 'keychain');
      } catch {
        // Not in the keychain, or no keychain: the file is checked next.
      }
    }
    await credentialStore.removeFromFile([account(ref)]);
  },

  /** The names of what credentials.json holds (`account`), never the keys; masked keys with `masked`. */
  async fileEntries(masked: (key: string) => string): Promise<{ account: string; masked: string }[]> {
    return Object.entries(await readCredentialsFile()).map(([name, key]) => ({ account: name, masked: masked(key) }));
  },

  /** Removes these entries of credentials.json in one write; absent ones are fine. */
  async removeFromFile(accounts: readonly string[]): Promise<void> {
    await changeCredentialsFile((contents) => {
      const present = accounts.filter((name) => Object.hasOwn(contents, name));
      for (const name of present) delete contents[name];
      return present.length > 0;
    });
  },

  async remove(ref: StoredRef, storage: KeyStorage): Promise<void> {
    if (storage === 'file') return credentialStore.removeFromFile([account(ref)]);
    await withKeyring((entry, signal) => entry.deleteCredential(signal), ref);
  },
};
