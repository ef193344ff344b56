/**
 * Reading what a person names as input (a spec, a fields file, a JSON body, an `-F x=@file` value, standard input) up
 * to a limit: past it the input is not such a file but /dev/zero, an endless pipe or a wrong path, and reading on
 * would fill memory until the process dies with a native trace instead of a message.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { UsageError } from '../core/errors.js';

/** Far above any spec, fields file or JSON body a person writes. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

const CHUNK = 1024 * 1024;

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
  const descriptor = openSync(path, 'r');
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
  const handle = await open(path, 'r');
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
