import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { readFileCapped, readFileCappedSync, readStreamCapped } from './capped-read.js';

const refusal = (error: unknown) => ({ code: (error as UsageError).code, message: (error as UsageError).message });

describe('capped input reads', () => {
  it('refuse a device or a named pipe before opening it, and an endless stream once past the limit', async () => {
    const expected = { code: 'INPUT_UNREADABLE', message: '-F title=@/dev/zero is a device, not a regular file: esign reads input only from files.' };
    expect(refusal(await readFileCapped('/dev/zero', '-F title=@/dev/zero', 2 * 1024 * 1024).catch((error: unknown) => error))).toEqual(expected);
    let thrown: unknown;
    try {
      readFileCappedSync('/dev/zero', '-F title=@/dev/zero', 2 * 1024 * 1024);
    } catch (error) {
      thrown = error;
    }
    expect(refusal(thrown)).toEqual(expected);
    const endless = new Readable({ read() { this.push(Buffer.alloc(64 * 1024)); } });
    expect(refusal(await readStreamCapped(endless, 'The batch on standard input', 1024 * 1024).catch((error: unknown) => error)).code).toBe('INPUT_TOO_LARGE');
  });

  it('read an input within the limit whole, up to the last byte', async () => {
    expect((await readStreamCapped(Readable.from([Buffer.from('ab'), Buffer.from('c')]), 'x', 3)).toString()).toBe('abc');
    expect((await readFileCapped('/dev/null', 'x')).length).toBe(0);
  });
});
