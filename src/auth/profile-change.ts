/**
 * Every change of config.json, and of the profile keys that go with it, as one transaction under config.json's lock:
 * config.json and where keys are kept (credentials.json, the keychain) end both as they were or both changed, under a
 * failed write and under SIGKILL at any point.
 *
 * A new key is stored under a fresh id beside the one in use, and config.json is switched to it last; a key a profile
 * no longer uses is deleted only after that switch. Before either, the keys the change stores and retires are written
 * ahead to a file of pending keys: a process killed half-way leaves that file, and the next change (under the same
 * lock) deletes whichever of its keys config.json does not point at. A key only ever exists unused between these
 * steps, so under the lock every unused key is a leftover.
 */
import { crypto } from '../shared/crypto.js';
import { readFile, unlink } from 'node:fs/promises';
import { configFilePath, pendingKeysFilePath } from '../files/own-files.js';
import { writeFileAtomic } from '../files/atomic-file.js';
import { lockConfigDirFile } from './config-dir.js';
import { account, credentialStore, profileKeyOf, type KeyStorage, type StoredKeyRef } from './credential-store.js';
import { maskKey, type Mode } from './keys.js';
import { loadConfigFile, writeConfigFile, type ConfigFile, type ProfileKeyInfo } from './profiles.js';

/** A key a change touches; where it is kept, once known (a key killed while being stored may be in either). */
type PendingKey = StoredKeyRef & { storage?: KeyStorage };

interface PendingKeys {
  stored: PendingKey[];
  retired: PendingKey[];
}

interface StoredKey {
  info: ProfileKeyInfo;
  /** Where a key went to the file instead of the keychain: the file, and why the keychain was not used. */
  file?: { path: string; keychainError?: string };
}

/** What a change does to keys: each takes effect with config.json, or not at all. */
export interface KeyChanges {
  /** Stores a key under a fresh id, for the profile to point at once config.json is written. */
  store(profile: string, mode: Mode, key: string): Promise<StoredKey>;
  /** A key a profile pointed at: deleted once config.json, written, no longer does. */
  retire(profile: string, mode: Mode, info: ProfileKeyInfo): void;
}

export interface ConfigChange<T> {
  value: T;
  /** Retired keys that could not be deleted (why, for each): the next change deletes them. */
  notDeleted: string[];
}

async function readPending(): Promise<PendingKeys | undefined> {
  try {
    const parsed = JSON.parse(await readFile(pendingKeysFilePath(), 'utf8')) as Partial<PendingKeys>;
    const refs = (list: unknown): PendingKey[] =>
      (Array.isArray(list) ? (list as unknown[]) : []).flatMap((entry) => {
        const { profile, mode, id, storage } = (typeof entry === 'object' && entry !== null ? entry : {}) as Partial<PendingKey>;
        const ref = typeof profile === 'string' && typeof mode === 'string' ? profileKeyOf(account({ profile, mode, ...(typeof id === 'string' ? { id } : {}) })) : undefined;
        return ref ? [{ ...ref, ...(storage === 'file' || storage === 'keychain' ? { storage } : {}) }] : [];
      });
    return { stored: refs(parsed.stored), retired: refs(parsed.retired) };
  } catch (error) {
    // A file cut short by a crash names nothing that is not also found as a key no profile uses (`profiles prune`).
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : { stored: [], retired: [] };
  }
}

const writePending = (pending: PendingKeys): Promise<void> => writeFileAtomic(pendingKeysFilePath(), `${JSON.stringify(pending)}\n`, { mode: 0o600, overwrite: true });

/** The accounts of the keys config.json points at. */
function keysInUse(config: ConfigFile): Set<string> {
  const used = new Set<string>();
  for (const [profile, { keys }] of Object.entries(config.profiles)) {
    for (const [mode, info] of Object.entries(keys) as [Mode, ProfileKeyInfo][]) used.add(account({ profile, mode, ...(info.id ? { id: info.id } : {}) }));
  }
  return used;
}

/** Deletes each key config.json does not point at, wherever it is; answers why each that could not be was not. */
async function deleteUnused(refs: readonly PendingKey[], config: ConfigFile): Promise<string[]> {
  const used = keysInUse(config);
  const problems: string[] = [];
  for (const { storage, ...ref } of refs) {
    if (used.has(account(ref))) continue;
    try {
      await (storage ? credentialStore.remove(ref, storage) : credentialStore.forget(ref));
    } catch (error) {
      problems.push(`the ${ref.mode} key ${account(ref)}: ${(error as Error).message}`);
    }
  }
  return problems;
}

