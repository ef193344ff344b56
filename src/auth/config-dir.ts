import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { UsageError } from '../core/errors.js';
import { env } from '../core/env.js';
import { configFilePath, credentialsFilePath } from '../files/own-files.js';
import { acquireFileLock, holderText } from '../files/file-lock.js';

const hint = 'Check ESIGN_CONFIG_DIR (or the default config folder), and the permissions of the file and its folder.';

/**
 * The text of one of esign's own files in the config folder, or undefined before it was first written. Any other
 * failure is the machine's state, for the person to fix (exit 2), not a bug; only the error code is quoted, never
 * anything of the file.
 */
export async function readConfigDirFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new UsageError(`${path} cannot be read (${code ?? 'unknown error'}).`, hint, 'CONFIG_UNREADABLE');
  }
}

/** Makes the folder of a config file (0700) before it is written; a folder that cannot be made is for the person to fix. */
export async function prepareConfigDirFor(path: string): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new UsageError(`Cannot make the folder ${dirname(path)} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}).`, hint, 'CONFIG_UNWRITABLE');
  }
}

/** Far longer than any read-change-write of these small files takes. */
const LOCK_WAIT_MS = 10_000;

/**
 * Holds the lock of one of esign's own files while it is read, changed and written: esign processes run side by side
 * (a CI fan-out of `webhooks create`, parallel `profiles add`) each wrote back the file as it had read it, and all but
 * one change was lost. The folder is made first, as the lock goes beside the file.
 */
export async function lockConfigDirFile(path: string): Promise<() => Promise<void>> {
  await prepareConfigDirFor(path);
  return acquireFileLock(`${path}.lock`, {
    waitMs: LOCK_WAIT_MS,
    busy: (holder) =>
      new UsageError(
        `${path} is being changed by another esign${holder ? ` (${holderText(holder)})` : ''}, for more than ${LOCK_WAIT_MS / 1000} s.`,
        `Try again once it is done. If no esign is running, remove ${path}.lock.`,
        'CONFIG_BUSY',
      ),
  });
}

/** A file or folder of esign's own that others can change or read, and the command that restricts it. */
export interface Exposure {
  subject: 'config' | 'credentials file';
  path: string;
  message: string;
  fix: string;
}

/** A file mode as `chmod` takes it: `0644`. */
export const modeText = (mode: number): string => (mode & 0o777).toString(8).padStart(4, '0');

async function modeOf(path: string): Promise<number | undefined> {
  return stat(path).then(
    (stats) => stats.mode,
    () => undefined,
  );
}

/**
 * What others may do to esign's own files: change the folder or config.json (and with it the base URL a key is sent
 * to), or read credentials.json (the keys). `esign doctor` fails on each; a command that uses a profile warns.
 */
export async function configExposures(): Promise<Exposure[]> {
  const exposures: Exposure[] = [];
  const dir = env.configDir();
  const dirMode = await modeOf(dir);
  if (dirMode !== undefined && dirMode & 0o022) exposures.push({ subject: 'config', path: dir, message: `${dir} can be written by others (mode ${modeText(dirMode)})`, fix: `chmod 700 ${dir}` });
  const config = configFilePath();
  const configMode = await modeOf(config);
  if (configMode !== undefined && configMode & 0o022) exposures.push({ subject: 'config', path: config, message: `${config} can be written by others (mode ${modeText(configMode)})`, fix: `chmod 600 ${config}` });
  const credentials = credentialsFilePath();
  const credentialsMode = await modeOf(credentials);
  if (credentialsMode !== undefined && credentialsMode & 0o077) {
    exposures.push({
      subject: 'credentials file',
      path: credentials,
      message: `${credentials} can be read by others (mode ${modeText(credentialsMode)}); the keys in it are exposed`,
      fix: `chmod 600 ${credentials}, then replace the keys it holds if others may have read them`,
    });
  }
  return exposures;
}
