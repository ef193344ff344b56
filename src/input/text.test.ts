import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { decodeUtf8, readInputText } from './text.js';

function refusal(bytes: Buffer): UsageError {
  try {
    decodeUtf8(bytes, 'in.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(2);
    return error as UsageError;
  }
  throw new Error('decoded');
}

describe('decodeUtf8', () => {
  it('reads UTF-8, multi-byte characters and a 4-byte emoji included', () => {
    expect(decodeUtf8(Buffer.from('name: Müller 日本 🎉\n'), 'in.yaml')).toBe('name: Müller 日本 🎉\n');
  });

  it('drops a UTF-8 byte order mark, so that columns on line 1 count from the text', () => {
    expect(decodeUtf8(Buffer.from('\uFEFFversion: 1\n'), 'in.yaml')).toBe('version: 1\n');
  });

  it('refuses a Latin-1 byte with its line and column (counted in characters) and what it would be in Latin-1', () => {
    const error = refusal(Buffer.concat([Buffer.from('a: 1\nname: Ü'), Buffer.from([0xfc]), Buffer.from('ller\n')]));
    expect(error.message).toBe('in.yaml:2:8: byte 0xFC is not UTF-8 (in Latin-1 it would be "ü"); esign reads UTF-8 only and sends nothing it cannot read exactly.');
    expect(error.code).toBe('INPUT_ENCODING');
  });

  it.each([
    ['a lone continuation byte', [0x80]],
    ['an overlong "/"', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a sequence cut short at the end', [0xe2, 0x82]],
    ['0xFF', [0xff]],
  ])('refuses %s', (_name, bytes) => {
    expect(refusal(Buffer.concat([Buffer.from('t: x'), Buffer.from(bytes)])).message).toMatch(/^in\.yaml:1:5: byte 0x[0-9A-F]{2} is not UTF-8/);
  });

  it.each([
    ['UTF-16 (little-endian)', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a: 1\n', 'utf16le')])],
    ['UTF-16 (big-endian)', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('a: 1\n', 'utf16le').swap16()])],
    ['UTF-32 (little-endian)', Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x61, 0, 0, 0])],
  ])('names %s when its byte order mark is there', (encoding, bytes) => {
    expect(refusal(bytes).message).toBe(`in.yaml:1:1: the text is ${encoding}: it starts with that encoding's byte order mark; esign reads UTF-8 only.`);
  });

  it('refuses UTF-16 without a byte order mark (NUL bytes) instead of reading it as something else', () => {
    expect(refusal(Buffer.from('a: 1\n', 'utf16le')).message).toMatch(/^in\.yaml:1:2: a NUL byte: .*UTF-16 without a byte order mark/);
  });
});

describe('readInputText', () => {
  const dir = mkdtempSync(join(tmpdir(), 'esign-text-'));

  it('says a folder is a folder', async () => {
    mkdirSync(join(dir, 'spec.yaml'));
    await expect(readInputText(join(dir, 'spec.yaml'), Readable.from([]), 'The input')).rejects.toThrow(/spec\.yaml: a folder, not a file\.$/);
  });

  it('decodes standard input strictly too', async () => {
    await expect(readInputText('-', Readable.from([Buffer.from([0x61, 0xff])]), 'The input')).rejects.toThrow(/^<stdin>:1:2: byte 0xFF is not UTF-8/);
  });

  it('reads a file', async () => {
    writeFileSync(join(dir, 'ok.yaml'), '\uFEFFa: 1\n');
    expect(await readInputText(join(dir, 'ok.yaml'), Readable.from([]), 'The input')).toBe('a: 1\n');
  });
});
