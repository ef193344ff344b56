import { createHash } from 'node:crypto';
import { mkdtempSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSha256 } from './file-sha256.js';

const dir = mkdtempSync(join(tmpdir(), 'esign-file-sha256-'));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('fileSha256', () => {
  it('hashes a file larger than one read', async () => {
    const big = join(dir, 'big.bin');
    const content = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
    writeFileSync(big, content);
    expect(await fileSha256(big)).toBe(sha256(content));
  });

  it('hashes a file again once it changed, even to the same size and modification time', async () => {
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, '%PDF-1.7 first');
    expect(await fileSha256(path)).toBe(sha256(Buffer.from('%PDF-1.7 first')));
    const { atime, mtime } = statSync(path);
    writeFileSync(path, '%PDF-1.7 other');
    utimesSync(path, atime, mtime);
    expect(await fileSha256(path)).toBe(sha256(Buffer.from('%PDF-1.7 other')));
  });

  it('fails as reading fails: a missing file, a directory', async () => {
    await expect(fileSha256(join(dir, 'missing.pdf'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(fileSha256(dir)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
