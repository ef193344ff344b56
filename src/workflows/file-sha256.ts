import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { readBufferSize } from '../files/local-file.js';

/**
 * Digests taken, by file identity (device, inode, size, modification and change times): a batch names the same file
 * in many envelopes (an `each:` rows file, one PDF for every row), and it is then read and hashed once, not once per
 * envelope. A file changed in between has a new identity, and is hashed again.
 */
const digests = new Map<string, Promise<string>>();
/** Identities remembered; past this the oldest are forgotten. */
const DIGESTS_KEPT = 4096;

/** Streamed in reads of at most 1 MiB (a small file in one read of its size): a 1 GiB file costs a few MiB of memory. */
async function hashFile(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: readBufferSize(size) })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The SHA-256 (hex) of a file's content. */
export async function fileSha256(path: string): Promise<string> {
  const stats = await stat(path, { bigint: true });
  const identity = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
  let digest = digests.get(identity);
  if (digest === undefined) {
    digest = hashFile(path, Number(stats.size));
    digests.set(identity, digest);
    digest.catch(() => digests.delete(identity));
    for (const oldest of digests.keys()) {
      if (digests.size <= DIGESTS_KEPT) break;
      digests.delete(oldest);
    }
  }
  return digest;
}
