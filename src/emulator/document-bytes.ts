import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { ApiFailure } from './errors.js';
import { readFileHead } from '../shared/file-head.js';
import { SpillFile } from './spill-file.js';
import type { Store } from './store.js';

/**
 * Where a document's bytes live. Up to IN_MEMORY_LIMIT they sit in `store.blobs` (and go into the `--state` file with
 * the rest of the state); a larger upload is streamed to a file in the store's private document directory (0700, files
 * 0600) and only its path (derived from the document id) is kept, so a 1 GiB upload never needs 1 GiB of memory to be
 * received or served.
 */
export const IN_MEMORY_LIMIT = 64 * 1024 * 1024;

/** Legacy routes take document ids from the client: the id is encoded so that it can never name another path. */
function spillPath(store: Store, documentId: string): string {
  return join(store.documentDirectory(), `${encodeURIComponent(documentId)}.bin`);
}

function documentTooLarge(maxBytes: number, size: { declaredBytes: number } | { receivedBytes: number }): ApiFailure {
  const bytes = 'declaredBytes' in size ? size.declaredBytes : size.receivedBytes;
  return new ApiFailure(413, 'DOCUMENT_TOO_LARGE', `The document is ${bytes} bytes; at most ${maxBytes} bytes are accepted.`, { maxBytes, ...size });
}

export interface ReceivedBody {
  byteLength: number;
  /** Set when the body was kept in memory. */
  bytes?: Buffer;
  /**
   * Otherwise the file it was written to, beside the document's own: `keepDocumentBytes` makes it the document's
   * content, `discardReceivedBody` removes it. Until then the document keeps what it had.
   */
  file?: string;
}

/**
 * Reads a request body, counting it. A `Content-Length` over `maxBytes` is refused before reading (413
 * DOCUMENT_TOO_LARGE, `details.declaredBytes`); a body found longer is read to its end and dropped, so that the client,
 * still sending, gets the 413 (`details.receivedBytes`) rather than a reset connection. A body announced or found to
 * be larger than IN_MEMORY_LIMIT goes to a file beside the document's (when `spill` is given) as it arrives. Nothing is
 * hashed here: processing takes the document's SHA-256 when it reads the document, after the upload was answered.
 */
export async function receiveBody(
  source: Readable,
  options: { maxBytes: number; contentLength?: string | undefined; spill?: { store: Store; documentId: string } },
): Promise<ReceivedBody> {
  const declaredBytes = options.contentLength === undefined ? undefined : Number(options.contentLength);
  if (declaredBytes !== undefined && declaredBytes > options.maxBytes) throw documentTooLarge(options.maxBytes, { declaredBytes });
  const chunks: Buffer[] = [];
  let received = 0;
  let file: SpillFile | undefined;
  const spill = options.spill;
  const path = spill && `${spillPath(spill.store, spill.documentId)}.${randomUUID()}.part`;
  const startFile = async (): Promise<SpillFile> => {
    spill!.store.preparedDocumentDirectory();
    return SpillFile.create(path!, { expectedBytes: Math.min(declaredBytes ?? 0, options.maxBytes) });
  };
  try {
    if (path && (declaredBytes ?? 0) > IN_MEMORY_LIMIT) file = await startFile();
    for await (const chunk of source as AsyncIterable<Buffer>) {
      received += chunk.length;
      if (received > options.maxBytes) continue;
      if (!file && path && received > IN_MEMORY_LIMIT) {
        file = await startFile();
        for (const earlier of chunks.splice(0)) await file.append(earlier);
      }
      if (file) await file.append(chunk);
      else chunks.push(chunk);
    }
    if (received > options.maxBytes) throw documentTooLarge(options.maxBytes, { receivedBytes: received });
    if (file) {
      await file.finish();
      return { byteLength: received, file: path! };
    }
    return { byteLength: received, bytes: Buffer.concat(chunks, received) };
  } catch (error) {
    await file?.abort();
    // Also when the file was made but failed before it was handed over (sizing it past a limit).
    if (path) await rm(path, { force: true });
    throw error;
  }
}

/** Bytes hashed between two turns of the event loop. */
const HASH_SLICE = 8 * 1024 * 1024;

/**
 * The SHA-256 (hex) of a document's bytes, a slice at a time with a turn of the event loop between slices: hashing
 * 1 GiB takes about a second, which requests arriving meanwhile must not wait for.
 */
export async function documentSha256(bytes: Uint8Array): Promise<string> {
  const digest = createHash('sha256');
  for (let at = 0; at < bytes.length; at += HASH_SLICE) {
    if (at > 0) await setImmediate();
    digest.update(bytes.subarray(at, at + HASH_SLICE));
  }
  return digest.digest('hex');
}

/** Keeps a received body as the document's bytes, replacing what it had. */
export async function keepDocumentBytes(store: Store, documentId: string, body: Pick<ReceivedBody, 'bytes' | 'file'>): Promise<void> {
  if (body.bytes) {
    store.blobs.set(documentId, body.bytes);
    await rm(spillPath(store, documentId), { force: true });
  } else {
    if (body.file) await rename(body.file, spillPath(store, documentId));
    store.blobs.delete(documentId);
  }
  store.changed();
}

/** Drops a received body that was refused after it arrived: the document keeps what it had. */
export async function discardReceivedBody(body: Pick<ReceivedBody, 'file'>): Promise<void> {
  if (body.file) await rm(body.file, { force: true });
}

/** Replaces a document's bytes with bytes produced here (a converted preview), always in memory. */
export async function replaceDocumentBytes(store: Store, documentId: string, bytes: Buffer): Promise<void> {
  await keepDocumentBytes(store, documentId, { bytes });
}

async function spilledSize(store: Store, documentId: string): Promise<number | undefined> {
  try {
    return (await stat(spillPath(store, documentId))).size;
  } catch {
    return undefined;
  }
}

/** The whole document in memory (processing and search need it so); undefined when there are no bytes. */
export async function readDocumentBytes(store: Store, documentId: string): Promise<Buffer | undefined> {
  const inMemory = store.blobs.get(documentId);
  if (inMemory) return inMemory;
  try {
    return await readFile(spillPath(store, documentId));
  } catch {
    return undefined;
  }
}

/** The first bytes only, to tell a PDF or a ZIP from anything else without reading a large file. */
export async function readDocumentHead(store: Store, documentId: string, length: number): Promise<Buffer | undefined> {
  const inMemory = store.blobs.get(documentId);
  if (inMemory) return inMemory.subarray(0, length);
  try {
    return await readFileHead(spillPath(store, documentId), length);
  } catch {
    return undefined;
  }
}

/** A stream of the document's bytes and their length, for serving them. */
export async function documentByteStream(store: Store, documentId: string): Promise<{ stream: Readable; length: number } | undefined> {
  const inMemory = store.blobs.get(documentId);
  if (inMemory) return { stream: Readable.from([inMemory]), length: inMemory.length };
  const size = await spilledSize(store, documentId);
  if (size === undefined) return undefined;
  return { stream: createReadStream(spillPath(store, documentId), { highWaterMark: 1024 * 1024 }), length: size };
}

/** Drops a document's bytes, wherever they are. */
export async function discardDocumentBytes(store: Store, documentId: string): Promise<void> {
  store.blobs.delete(documentId);
  await rm(spillPath(store, documentId), { force: true });
  store.changed();
}
