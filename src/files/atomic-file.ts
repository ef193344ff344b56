/**
 * The one way esign writes a file: into a new temporary file beside the target (created exclusively, never through a
 * symlink), flushed to disk, then renamed over the target. A failure, an exception or a signal removes the temporary
 * file and leaves the target as it was; nobody ever sees a half-written file under the target's name.
 */
import { constants, statSync, unlinkSync, type Stats } from 'node:fs';
import { link, lstat, open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { LocalFileError, UsageError } from '../core/errors.js';
import { interruption } from '../core/interrupt.js';
import { keyBearingFiles } from './own-files.js';
import { kindOfEntry } from './local-file.js';
import { crypto } from '../shared/crypto.js';

export interface AtomicWriteOptions {
  /** Permissions of the new file (default 0o644, less the umask); 0o600 for anything secret. */
  mode?: number;
  /** Replace an existing target (`--force`); without it an existing target is a usage error naming it. */
  overwrite?: boolean;
  /** Files the command reads: the target may be none of them. */
  inputs?: readonly string[];
  /** How the person named the target, for messages (e.g. `--out preview.pdf`). */
  label?: string;
  /** The flag that allows replacing, for the hint (default `--force`). */
  forceFlag?: string;
  /** Finish even after SIGINT/SIGTERM: for a write that is itself the orderly stop (the emulator's `--state`). */
  finishAfterInterrupt?: boolean;
  /** esign's own write of a file keys are read from (config.json, credentials.json): any other write refuses them. */
  keyBearing?: boolean;
}

export interface AtomicFile {
  /** The temporary file's path (for diagnostics only). */
  readonly temporaryPath: string;
  write(chunk: string | Uint8Array): Promise<void>;
  /**
   * A write stream into the temporary file, for `pipeline()`; `commit()` waits for it to finish. It fails with the
   * same errors as `write()` (a usage error for a path problem, LocalFileError for a full disk or a size limit).
   */
  stream(): Writable;
  /** Flushes, renames over the target and flushes the folder. */
  commit(): Promise<void>;
  /** Removes the temporary file; the target is untouched. Safe to call more than once, and after commit. */
  abort(): Promise<void>;
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Codes that mean the person can fix the path (exit 2); anything else (disk full, file too large) is exit 1. */
const pathProblems = new Set(['ENOENT', 'ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'EISDIR', 'ELOOP', 'ENAMETOOLONG']);

/**
 * ENOENT and ENOTDIR do not say which part of the path is wrong: look at the folder. It may be missing, be a file, or
 * exist and take no new file (/proc).
 */
function folderProblem(folder: string): string {
  try {
    return statSync(folder).isDirectory() ? `no file can be created in its folder ${folder}` : `its folder ${folder} is not a folder`;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? `a part of its folder ${folder} is a file, not a folder` : 'its folder does not exist';
  }
}

function describe(code: string | undefined, target: string): string {
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return folderProblem(dirname(target));
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is exhausted';
    case 'EEXIST':
      return 'something was planted at its temporary name beside it (left alone, not followed)';
    case 'EFBIG':
      return 'the file is larger than this process may write (ulimit -f)';
    default:
      return code ?? 'unknown error';
  }
}

const existsNote = 'Nothing was replaced: any earlier file of that name is unchanged.';

/** `outcome` says what became of the file: by default, that nothing was replaced. */
function writeFailure(target: string, label: string, error: unknown, outcome = existsNote): Error {
  if (error instanceof UsageError || error instanceof LocalFileError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const reason = describe(code, target);
  const message = `Cannot write ${label}: ${reason}${code && reason !== code ? ` (${code})` : ''}.`;
  if (code && pathProblems.has(code)) return new UsageError(message, `Check that ${dirname(target)} exists and is writable.`, 'OUTPUT_UNWRITABLE');
  return new LocalFileError(`${message} ${outcome}`, code ?? 'WRITE_FAILED');
}

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [left, right] = await Promise.all([stat(a), stat(b)]);
    return left.dev === right.dev && left.ino === right.ino;
  } catch {
    return resolve(a) === resolve(b);
  }
}

/**
 * Refuses a target that is one of the inputs, anything but a regular file (a folder, a device such as /dev/null, a
 * named pipe: renaming a file over one would destroy it, and as root that includes /dev/null), a symlink to one of
 * those (/dev/stdout), or (without `overwrite`) an existing file. A symlink to a file is replaced by the new file, never
 * written through: a link planted at an output's name must not aim the write at another file.
 */
async function checkOutputTarget(target: string, options: AtomicWriteOptions, label: string = options.label ?? target): Promise<Stats | undefined> {
  // Where a command takes a file, `-` is read as standard output, which an atomic write cannot replace.
  if (target.endsWith('/')) throw new UsageError(`Cannot write ${label}: a name ending in / is a folder's.`, 'Give a file name, e.g. ./out/envelope.zip.', 'OUTPUT_UNWRITABLE');
  if (target === '-') throw new UsageError(`${label}: - (standard output) is not a file esign can write atomically.`, 'Give a file name (./- for a file named -), or leave the option out where the command prints to standard output.', 'OUTPUT_UNWRITABLE');
  for (const input of options.inputs ?? []) {
    if (await sameFile(input, target)) {
      throw new UsageError(`${label} is also an input of this command (${input}); writing it would destroy the input.`, 'Choose another output file.', 'OUTPUT_IS_INPUT');
    }
  }
  if (!options.keyBearing) {
    for (const own of keyBearingFiles()) {
      if (await sameFile(own, target)) {
        throw new UsageError(`${label} is ${own}, which esign reads keys or their base URLs from; writing it would lose them.`, 'Choose another output file.', 'OUTPUT_IS_INPUT');
      }
    }
  }
  let existing;
  try {
    existing = await lstat(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw writeFailure(target, label, error);
  }
  const named = existing.isSymbolicLink() ? await stat(target).catch(() => undefined) : existing;
  if (named) assertRegularFile(named, label);
  if (!options.overwrite) {
    throw new UsageError(`${label} already exists.`, `Pass ${options.forceFlag ?? '--force'} to replace it, or choose another file.`, 'OUTPUT_EXISTS');
  }
  return existing.isSymbolicLink() ? undefined : existing;
}

function assertRegularFile(entry: Stats, label: string): void {
  if (entry.isFile()) return;
  throw new UsageError(`Cannot write ${label}: it is ${kindOfEntry(entry)}, not a file.`, entry.isDirectory() ? 'Give a file name.' : 'Give the path of a regular file.', 'OUTPUT_UNWRITABLE');
}

/** The file a path names once symlinks and `..` are resolved: the file's own real path, else its folder's. */
async function realTarget(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    return realpath(dirname(path)).then(
      (folder) => join(folder, basename(path)),
      () => resolve(path),
    );
  }
}

/**
 * Checks every output of a command before its work starts, for a command that writes them only once its work is done
 * or under way (a batch's report and journal): no two may name the same file (one would replace the other), and each
 * must be writable as the atomic writer will write it, so a temporary file is created beside it and removed.
 */
export async function checkOutputTargets(targets: readonly { path: string; options: AtomicWriteOptions }[]): Promise<void> {
  const seen: { real: string; label: string }[] = [];
  for (const { path, options } of targets) {
    const label = options.label ?? path;
    const real = await realTarget(path);
    const earlier = seen.find((candidate) => candidate.real === real);
    if (earlier) {
      throw new UsageError(`${label} and ${earlier.label} name the same file (${real}); one would replace the other.`, 'Give each output a file of its own.', 'OUTPUT_CLASH');
    }
    seen.push({ real, label });
    await (await openAtomic(path, options)).abort();
  }
}

/**
 * A write may store only part of the bytes (a file-size limit, a nearly full disk) without an error: write the rest,
 * so that the next write reports why instead of a short file being published as complete.
 */
async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    if (bytesWritten === 0) throw Object.assign(new Error('no byte could be written'), { code: 'ENOSPC' });
    offset += bytesWritten;
  }
}

