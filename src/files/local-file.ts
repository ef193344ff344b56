/**
 * What is wrong with a local file a command reads (a document, a spec, a fields file), said in words: "is a folder",
 * "is a named pipe", "permission denied", rather than an errno code.
 */
import type { Stats } from 'node:fs';
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

/** Reads of at most 1 MiB, and no bigger than the file (but not below the 64 KiB default). */
export function readBufferSize(size: number): number {
  return Math.min(1024 * 1024, Math.max(64 * 1024, size));
}
