import { mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../api/errors.js';
import { interruption } from '../cli/interrupt.js';
import { openAtomic, writeFileAtomic } from './atomic-file.js';

function folder(): string {
  return mkdtempSync(join(tmpdir(), 'esign-atomic-'));
}

afterEach(() => interruption.reset());

describe('writeFileAtomic', () => {
  it('creates the file with the asked permissions and leaves no temporary file', async () => {
    const dir = folder();
    await writeFileAtomic(join(dir, 'out.txt'), 'hello', { mode: 0o600 });
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('hello');
    expect(statSync(join(dir, 'out.txt')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['out.txt']);
  });

  it('refuses to replace an existing file without overwrite, naming it, and leaves it as it was', async () => {
    const dir = folder();
    const target = join(dir, 'keep.txt');
    writeFileSync(target, 'old');
    const error = await writeFileAtomic(target, 'new', { label: '--out keep.txt' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain('--out keep.txt already exists');
    expect((error as UsageError).hint).toContain('--force');
    expect(readFileSync(target, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['keep.txt']);
  });

  it('replaces an existing file with overwrite', async () => {
    const dir = folder();
    const target = join(dir, 'file.txt');
    writeFileSync(target, 'old');
    await writeFileAtomic(target, 'new', { overwrite: true });
    expect(readFileSync(target, 'utf8')).toBe('new');
  });

  it('refuses a target that is one of the inputs, even when named differently, and even with overwrite', async () => {
    const dir = folder();
    const input = join(dir, 'contract.pdf');
    writeFileSync(input, '%PDF-1.7 original');
    symlinkSync(input, join(dir, 'alias.pdf'));
    for (const target of [input, join(dir, '.', 'contract.pdf'), join(dir, 'alias.pdf')]) {
      const error = await writeFileAtomic(target, 'drawn', { overwrite: true, inputs: [input] }).catch((caught: unknown) => caught);
      expect((error as UsageError).code).toBe('OUTPUT_IS_INPUT');
    }
    expect(readFileSync(input, 'utf8')).toBe('%PDF-1.7 original');
  });

  it('replaces a symlinked target by a file instead of writing through the link', async () => {
    const dir = folder();
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, join(dir, 'link.txt'));
    await writeFileAtomic(join(dir, 'link.txt'), 'new', { overwrite: true });
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(join(dir, 'link.txt')).isSymbolicLink()).toBe(false);
  });

  it('says that a missing folder is the problem (exit 2)', async () => {
    const error = await writeFileAtomic(join(folder(), 'missing', 'x.txt'), 'x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain('its folder does not exist');
  });
});

describe('openAtomic', () => {
  it('streams into the temporary file and publishes only on commit', async () => {
    const dir = folder();
    const target = join(dir, 'big.bin');
    const file = await openAtomic(target);
    await pipeline(Readable.from([Buffer.alloc(1000, 1), Buffer.alloc(1000, 2)]), file.stream());
    expect(readdirSync(dir)).toHaveLength(1);
    expect(readdirSync(dir)[0]).not.toBe('big.bin');
    await file.commit();
    expect(statSync(target).size).toBe(2000);
    expect(readdirSync(dir)).toEqual(['big.bin']);
  });

  it('removes the temporary file and keeps the old target when the source fails midway', async () => {
    const dir = folder();
    const target = join(dir, 'envelope.zip');
    writeFileSync(target, 'old zip');
    const file = await openAtomic(target, { overwrite: true });
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(100));
        this.destroy(new Error('connection reset'));
      },
    });
    await expect(pipeline(failing, file.stream())).rejects.toThrow('connection reset');
    await file.abort();
    expect(readFileSync(target, 'utf8')).toBe('old zip');
    expect(readdirSync(dir)).toEqual(['envelope.zip']);
  });

  it('does not commit once interrupted, and the forced-exit clean-up removes the temporary file', async () => {
    const dir = folder();
    const target = join(dir, 'out.pdf');
    const file = await openAtomic(target);
    await file.write('partial');
    interruption.trigger('SIGINT');
    const error = await file.commit().catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe('INTERRUPTED');
    expect(readdirSync(dir)).toEqual([]);

    interruption.reset();
    const second = await openAtomic(target);
    await second.write('partial');
    interruption.runForcedExitCleanups();
    expect(readdirSync(dir)).toEqual([]);
  });
});
