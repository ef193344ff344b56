import { mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../core/errors.js';
import { interruption } from '../core/interrupt.js';
import { isTemporaryFileOf, openAtomic, openLineLog, readLineLog, writeFileAtomic } from './atomic-file.js';

// The temporary name is random; a test that plants a file at it has to know it in advance.
const { randomBytes } = vi.hoisted(() => ({ randomBytes: vi.fn() }));
vi.mock('../shared/crypto.js', async () => {
  const crypto = await vi.importActual<typeof import('node:crypto')>('node:crypto');
  randomBytes.mockImplementation(crypto.randomBytes);
  return { crypto: () => ({ ...crypto, randomBytes }) };
});

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

  it('refuses, even with overwrite, a target that is no regular file (a named pipe, a device, a link to one) and leaves it as it was', async () => {
    const dir = folder();
    const pipe = join(dir, 'journal.fifo');
    execFileSync('mkfifo', [pipe]);
    symlinkSync(pipe, join(dir, 'link-to-pipe'));
    // /dev/null only through a link: on the old code this test must not be able to replace the real one.
    symlinkSync('/dev/null', join(dir, 'link-to-null'));
    for (const [name, kind] of [['journal.fifo', 'a named pipe'], ['link-to-pipe', 'a named pipe'], ['link-to-null', 'a device']] as const) {
      const error = await writeFileAtomic(join(dir, name), 'x', { overwrite: true, label: `--journal ${name}` }).catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(`Cannot write --journal ${name}: it is ${kind}, not a file.`);
      expect((error as UsageError).code).toBe('OUTPUT_UNWRITABLE');
    }
    expect(lstatSync(pipe).isFIFO()).toBe(true);
    expect(lstatSync(join(dir, 'link-to-null')).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['journal.fifo', 'link-to-null', 'link-to-pipe']);
  });

  it('keeps the permissions of the file it replaces, unless told a mode (a 0600 file never comes back readable by all)', async () => {
    const dir = folder();
    const target = join(dir, 'private.zip');
    writeFileSync(target, 'old', { mode: 0o600 });
    await writeFileAtomic(target, 'new', { overwrite: true });
    expect(statSync(target).mode & 0o777).toBe(0o600);
    await writeFileAtomic(target, 'newer', { overwrite: true, mode: 0o640 });
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });

  it("refuses, even with overwrite, to replace the files keys are read from: config.json, credentials.json, ESIGN_API_KEY_FILE's file", async () => {
    const configDir = folder();
    const keyFile = join(folder(), 'key');
    for (const [name, text] of [['config.json', '{"profiles":{}}'], ['credentials.json', '{}']]) writeFileSync(join(configDir, name), text);
    writeFileSync(keyFile, 'em_test_kept\n');
    vi.stubEnv('ESIGN_CONFIG_DIR', configDir);
    vi.stubEnv('ESIGN_API_KEY_FILE', keyFile);
    try {
      for (const target of [join(configDir, 'config.json'), join(configDir, '.', 'credentials.json'), keyFile]) {
        const error = await writeFileAtomic(target, 'PK', { overwrite: true, label: '--out x' }).catch((caught: unknown) => caught);
        expect((error as UsageError).code, target).toBe('OUTPUT_IS_INPUT');
        expect((error as UsageError).message).toContain('which esign reads keys or their base URLs from');
      }
      expect(readFileSync(keyFile, 'utf8')).toBe('em_test_kept\n');
      expect(readFileSync(join(configDir, 'credentials.json'), 'utf8')).toBe('{}');
      await writeFileAtomic(join(configDir, 'credentials.json'), '{"a":"b"}', { overwrite: true, keyBearing: true });
      expect(readFileSync(join(configDir, 'credentials.json'), 'utf8')).toBe('{"a":"b"}');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('refuses a name ending in / as a folder\'s, whether or not that folder exists', async () => {
    const dir = folder();
    for (const target of [join(dir, 'missing') + '/', `${dir}/`]) {
      const error = await writeFileAtomic(target, 'x', { label: '--out x/' }).catch((caught: unknown) => caught);
      expect((error as UsageError).message).toBe("Cannot write --out x/: a name ending in / is a folder's.");
    }
  });

  it("refuses '-' (standard output by convention) instead of writing a file named -", async () => {
    const dir = folder();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const error = await writeFileAtomic('-', 'x', { overwrite: true, label: '--out -' }).catch((caught: unknown) => caught);
      expect((error as UsageError).code).toBe('OUTPUT_UNWRITABLE');
      expect((error as UsageError).message).toBe('--out -: - (standard output) is not a file esign can write atomically.');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('takes a target name as long as the file system takes (its temporary name is cut to fit), and knows its temporary files by name', async () => {
    const dir = folder();
    for (const name of [`${'a'.repeat(245)}.pdf`, `${'é'.repeat(120)}.pdf`, 'state.json']) {
      const file = await openAtomic(join(dir, name));
      expect(isTemporaryFileOf(basename(file.temporaryPath), name), name).toBe(true);
      await file.write('x');
      await file.commit();
      expect(readFileSync(join(dir, name), 'utf8')).toBe('x');
    }
    for (const name of ['.state.json.0123456789a.tmp', '.state.json.0123456789ABC.tmp', '.state.json.0123456789ab.tmp.x', 'state.json.0123456789ab.tmp', '.xstate.json.0123456789ab.tmp']) {
      expect(isTemporaryFileOf(name, 'state.json'), name).toBe(false);
    }
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

  it('refuses to commit after its stream failed, instead of waiting forever or publishing a short file', async () => {
    const dir = folder();
    const target = join(dir, 'envelope.zip');
    writeFileSync(target, 'old zip');
    const file = await openAtomic(target, { overwrite: true });
    const stream = file.stream();
    stream.write(Buffer.alloc(10));
    stream.destroy(new Error('the source broke'));
    await expect(file.commit()).rejects.toThrow();
    expect(readFileSync(target, 'utf8')).toBe('old zip');
    expect(readdirSync(dir)).toEqual(['envelope.zip']);
  });

  it('never follows a symlink planted at the temporary name, nor writes into a file planted there', async () => {
    const dir = folder();
    const victim = join(folder(), 'victim.txt');
    writeFileSync(victim, 'precious');
    const predicted = Buffer.from('a1b2c3d4e5f6', 'hex');
    symlinkSync(victim, join(dir, `.out.zip.${predicted.toString('hex')}.tmp`));
    randomBytes.mockImplementationOnce(() => predicted);
    const error = await writeFileAtomic(join(dir, 'out.zip'), 'attacker-chosen place?').catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe('EEXIST');
    expect((error as Error).message).toContain('something was planted at its temporary name');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readdirSync(dir)).toEqual([`.out.zip.${predicted.toString('hex')}.tmp`]);
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

describe('line logs (batch journals)', () => {
  const isLog = (first: unknown) => (first as { journal?: string } | undefined)?.journal === 'test';

  it('drops and repairs only a last line a crash cut short', async () => {
    const path = join(folder(), 'run.journal.jsonl');
    writeFileSync(path, '{"journal":"test"}\n{"ref":"a"}\n{"ref":"b", "st');
    expect(await readLineLog(path, { isLog, repair: true })).toEqual([{ journal: 'test' }, { ref: 'a' }]);
    expect(readFileSync(path, 'utf8')).toBe('{"journal":"test"}\n{"ref":"a"}\n');
  });

  it('refuses a damaged line before the last, with its number, and leaves the journal as it was', async () => {
    const path = join(folder(), 'run.journal.jsonl');
    const text = '{"journal":"test"}\n{"ref":"a"}\n{"ref":"k4-r1", garbage\n{"ref":"b"}\nnull\n';
    writeFileSync(path, text);
    const error = await readLineLog(path, { isLog, repair: true, label: '--journal run.journal.jsonl' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('JOURNAL_INVALID');
    expect((error as UsageError).message).toMatch(/^--journal run\.journal\.jsonl:3: /);
    expect(readFileSync(path, 'utf8')).toBe(text);
    writeFileSync(path, '{"journal":"test"}\nnull\n');
    expect(((await readLineLog(path, { isLog }).catch((caught: unknown) => caught)) as UsageError).message).toContain(':2: ');
  });

  it('refuses a named pipe as a journal to read or to append to, instead of waiting for a writer or reader forever', async () => {
    const pipe = join(folder(), 'journal.fifo');
    execFileSync('mkfifo', [pipe]);
    expect(((await readLineLog(pipe, { isLog }).catch((caught: unknown) => caught)) as UsageError).code).toBe('OUTPUT_UNWRITABLE');
    expect(((await openLineLog(pipe, { fresh: false }).catch((caught: unknown) => caught)) as UsageError).code).toBe('OUTPUT_UNWRITABLE');
    expect(lstatSync(pipe).isFIFO()).toBe(true);
  });
});
