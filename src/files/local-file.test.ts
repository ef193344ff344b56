import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { kindOfEntry, whyUnreadable } from './local-file.js';

describe('local files, said in words', () => {
  const dir = mkdtempSync(join(tmpdir(), 'esign-local-file-'));

  it('names a folder, a named pipe and a device for what they are', async () => {
    mkdirSync(join(dir, 'folder.pdf'));
    execFileSync('mkfifo', [join(dir, 'pipe.pdf')]);
    expect(kindOfEntry(await stat(join(dir, 'folder.pdf')))).toBe('a folder');
    expect(kindOfEntry(await stat(join(dir, 'pipe.pdf')))).toBe('a named pipe');
    expect(kindOfEntry(await stat('/dev/null'))).toBe('a device');
  });

  it('says why a file could not be read, without an errno code where there are words for it', async () => {
    writeFileSync(join(dir, 'file.yaml'), 'a: 1');
    const failure = (path: string) => readFile(path).then(() => undefined, (error: unknown) => error);
    expect(whyUnreadable(await failure(join(dir, 'missing.yaml')))).toBe('no such file');
    mkdirSync(join(dir, 'folder.yaml'));
    expect(whyUnreadable(await failure(join(dir, 'folder.yaml')))).toBe('a folder, not a file');
    expect(whyUnreadable(await failure(join(dir, 'file.yaml', 'inner.yaml')))).toBe('a part of the path is not a folder');
    expect(whyUnreadable(Object.assign(new Error('x'), { code: 'EIO' }))).toBe('cannot be read (EIO)');
  });
});
