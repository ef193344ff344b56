/**
 * A local input file (a document to send, a PDF to search) opened once and then used through that one open file: its
 * type is checked on the handle (a named pipe or a device is refused before any read could block), and its head, its
 * digest, its bytes and the upload all read from it. It is passed along instead of a path, so that no step reopens
 * the path, which another program could have changed or replaced between the check and the use.
 */
import { constants } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { kindOfEntry, readBufferSize, unreadableFileMessage } from './local-file.js';
import { crypto } from '../shared/crypto.js';
import { fileNamed, type Where } from './where.js';

/**
 * Handles kept open at once. A batch holds every entry's documents from its offline check to its upload; past this
 * many distinct files, the least recently used is closed, and reopened when it is needed again, if it is still the
 * same file (device, inode, size, modification and change times), else refused as changed.
 */
const OPEN_HANDLES_KEPT = 64;

/** Never through a link planted at the resolved path; never waiting on a pipe's writer. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Every file opened, by its real path: a batch naming one PDF in every envelope opens, checks and hashes it once. */
const opened = new Map<string, OpenedFile>();
/** The files that hold a handle now, least recently used first. */
const holding = new Set<OpenedFile>();

function unreadable(path: string, error: unknown, where: Where): UsageError {
  return new UsageError(`${unreadableFileMessage(path, error, where)}.`, 'Check the path.', 'INPUT_UNREADABLE');
}

interface Identity {
  text: string;
  size: number;
}

async function identityOf(handle: FileHandle, path: string, where: Where): Promise<Identity> {
  const stats = await handle.stat({ bigint: true });
  if (!stats.isFile()) {
    const kind = kindOfEntry(stats);
    const why = kind === 'a named pipe' ? ' A document is sent with its size, so it cannot come from a pipe: save it to a file first.' : '';
    throw new UsageError(`${fileNamed(path, where)} is ${kind}, not a regular file.`, `Give the path of the document file itself.${why}`, 'INPUT_UNREADABLE');
  }
  return { text: `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`, size: Number(stats.size) };
}