/** Finishes what a change killed half-way left: its keys that config.json does not point at are deleted. */
async function finishPending(config: ConfigFile): Promise<void> {
  const pending = await readPending();
  if (!pending) return;
  if ((await deleteUnused([...pending.stored, ...pending.retired], config)).length === 0) await unlink(pendingKeysFilePath()).catch(() => {});
}

/**
 * Applies `change` to config.json as it is now, under its lock, with the keys it stores and retires (see the top of
 * this file). Ten esign processes changing it at once each apply their change to the file as the one before left it:
 * all ten are kept. When config.json cannot be written, the keys stored for it are deleted again, and the error says
 * whether the keys are as they were.
 */
export async function changeConfig<T>(change: (config: ConfigFile, keys: KeyChanges) => T | Promise<T>): Promise<ConfigChange<T>> {
  const release = await lockConfigDirFile(configFilePath());
  try {
    const config = await loadConfigFile();
    await finishPending(config);
    const pending: PendingKeys = { stored: [], retired: [] };
    const keys: KeyChanges = {
      async store(profile, mode, key) {
        const ref: PendingKey = { profile, mode, id: crypto().randomBytes(8).toString('hex') };
        pending.stored.push(ref);
        await writePending(pending);
        const { storage: _unknown, ...stored } = ref;
        const saved = await credentialStore.save(stored, key);
        ref.storage = saved.storage;
        const info: ProfileKeyInfo = { storage: saved.storage, masked: maskKey(key), id: ref.id! };
        return { info, ...(saved.path ? { file: { path: saved.path, ...(saved.keychainError ? { keychainError: saved.keychainError } : {}) } } : {}) };
      },
      retire(profile, mode, info) {
        pending.retired.push({ profile, mode, storage: info.storage, ...(info.id ? { id: info.id } : {}) });
      },
    };
    const asRead = JSON.stringify(config);
    let value: T;
    try {
      value = await change(config, keys);
      if (pending.retired.length > 0) await writePending(pending);
      // A change that changed nothing (untrusting a file never trusted) writes nothing.
      if (JSON.stringify(config) !== asRead || pending.stored.length > 0) await writeConfigFile(config);
    } catch (error) {
      if (pending.stored.length > 0) await undoStored(error, pending);
      throw error;
    }
    const notDeleted = await deleteUnused(pending.retired, config);
    if (notDeleted.length === 0 && (pending.stored.length > 0 || pending.retired.length > 0)) await unlink(pendingKeysFilePath()).catch(() => {});
    return { value, notDeleted };
  } finally {
    await release();
  }
}

/**
 * config.json was not changed: the keys stored for the change go again, and the error says so (or, where they could
 * not be deleted, that the next change deletes them: no profile points at them meanwhile).
 */
async function undoStored(error: unknown, pending: PendingKeys): Promise<void> {
  const problems = await deleteUnused(pending.stored, { profiles: Object.create(null) as ConfigFile['profiles'] });
  if (problems.length === 0) await unlink(pendingKeysFilePath()).catch(() => {});
  if (!(error instanceof Error)) return;
  // A key whose storage is known was stored; the others failed on the way (nothing of them was kept).
  const stored = pending.stored.filter((ref) => ref.storage).length;
  const undone = stored === 0 ? 'No key was stored' : stored === 1 ? 'The key stored for it was deleted again' : `The ${stored} keys stored for it were deleted again`;
  error.message += problems.length === 0
    ? ` ${undone}: the profiles and their keys are as they were.`
    : ` The profiles are as they were, but a key stored for the change could not be deleted again (${problems.join('; ')}); no profile uses it, and the next change of a profile deletes it.`;
}

/** Keys in credentials.json that no profile points at: left by versions before these transactions, or by a crash. */
export async function unusedFileKeys(config: ConfigFile): Promise<{ account: string; masked: string }[]> {
  const used = keysInUse(config);
  return (await credentialStore.fileEntries(maskKey)).filter((entry) => profileKeyOf(entry.account) && !used.has(entry.account));
}
