/**
 * What is wrong with a local file a command reads (a document, a spec, a fields file), said in words: "is a folder",
 * "is a named pipe", "permission denied", rather than an errno code.
 */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import { fileNamed, whereText, type Where } from './where.js';

/** What a path names, when it is not a regular file. */
export function kindOfEntry(stats: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Why a file could not be opened or read, from the error Node gave: the phrase that follows the path. */
export function whyUnreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'a folder, not a file';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return `cannot be read (${code ?? (error as Error).message})`;
  }
}

/** `spec.yaml:3:9: no such file (docs/a.pdf)`, `a.pdf: a folder, not a file`: the file, where it was named, and why. */
export function unreadableFileMessage(path: string, error: unknown, where: Where = path): string {
  const place = whereText(where);
  if ((error as NodeJS.ErrnoException).code === 'ENOENT' && place !== path) return `${place}: no such file (${path})`;
  return `${fileNamed(path, where)}: ${whyUnreadable(error)}`;
}

/**
 * A regular file's stats, or a usage error naming what the path is instead. A document is sent with its length and may
 * be read again on a retry, and a local PDF is read whole: a folder, a named pipe or a device (/dev/zero, which never
 * ends) is refused for what it is.
 */
export async function regularFileStats(path: string, where: Where = path): Promise<Stats> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (error) {
    throw new UsageError(`${unreadableFileMessage(path, error, where)}.`, 'Check the path.', 'INPUT_UNREADABLE');
  }
  if (!info.isFile()) {
    const kind = kindOfEntry(info);
    const why = kind === 'a named pipe' ? ' A document is sent with its size, so it cannot come from a pipe: save it to a file first.' : '';
    throw new UsageError(`${fileNamed(path, where)} is ${kind}, not a regular file.`, `Give the path of the document file itself.${why}`, 'INPUT_UNREADABLE');
  }
  return info;
}

/** The size of a regular, non-empty file (a document to send), or a usage error naming it. */
export async function regularFileSize(path: string, where: Where = path): Promise<number> {
  const info = await regularFileStats(path, where);
  if (info.size === 0) throw new UsageError(`${fileNamed(path, where)} is empty.`, undefined, 'INPUT_INVALID');
  return info.size;
}

/** Reads of at most 1 MiB, and no bigger than the file (but not below the 64 KiB default). */
export function readBufferSize(size: number): number {
  return Math.min(1024 * 1024, Math.max(64 * 1024, size));
}
