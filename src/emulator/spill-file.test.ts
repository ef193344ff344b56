import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpillFile } from './spill-file.js';

const MiB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'esign-spill-'));
let files = 0;

/** Appends `bytes` in pieces of the given sizes (cycled), as network reads would arrive. */
async function spill(bytes: Buffer, pieces: readonly number[], direct?: boolean, expectedBytes?: number): Promise<string> {
  const path = join(dir, `file-${files++}`);
  const file = await SpillFile.create(path, { ...(direct === undefined ? {} : { direct }), ...(expectedBytes === undefined ? {} : { expectedBytes }) });
  for (let at = 0, index = 0; at < bytes.length; index++) {
    const size = pieces[index % pieces.length]!;
    await file.append(bytes.subarray(at, at + size));
    at += size;
  }
  await file.finish();
  return path;
}

describe('SpillFile', () => {
  // Around the 4 KiB block and the 8 MiB stage, where padding and the switch between stages happen.
  const lengths = [0, 1, 4095, 4096, 4097, 8 * MiB - 1, 8 * MiB, 8 * MiB + 1, 2 * 8 * MiB + 12_345, 40 * MiB + 7];
  // Direct I/O where the platform has it (Linux), and the page cache as elsewhere.
  it.each(lengths.flatMap((length) => [true, false].map((direct) => [length, direct] as const)))('writes %i bytes exactly, as appended (direct I/O: %s)', async (length, direct) => {
    const bytes = randomBytes(length);
    const path = await spill(bytes, [65_536, 1, 3 * MiB + 5, 16_384], direct);
    expect(statSync(path).size).toBe(length);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it.each([true, false])('writes a file sized for the declared length, or for more than came, at the length appended (direct I/O: %s)', async (direct) => {
    for (const [length, expectedBytes] of [
      [20 * MiB + 3, 20 * MiB + 3],
      [9 * MiB, 12 * MiB],
      [10, 4096],
    ] as const) {
      const bytes = randomBytes(length);
      const path = await spill(bytes, [65_536], direct, expectedBytes);
      expect(statSync(path).size).toBe(length);
      expect(readFileSync(path).equals(bytes)).toBe(true);
    }
  });

  it('creates the file readable only by this user, and never through a link planted at its path', async () => {
    const path = await spill(Buffer.from('%PDF-1.7'), [8]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const target = join(dir, 'target');
    writeFileSync(target, 'kept');
    const planted = join(dir, 'planted');
    symlinkSync(target, planted);
    await expect(SpillFile.create(planted)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(target, 'utf8')).toBe('kept');
  });

  it('stops on abort, leaving the file for the caller to remove', async () => {
    const path = join(dir, 'aborted');
    const file = await SpillFile.create(path);
    await file.append(randomBytes(9 * MiB));
    await file.abort();
    expect(existsSync(path)).toBe(true);
  });
});
