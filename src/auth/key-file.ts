import { UsageError } from '../core/errors.js';
import { openInputFile } from '../files/capped-read.js';
import { kindOfEntry, whyUnreadable } from '../files/local-file.js';
import { modeText } from './config-dir.js';

/** A key is well under this; anything longer is not a key file (and /dev/zero must not fill memory). */
const keyFileLimit = 4096;

export interface KeyFromFile {
  key: string;
  /** Set when other users may read the file: worth saying, not worth refusing (mounted secrets are often 0644). */
  warning?: string;
}

function problem(path: string, what: string): UsageError {
  return new UsageError(
    `ESIGN_API_KEY_FILE=${path}: ${what}.`,
    'Point ESIGN_API_KEY_FILE at a file that holds only the key (one trailing newline is fine), or unset it.',
    'KEY_FILE_UNREADABLE',
  );
}

/**
 * The key in a file (the `_FILE` convention of container secrets), so it stays out of the process environment. The
 * file's content is never put in a message: a wrong file may hold some other secret.
 */
export async function readKeyFile(path: string): Promise<KeyFromFile> {
  let handle;
  try {
    handle = await openInputFile(path, `ESIGN_API_KEY_FILE=${path}`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw problem(path, whyUnreadable(error));
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw problem(path, `${kindOfEntry(stats)}, not a file`);
    const buffer = Buffer.alloc(keyFileLimit + 1);
    let length = 0;
    for (;;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, length, buffer.length - length, null));
      } catch (error) {
        throw problem(path, whyUnreadable(error));
      }
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > keyFileLimit) throw problem(path, `holds more than ${keyFileLimit} bytes, which is not a key`);
    }
    const key = buffer.toString('utf8', 0, length).replace(/\r?\n$/, '');
    if (key === '') throw problem(path, 'is empty');
    const openToOthers = stats.isFile() && (stats.mode & 0o077) !== 0;
    return {
      key,
      ...(openToOthers
        ? { warning: `ESIGN_API_KEY_FILE=${path} can be read by other users (mode ${modeText(stats.mode)}); if it is yours, restrict it with chmod 600.` }
        : {}),
    };
  } finally {
    await handle.close();
  }
}
