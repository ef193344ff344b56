import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Makes `path` a directory only this user can enter (0700), creating it (and missing parents, also 0700) if needed. An
 * existing one must be a real directory owned by this user, not a link: the emulator's files must not land somewhere
 * another user chose.
 */
export function ensurePrivateDirectory(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    mkdirSync(path, { mode: 0o700 });
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stats = lstatSync(path);
  if (!stats.isDirectory() || (process.getuid !== undefined && stats.uid !== process.getuid())) {
    throw new Error(`${path} exists and is not a directory of this user's own; move it away or choose another --state path.`);
  }
  if ((stats.mode & 0o077) !== 0) chmodSync(path, 0o700);
}