async function openChecked(realPath: string, path: string, where: Where): Promise<{ handle: FileHandle; identity: Identity }> {
  let handle: FileHandle;
  try {
    handle = await open(realPath, OPEN_FLAGS);
  } catch (error) {
    throw unreadable(path, error, where);
  }
  try {
    return { handle, identity: await identityOf(handle, path, where) };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

export class OpenedFile {
  private handle: FileHandle | undefined;
  /** Reads under way: the handle is not closed under them. */
  private users = 0;
  private digest: Promise<string> | undefined;

  private constructor(
    /** The path as the user gave it, for messages. */
    readonly path: string,
    readonly where: Where,
    private readonly realPath: string,
    handle: FileHandle,
    private readonly identity: Identity,
  ) {
    this.handle = handle;
  }

  /**
   * The file at `path`, opened (or the one already open at the same real path). A folder, a pipe, a socket or a device
   * is refused with a usage error naming what it is; so is a path that cannot be opened.
   */
  static async open(path: string, where: Where = path): Promise<OpenedFile> {
    let realPath: string;
    try {
      realPath = await realpath(path);
    } catch (error) {
      throw unreadable(path, error, where);
    }
    const known = opened.get(realPath);
    if (known) return known;
    const { handle, identity } = await openChecked(realPath, path, where);
    // Another open of the same path may have finished while this one waited.
    const raced = opened.get(realPath);
    if (raced) {
      await handle.close();
      return raced;
    }
    const file = new OpenedFile(path, where, realPath, handle, identity);
    opened.set(realPath, file);
    await keepHandlesFew(file);
    return file;
  }

  /** Whether it holds an open handle now. */
  get isOpen(): boolean {
    return this.handle !== undefined;
  }

  /** Its size in bytes when it was opened: what is sent as its Content-Length. */
  get size(): number {
    return this.identity.size;
  }

  /**
   * Runs `read` with the open handle, after checking on it that the file is still as it was opened (so a file written
   * in place while esign reads it is refused, not sent half old, half new); a handle closed to save handles is reopened
   * by the same check.
   */
  private async using<T>(read: (handle: FileHandle) => Promise<T>): Promise<T> {
    this.users++;
    try {
      const handle = this.handle ?? (await openChecked(this.realPath, this.path, this.where)).handle;
      if ((await identityOf(handle, this.path, this.where)).text !== this.identity.text) {
        if (handle !== this.handle) await handle.close();
        throw new UsageError(
          `${fileNamed(this.path, this.where)} changed after esign checked it; nothing more was read from it.`,
          'Leave the file as it is while esign runs, then run the command again.',
          'INPUT_CHANGED',
        );
      }
      this.handle = handle;
      await keepHandlesFew(this);
      return await read(handle);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw unreadable(this.path, error, this.where);
    } finally {
      this.users--;
    }
  }

  /** The first `length` bytes (fewer if the file is shorter): enough to tell a PDF, a ZIP or a page of HTML apart. */
  head(length: number): Promise<Buffer> {
    return this.using(async (handle) => {
      const buffer = Buffer.alloc(Math.min(length, this.size));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return buffer.subarray(0, bytesRead);
    });
  }

  /**
   * Reads into `buffer` from `position`; 0 at the end. A file that ends before the size it had when opened is a file
   * changed under esign, and fails rather than sending less than the length it announced.
   */
  read(buffer: Buffer, length: number, position: number): Promise<number> {
    return this.using(async (handle) => {
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      if (bytesRead === 0 && position < this.size) throw new Error(`${this.path} became shorter while esign was reading it`);
      return bytesRead;
    });
  }

  /** Refuses an empty file: a document sent with no bytes is never one the service can process. */
  assertNotEmpty(): void {
    if (this.size === 0) throw new UsageError(`${fileNamed(this.path, this.where)} is empty.`, undefined, 'INPUT_INVALID');
  }

  /** The content as a stream of reads through the handle (a body sent as it is on disk). */
  stream(): Readable {
    return Readable.from(this.pieces());
  }

  private async *pieces(): AsyncGenerator<Buffer> {
    for (let position = 0; position < this.size; ) {
      const buffer = Buffer.allocUnsafe(Math.min(readBufferSize(this.size), this.size - position));
      const bytesRead = await this.read(buffer, buffer.length, position);
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  }

  /** The whole content, read through the handle (a PDF to parse). */
  async bytes(): Promise<Uint8Array> {
    const bytes = new Uint8Array(this.size);
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let position = 0; position < this.size; ) position += await this.read(buffer.subarray(position), this.size - position, position);
    return bytes;
  }

  /** The SHA-256 (hex) of its content, taken once: reads of at most 1 MiB, so a 1 GiB file costs a few MiB of memory. */
  sha256(): Promise<string> {
    this.digest ??= this.hash();
    return this.digest;
  }

  private async hash(): Promise<string> {
    const hash = crypto().createHash('sha256');
    const buffer = Buffer.allocUnsafe(Math.min(readBufferSize(this.size), Math.max(this.size, 1)));
    for (let position = 0; position < this.size; ) {
      const bytesRead = await this.read(buffer, Math.min(buffer.length, this.size - position), position);
      hash.update(buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
    return hash.digest('hex');
  }

  /** Closes the handle now (it reopens, checked, if the file is used again). */
  async close(): Promise<void> {
    const handle = this.handle;
    if (!handle || this.users > 0) return;
    this.handle = undefined;
    holding.delete(this);
    await handle.close();
  }
}

/** Marks `used` as the most recently used file, and closes the least recently used handles past the limit. */
async function keepHandlesFew(used: OpenedFile): Promise<void> {
  holding.delete(used);
  holding.add(used);
  // A file being read keeps its handle (close() leaves it): the count may stay over the limit until that read ends.
  for (const file of [...holding].slice(0, Math.max(0, holding.size - OPEN_HANDLES_KEPT))) await file.close();
}
