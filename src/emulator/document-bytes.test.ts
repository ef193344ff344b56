import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiFailure } from './errors.js';
import { discardDocumentBytes, discardReceivedBody, documentByteStream, documentSha256, IN_MEMORY_LIMIT, keepDocumentBytes, readDocumentBytes, readDocumentHead, receiveBody } from './document-bytes.js';
import { emptyState, Store } from './store.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function chunked(total: number, chunkSize = 1024 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const size = Math.min(chunkSize, total - sent);
      this.push(Buffer.alloc(size, sent % 251));
      sent += size;
    },
  });
}

async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

describe('receiveBody', () => {
  const store = new Store(emptyState());
  const used: string[] = [];
  afterEach(async () => {
    for (const id of used.splice(0)) await discardDocumentBytes(store, id);
  });

  it('keeps a small body in memory with its length', async () => {
    const bytes = Buffer.from('%PDF-1.7 small body');
    const received = await receiveBody(Readable.from([bytes]), { maxBytes: 1000, contentLength: String(bytes.length), spill: { store, documentId: randomUUID() } });
    expect(received).toEqual({ byteLength: bytes.length, bytes });
  });

  it('refuses a declared length over maxBytes before reading: 413 DOCUMENT_TOO_LARGE {maxBytes, declaredBytes}', async () => {
    let read = false;
    const source = new Readable({ read() { read = true; this.push(null); } });
    const refusal = await receiveBody(source, { maxBytes: 10, contentLength: '11' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiFailure);
    expect((refusal as ApiFailure).status).toBe(413);
    expect((refusal as ApiFailure).body.error).toMatchObject({ code: 'DOCUMENT_TOO_LARGE', details: { maxBytes: 10, declaredBytes: 11 } });
    expect(read).toBe(false);
  });

  it('reads a body growing past maxBytes to its end, then refuses it with {maxBytes, receivedBytes}', async () => {
    const source = chunked(5000, 1000);
    const refusal = (await receiveBody(source, { maxBytes: 2500 }).catch((error: unknown) => error)) as ApiFailure;
    expect(refusal.body.error).toMatchObject({ code: 'DOCUMENT_TOO_LARGE', details: { maxBytes: 2500, receivedBytes: 5000 } });
    expect(source.readableEnded).toBe(true);
  });

  it(`streams a body over ${IN_MEMORY_LIMIT / 1024 / 1024} MiB to the document's file and serves it back from there`, async () => {
    const documentId = randomUUID();
    used.push(documentId);
    const total = IN_MEMORY_LIMIT + 3 * 1024 * 1024;
    const expected = await collect(chunked(total));
    const received = await receiveBody(chunked(total), { maxBytes: total, spill: { store, documentId } });
    expect(received.bytes).toBeUndefined();
    expect(received).toEqual({ byteLength: total, file: expect.stringMatching(/\.part$/) });
    // Not the document's content until it is kept.
    expect(await readDocumentBytes(store, documentId)).toBeUndefined();
    await keepDocumentBytes(store, documentId, received);
    expect(sha256((await readDocumentBytes(store, documentId))!)).toBe(sha256(expected));
    expect(store.blobs.has(documentId)).toBe(false);
    // A directory of the store's own that only this user can enter, holding a file only this user can read.
    expect(statSync(store.documentDirectory()).mode & 0o777).toBe(0o700);
    expect(readdirSync(store.documentDirectory()).map((name) => statSync(join(store.documentDirectory(), name)).mode & 0o777)).toEqual([0o600]);
    expect((await readDocumentHead(store, documentId, 4))!.equals(expected.subarray(0, 4))).toBe(true);
    const served = await documentByteStream(store, documentId);
    expect(served!.length).toBe(total);
    expect(sha256(await collect(served!.stream))).toBe(sha256(expected));
    // Content kept in memory later replaces the file.
    await keepDocumentBytes(store, documentId, { bytes: Buffer.from('small') });
    expect((await readDocumentBytes(store, documentId))!.toString()).toBe('small');
    expect((await documentByteStream(store, documentId))!.length).toBe(5);
  });

  it('drops a body refused after it arrived, and the document keeps what it had', async () => {
    const documentId = randomUUID();
    used.push(documentId);
    const total = IN_MEMORY_LIMIT + 1;
    await keepDocumentBytes(store, documentId, await receiveBody(chunked(total), { maxBytes: total, spill: { store, documentId } }));
    const kept = sha256((await readDocumentBytes(store, documentId))!);
    const files = readdirSync(store.documentDirectory()).sort();
    await discardReceivedBody(await receiveBody(chunked(total + 7), { maxBytes: total + 7, spill: { store, documentId } }));
    expect(sha256((await readDocumentBytes(store, documentId))!)).toBe(kept);
    expect(readdirSync(store.documentDirectory()).sort()).toEqual(files);
  });

  it('keeps a document whose id is a path (legacy ids come from the client) inside the document directory', async () => {
    const documentId = '../../escape';
    used.push(documentId);
    const total = IN_MEMORY_LIMIT + 1;
    await keepDocumentBytes(store, documentId, await receiveBody(chunked(total), { maxBytes: total, spill: { store, documentId } }));
    expect(readdirSync(store.documentDirectory())).toEqual([`${encodeURIComponent(documentId)}.bin`]);
    expect((await documentByteStream(store, documentId))!.length).toBe(total);
  });
});

describe('documentSha256', () => {
  // Around the 8 MiB slice it hashes between turns of the event loop.
  it.each([0, 1, 8 * 1024 * 1024, 8 * 1024 * 1024 + 1, 20 * 1024 * 1024 + 5])('is the SHA-256 of %i bytes, taken a slice at a time', async (length) => {
    const bytes = Buffer.alloc(length, length % 251);
    expect(await documentSha256(bytes)).toBe(sha256(bytes));
  });
});
