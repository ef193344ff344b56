import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OpenedFile } from './opened-file.js';

const dir = mkdtempSync(join(tmpdir(), 'esign-opened-file-'));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const openDescriptors = () => readdirSync('/proc/self/fd').length;

describe('OpenedFile', () => {
  it('reads its head, its bytes and its digest through one open file, also past one read', async () => {
    const big = join(dir, 'big.bin');
    const content = Buffer.alloc(3 * 1024 * 1024 + 5, 7);
    content.write('%PDF-1.7', 0, 'latin1');
    writeFileSync(big, content);
    const file = await OpenedFile.open(big);
    expect(file.size).toBe(content.length);
    expect((await file.head(8)).toString('latin1')).toBe('%PDF-1.7');
    expect(Buffer.from(await file.bytes()).equals(content)).toBe(true);
    expect(await file.sha256()).toBe(sha256(content));
    const streamed: Buffer[] = [];
    for await (const chunk of file.stream()) streamed.push(chunk as Buffer);
    expect(Buffer.concat(streamed).equals(content)).toBe(true);
  });

  it('refuses an empty file as a document, naming it', async () => {
    const empty = join(dir, 'empty.pdf');
    writeFileSync(empty, '');
    await expect(OpenedFile.open(empty, 'spec.yaml:4:9').then((file) => file.assertNotEmpty())).rejects.toMatchObject({ code: 'INPUT_INVALID', exitCode: 2, message: 'spec.yaml:4:9: ' + empty + ' is empty.' });
  });

  it('is one opened file for one real path, whatever the path that names it: a batch hashes a shared PDF once', async () => {
    const path = join(dir, 'shared.pdf');
    writeFileSync(path, '%PDF-1.7 shared');
    symlinkSync(path, join(dir, 'link.pdf'));
    const first = await OpenedFile.open(path);
    expect(await OpenedFile.open(join(dir, 'link.pdf'))).toBe(first);
    expect(await OpenedFile.open(join(dir, '.', 'shared.pdf'))).toBe(first);
  });

  it('refuses a file written in place after it was opened, even to the same size and modification time', async () => {
    const path = join(dir, 'doc.pdf');
    writeFileSync(path, '%PDF-1.7 first');
    const file = await OpenedFile.open(path);
    expect(await file.sha256()).toBe(sha256(Buffer.from('%PDF-1.7 first')));
    const { atime, mtime } = statSync(path);
    writeFileSync(path, '%PDF-1.7 other');
    utimesSync(path, atime, mtime);
    await expect(file.bytes()).rejects.toMatchObject({ code: 'INPUT_CHANGED', exitCode: 2, message: expect.stringContaining('doc.pdf changed after esign checked it') });
  });

  it('keeps a bounded number of handles: a file closed to save handles reopens if it is the same, else is refused', async () => {
    const paths = Array.from({ length: 100 }, (_, index) => join(dir, `many-${index}.pdf`));
    for (const [index, path] of paths.entries()) writeFileSync(path, `%PDF-1.7 ${index}`);
    const before = openDescriptors();
    const files = [];
    for (const path of paths) files.push(await OpenedFile.open(path));
    expect(openDescriptors() - before).toBeLessThanOrEqual(64);
    expect(files[0]!.isOpen).toBe(false);
    expect(Buffer.from(await files[0]!.bytes()).toString('latin1')).toBe('%PDF-1.7 0');

    // Closed again by later opens, then replaced by another file under the same name.
    for (const path of paths.slice(1)) await (await OpenedFile.open(path)).head(1);
    expect(files[1]!.isOpen).toBe(false);
    writeFileSync(join(dir, 'replacement.pdf'), '%PDF-1.7 1');
    renameSync(join(dir, 'replacement.pdf'), paths[1]!);
    await expect(files[1]!.head(8)).rejects.toMatchObject({ code: 'INPUT_CHANGED' });
  });

  it('refuses, without blocking, what is not a regular file: a folder, a named pipe, a device; and a missing path', async () => {
    const fifo = join(dir, 'pipe.pdf');
    execFileSync('mkfifo', [fifo]);
    await expect(OpenedFile.open(dir)).rejects.toMatchObject({ code: 'INPUT_UNREADABLE', message: expect.stringContaining('is a folder, not a regular file') });
    await expect(OpenedFile.open(fifo)).rejects.toMatchObject({ code: 'INPUT_UNREADABLE', message: expect.stringContaining('is a named pipe, not a regular file') });
    await expect(OpenedFile.open('/dev/zero')).rejects.toMatchObject({ code: 'INPUT_UNREADABLE', message: expect.stringContaining('is a device, not a regular file') });
    await expect(OpenedFile.open(join(dir, 'missing.pdf'), 'spec.yaml:3:9')).rejects.toMatchObject({ code: 'INPUT_UNREADABLE', message: expect.stringContaining('spec.yaml:3:9: no such file') });
  });
});