/** One name in a folder is at most 255 bytes on the file systems in use. */
const NAME_BYTES = 255;
const TEMPORARY_TAIL = /^[0-9a-f]{12}\.tmp$/;

/**
 * `.<name>.` before the 12 hex digits and `.tmp` of a temporary file, the name cut short so that the whole stays a
 * name the file system takes: a target of 245 bytes, which it takes, failed with ENAMETOOLONG for its temporary file.
 */
function temporaryPrefix(name: string): string {
  const room = NAME_BYTES - '..'.length - 12 - '.tmp'.length;
  let kept = '';
  for (const character of name) {
    if (Buffer.byteLength(kept + character) > room) break;
    kept += character;
  }
  return `.${kept}.`;
}

/** Whether `fileName` is a temporary file openAtomic makes beside a file named `targetName` (left by a crash). */
export function isTemporaryFileOf(fileName: string, targetName: string): boolean {
  const prefix = temporaryPrefix(targetName);
  return fileName.startsWith(prefix) && TEMPORARY_TAIL.test(fileName.slice(prefix.length));
}

/** Opens a temporary file beside `target`; nothing appears under the target's name until `commit()`. */
export async function openAtomic(target: string, options: AtomicWriteOptions = {}): Promise<AtomicFile> {
  const label = options.label ?? target;
  const replaced = await checkOutputTarget(target, options, label);
  const temporaryPath = join(dirname(target), `${temporaryPrefix(basename(target))}${crypto().randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle;
  try {
    // O_EXCL with O_NOFOLLOW: a file or symlink planted at the temporary name is never followed or reused.
    handle = await open(temporaryPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, options.mode ?? 0o644);
  } catch (error) {
    throw writeFailure(target, label, error);
  }
  // A replaced file keeps its permissions, as with cp or curl -o: a 0600 contract must not come back readable by all.
  if (replaced && options.mode === undefined) {
    try {
      await handle.chmod(replaced.mode & 0o777);
    } catch (error) {
      await handle.close().catch(() => {});
      await unlink(temporaryPath).catch(() => {});
      throw writeFailure(target, label, error);
    }
  }
  const unregister = interruption.onForcedExit(() => unlinkSync(temporaryPath));
  let stream: Writable | undefined;
  let state: 'open' | 'committed' | 'aborted' = 'open';

  const abort = async () => {
    if (state !== 'open') return;
    state = 'aborted';
    stream?.destroy();
    await handle.close().catch(() => {});
    await unlink(temporaryPath).catch(() => {});
    unregister();
  };

  const guarded = async <T>(step: () => Promise<T>): Promise<T> => {
    const interruptible = !options.finishAfterInterrupt;
    try {
      if (interruptible) interruption.throwIfInterrupted();
      return await step();
    } catch (error) {
      await abort();
      throw interruptible && interruption.signal.aborted ? interruption.signal.reason : writeFailure(target, label, error);
    }
  };

  return {
    temporaryPath,
    write: (chunk) => guarded(() => writeAll(handle, typeof chunk === 'string' ? Buffer.from(chunk) : chunk)),
    stream() {
      stream ??= new Writable({
        highWaterMark: 1024 * 1024,
        write: (chunk: Buffer, _encoding, done) => {
          writeAll(handle, chunk).then(
            () => done(),
            (error: unknown) => done(writeFailure(target, label, error)),
          );
        },
      });
      return stream;
    },
    commit: () =>
      guarded(async () => {
        if (stream) {
          // Rejects at once for a stream that already failed, instead of waiting for a 'finish' that never comes.
          if (!stream.writableEnded) stream.end();
          await finished(stream);
        }
        await handle.sync();
        await handle.close();
        // Without overwrite, link() refuses a target that appeared meanwhile; rename() would silently replace it.
        if (options.overwrite) {
          await rename(temporaryPath, target);
        } else {
          try {
            await link(temporaryPath, target);
            await unlink(temporaryPath);
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            if (code === 'EEXIST') throw new UsageError(`${label} already exists.`, `Pass ${options.forceFlag ?? '--force'} to replace it.`, 'OUTPUT_EXISTS');
            if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw error;
            await rename(temporaryPath, target);
          }
        }
        state = 'committed';
        unregister();
        await syncFolder(dirname(target));
      }),
    abort,
  };
}

/** The rename is durable only once the folder's entry is on disk. Some file systems cannot fsync a folder. */
async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // EISDIR/EINVAL/EPERM on platforms that do not support it: the rename itself has happened.
  } finally {
    await handle?.close().catch(() => {});
  }
}

/** Writes a whole file atomically. */
export async function writeFileAtomic(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const file = await openAtomic(target, options);
  await file.write(data);
  await file.commit();
}

/** An append-only log of JSON lines (a batch journal): after a crash every line is complete or absent. */
export interface LineLog {
  append(record: unknown): Promise<void>;
  close(): Promise<void>;
}

/**
 * Reads a line log, dropping a last line that a crash cut short (no newline). With `repair`, the file is rewritten
 * without it so that later appends start on a line of their own; only a file whose first record `isLog` accepts is
 * ever rewritten, so a wrong path (a PDF given as the journal) is refused, never truncated. Any other line that is not
 * a record is refused with its number, and the file is left as it is.
 */
export async function readLineLog(path: string, options: { isLog: (first: unknown) => boolean; repair?: boolean; label?: string }): Promise<unknown[] | undefined> {
  const { readFile } = await import('node:fs/promises');
  const label = options.label ?? path;
  let text: string;
  try {
    // Reading a named pipe would wait for a writer forever.
    assertRegularFile(await stat(path), label);
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw writeFailure(path, label, error);
  }
  const lines = text.split('\n');
  // Each record is one write ending in a newline: a crash can only cut the last line short. A damaged line before it
  // was changed by someone else, and what follows it cannot be trusted to be all there is: nothing is dropped then.
  const complete = lines.slice(0, -1);
  const parse = (line: string): object | undefined => {
    try {
      const record: unknown = JSON.parse(line);
      return typeof record === 'object' && record !== null ? record : undefined;
    } catch {
      return undefined;
    }
  };
  if (!options.isLog(parse(complete[0] ?? ''))) {
    throw new UsageError(`${label} is not a journal esign wrote: its first line is not a journal header.`, 'Give the journal file of the run to resume (default: <first spec>.journal.jsonl).', 'JOURNAL_INVALID');
  }
  const records = complete.map((line, index) => {
    const record = parse(line);
    if (record === undefined) {
      throw new UsageError(
        `${label}:${index + 1}: the line is not a journal record; the journal was changed after esign wrote it.`,
        'Restore the line from a copy, then resume: esign does not guess which steps a damaged record held.',
        'JOURNAL_INVALID',
      );
    }
    return record;
  });
  if (options.repair && lines[lines.length - 1] !== '') {
    await writeFileAtomic(path, complete.map((line) => `${line}\n`).join(''), { overwrite: true, mode: 0o600 });
  }
  return records;
}

/**
 * Opens a line log for appending (`fresh`: replaced by an empty one first, atomically). Each record is written whole
 * (a short write is followed by the rest) on an O_APPEND file and flushed to disk before `append` resolves; appends
 * are serialised. A record that cannot be written whole and flushed (a full disk, a size limit) is cut off again, so
 * the file ends on the last whole record, and the log takes no more: every later append fails with the same error,
 * so that nothing is counted done that the log does not hold, and the file stays a prefix of what happened.
 */
export async function openLineLog(path: string, options: { fresh: boolean; label?: string }): Promise<LineLog> {
  const label = options.label ?? path;
  if (options.fresh) await writeFileAtomic(path, '', { overwrite: true, mode: 0o600, label });
  let handle: FileHandle;
  let wholeBytes: number;
  try {
    // Never a pipe or a device: opening one would wait for a reader, or write where no file is.
    await checkOutputTarget(path, { overwrite: true }, label);
    handle = await open(path, constants.O_WRONLY | constants.O_APPEND | O_NOFOLLOW);
    wholeBytes = (await handle.stat()).size;
  } catch (error) {
    throw writeFailure(path, label, error);
  }
  let failure: Error | undefined;
  let queue: Promise<void> = Promise.resolve();
  const appendOne = async (line: Buffer) => {
    if (failure) throw failure;
    try {
      await writeAll(handle, line);
      await handle.datasync();
      wholeBytes += line.length;
    } catch (error) {
      // Back to the last whole record: ftruncate frees space, so it works on the disk that just filled up. Should it
      // fail too, the torn line is still the last one, which the next read drops.
      await handle.truncate(wholeBytes).catch(() => {});
      await handle.datasync().catch(() => {});
      failure = writeFailure(path, label, error, `The record was not kept: ${label} ends on its last whole record.`);
      throw failure;
    }
  };
  return {
    append(record) {
      const line = Buffer.from(`${JSON.stringify(record)}\n`);
      const appended = queue.then(() => appendOne(line));
      queue = appended.catch(() => {});
      return appended;
    },
    async close() {
      await queue;
      await handle.close();
    },
  };
}
