/**
 * Input text files (specs, rows), read as the UTF-8 they must be. A byte that is not UTF-8 would otherwise become
 * U+FFFD and be sent as data ("M��ller"), and a UTF-16 file would be read as something else entirely: both are
 * refused, naming the file, line and column. A UTF-8 byte order mark is dropped, so columns on line 1 stay right.
 */
import { isUtf8 } from 'node:buffer';
import { UsageError } from '../core/errors.js';
import { readStdinBytes } from './stdin.js';
import { readFileCapped } from '../files/capped-read.js';
import { unreadableFileMessage } from '../files/local-file.js';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Byte order marks of encodings that are not UTF-8, longest first (UTF-32 LE starts like UTF-16 LE). */
const otherEncodings: [name: string, bom: number[]][] = [
  ['UTF-32 (little-endian)', [0xff, 0xfe, 0x00, 0x00]],
  ['UTF-32 (big-endian)', [0x00, 0x00, 0xfe, 0xff]],
  ['UTF-16 (little-endian)', [0xff, 0xfe]],
  ['UTF-16 (big-endian)', [0xfe, 0xff]],
];

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/** Length of the UTF-8 sequence at `index`, or 0 if it is not one (overlong forms, surrogates and > U+10FFFF included). */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const first = bytes[index]!;
  if (first < 0x80) return 1;
  const cont = (offset: number, low = 0x80, high = 0xbf) => {
    const byte = bytes[index + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (first >= 0xc2 && first <= 0xdf) return cont(1) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    const [low, high] = first === 0xe0 ? [0xa0, 0xbf] : first === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, low, high) && cont(2) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    const [low, high] = first === 0xf0 ? [0x90, 0xbf] : first === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, low, high) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** Offset of the first byte that is not part of valid UTF-8, or of a NUL byte; undefined if there is none. */
function firstInvalidByte(bytes: Uint8Array): number | undefined {
  for (let index = 0; index < bytes.length; ) {
    const length = bytes[index] === 0 ? 0 : sequenceLength(bytes, index);
    if (length === 0) return index;
    index += length;
  }
  return undefined;
}

/** `line:column` of a byte offset, the column counted as the parsers count it (UTF-16 units of the decoded line). */
function linePosition(bytes: Buffer, offset: number): string {
  const lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
  let line = 1;
  for (let index = 0; index < lineStart; index++) if (bytes[index] === 0x0a) line++;
  return `${line}:${bytes.subarray(lineStart, offset).toString('utf8').length + 1}`;
}

/** The text of an input file, refused (exit 2) unless it is UTF-8; `name` is the file as messages show it. */
export function decodeUtf8(bytes: Buffer, name: string): string {
  const other = otherEncodings.find(([, bom]) => startsWith(bytes, bom));
  if (other) {
    throw new UsageError(
      `${name}:1:1: the text is ${other[0]}: it starts with that encoding's byte order mark; esign reads UTF-8 only.`,
      `Save it as UTF-8 (your editor's "save with encoding", or iconv -f ${other[0].split(' ')[0]} -t UTF-8).`,
      'INPUT_ENCODING');
  }
  const start = startsWith(bytes, UTF8_BOM) ? UTF8_BOM.length : 0;
  const body = bytes.subarray(start);
  // The byte-by-byte walk only finds where a file that is not UTF-8 goes wrong.
  if (isUtf8(body) && !body.includes(0)) return body.toString('utf8');
  const invalid = firstInvalidByte(body)!;
  const byte = body[invalid]!;
  const at = `${name}:${linePosition(body, invalid)}`;
  if (byte === 0) {
    throw new UsageError(`${at}: a NUL byte: this is not a text file, or it is UTF-16 without a byte order mark; esign reads UTF-8 only.`, 'Give the YAML, JSON or CSV text itself, saved as UTF-8.', 'INPUT_ENCODING');
  }
  const latin1 = byte >= 0xa0 ? ` (in Latin-1 it would be ${JSON.stringify(String.fromCharCode(byte))})` : '';
  throw new UsageError(
    `${at}: byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} is not UTF-8${latin1}; esign reads UTF-8 only and sends nothing it cannot read exactly.`,
    'Save the file as UTF-8, e.g. iconv -f LATIN1 -t UTF-8 (with the encoding it was written in).',
    'INPUT_ENCODING',
  );
}

/**
 * An input file's text (`-`: standard input), strictly UTF-8. A folder is said to be one; a FIFO is read (process
 * substitution, `<(...)`, gives one), as standard input is.
 */
export async function readInputText(path: string, stdin: NodeJS.ReadableStream, what: string, hint = 'Check the path; use - to read from standard input.'): Promise<string> {
  const name = path === '-' ? '<stdin>' : path;
  let bytes: Buffer;
  if (path === '-') {
    bytes = await readStdinBytes(stdin, what);
  } else {
    try {
      bytes = await readFileCapped(path, path);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`${unreadableFileMessage(path, error)}.`, hint, 'INPUT_UNREADABLE');
    }
  }
  return decodeUtf8(bytes, name);
}
