/**
 * Reading what a person names as input (a spec, a fields file, a JSON body, an `-F x=@file` value, standard input) up
 * to a limit: past it the input is not such a file but /dev/zero, an endless pipe or a wrong path, and reading on
 * would fill memory until the process dies with a native trace instead of a message.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';
import { kindOfEntry } from './local-file.js';

/** Far above any spec, fields file or JSON body a person writes. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

const CHUNK = 1024 * 1024;

const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/**
 * Special files named on purpose, read as they are: a descriptor already open (`/dev/stdin`, the `/dev/fd/63` of a
 * shell's `<(…)`), where a pipe is meant and has its writer, and /dev/null, empty at once.
 */
const meantSpecialFile = /^\/dev\/(?:null|stdin|fd\/\d+)$|^\/proc\/self\/fd\/\d+$/;

/**
 * Refuses what is not a regular file, from its stats, before it is opened and again once it is: opening a named pipe
 * waits for a writer for ever (and no signal ends a process stuck there), a device such as /dev/zero never ends, a
 * socket is nothing to read. A folder is left to fail as opening one does (EISDIR), which callers already handle.
 */
function refuseUnlessRegular(stats: Stats, path: string, what: string): void {
  if (stats.isFile() || (meantSpecialFile.test(path) && !stats.isDirectory())) return;
  if (stats.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${path}'`), { code: 'EISDIR' });
  throw new UsageError(
    `${what} is ${kindOfEntry(stats)}, not a regular file: esign reads input only from files.`,
    'Give the path of a file; to read from a pipe, name it - (standard input) or /dev/stdin.',
    'INPUT_UNREADABLE',
  );
}

/** The one way an input file is opened: see refuseUnlessRegular. O_NONBLOCK keeps a pipe swapped in meanwhile from blocking. */
export async function openInputFile(path: string, what: string): Promise<FileHandle> {
  refuseUnlessRegular(await stat(path), path, what);
  const handle = await open(path, meantSpecialFile.test(path) ? constants.O_RDONLY : constants.O_RDONLY | O_NONBLOCK);
  try {
    refuseUnlessRegular(await handle.stat(), path, what);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

function openInputFileSync(path: string, what: string): number {
  refuseUnlessRegular(statSync(path), path, what);
  const descriptor = openSync(path, meantSpecialFile.test(path) ? constants.O_RDONLY : constants.O_RDONLY | O_NONBLOCK);
  try {
    refuseUnlessRegular(fstatSync(descriptor), path, what);
    return descriptor;
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
}

function tooLarge(what: string, maxBytes: number): UsageError {
  return new UsageError(`${what} is larger than ${maxBytes / 1024 / 1024} MiB, more than esign reads as input.`, 'Check the path (a device such as /dev/zero, or an endless pipe, never ends).', 'INPUT_TOO_LARGE');
}

/** Gathers chunks up to `maxBytes`, refusing the input as soon as there is more. */
class Gathered {
  private readonly chunks: Buffer[] = [];
  private length = 0;
  constructor(
    private readonly what: string,
    private readonly maxBytes: number,
  ) {}
  add(chunk: Buffer): void {
    this.length += chunk.length;
    if (this.length > this.maxBytes) throw tooLarge(this.what, this.maxBytes);
    this.chunks.push(chunk);
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

export function readFileCappedSync(path: string, what: string, maxBytes = MAX_INPUT_BYTES): Buffer {
  const gathered = new Gathered(what, maxBytes);
  const descriptor = openInputFileSync(path, what);
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const read = readSync(descriptor, chunk, 0, CHUNK, null);
      if (read === 0) return gathered.bytes();
      gathered.add(chunk.subarray(0, read));
    }
  } finally {
    closeSync(descriptor);
  }
}

export async function readFileCapped(path: string, what: string, maxBytes = MAX_INPUT_BYTES): Promise<Buffer> {
  const gathered = new Gathered(what, maxBytes);
  const handle = await openInputFile(path, what);
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
      if (bytesRead === 0) return gathered.bytes();
      gathered.add(chunk.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

export async function readStreamCapped(stream: NodeJS.ReadableStream, what: string, maxBytes = MAX_INPUT_BYTES): Promise<Buffer> {
  const gathered = new Gathered(what, maxBytes);
  for await (const chunk of stream) gathered.add(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return gathered.bytes();
}
