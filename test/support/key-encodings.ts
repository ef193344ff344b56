/**
 * The spellings a hostile server can give a key to slip it past a redactor (issue #21, item 6), each with the way a
 * reader gets the key back from text: the redactor's tests check that no eight characters of the secret part come
 * back from what esign printed or wrote.
 */

export interface KeyEncoding {
  name: string;
  /** The key as the server spells it inside a JSON string value. */
  encode(key: string): string;
  /** What a reader of `text` sees once this spelling is undone (several readings joined by a newline). */
  recover(text: string): string;
  /** `encode` gives JSON text to put in place of a string value (with its quotes), not a string value. */
  rawJson?: boolean;
}

const eachCharacter = (key: string, spell: (character: string) => string) => [...key].map(spell).join('');
const code = (character: string) => character.charCodeAt(0);
const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');
const replaceCodes = (pattern: RegExp, radix: number) => (text: string) => text.replace(pattern, (_, digits: string) => String.fromCodePoint(parseInt(digits, radix)));

export function rot13(text: string): string {
  return text.replace(/[a-z]/gi, (letter) => {
    const base = letter <= 'Z' ? 65 : 97;
    return String.fromCharCode(((letter.charCodeAt(0) - base + 13) % 26) + base);
  });
}

const reverse = (text: string) => [...text].reverse().join('');

/** Every run of hex digits decoded from both alignments. */
function fromHex(text: string): string {
  const runs = text.match(/[0-9a-f]{2,}/gi) ?? [];
  return runs.flatMap((run) => [0, 1].map((offset) => Buffer.from(run.slice(offset, offset + Math.floor((run.length - offset) / 2) * 2), 'hex').toString('latin1'))).join('\n');
}

/** Every run of base64 (or base64url) characters decoded from each of the four character offsets. */
function fromBase64(text: string): string {
  const runs = text.match(/[A-Za-z0-9+/_-]{4,}/g) ?? [];
  return runs.flatMap((run) => [0, 1, 2, 3].map((offset) => Buffer.from(run.slice(offset).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'))).join('\n');
}

const base64At = (prefix: string, url = false) => (key: string) => Buffer.from(prefix + key).toString(url ? 'base64url' : 'base64');

/** Every string value in every JSON document of a text (the whole text, or one a line), in order, joined. */
function jsonStrings(text: string): string {
  const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : typeof value === 'object' && value !== null ? Object.values(value).flatMap(strings) : []);
  const documents = [text, ...text.split('\n'), ...text.split('\n').map((line) => line.replace(/^\[debug\] < /, ''))].flatMap((candidate) => {
    try {
      return [JSON.parse(candidate) as unknown];
    } catch {
      return [];
    }
  });
  return documents.map((document) => strings(document).join('')).join('\n');
}

export const keyEncodings: readonly KeyEncoding[] = [
  { name: 'upper case', encode: (key) => key.toUpperCase(), recover: (text) => text },
  { name: 'hex', encode: (key) => Buffer.from(key).toString('hex'), recover: fromHex },
  { name: 'HEX', encode: (key) => Buffer.from(key).toString('hex').toUpperCase(), recover: fromHex },
  { name: 'percent-encoding', encode: (key) => eachCharacter(key, (character) => `%${hex(code(character), 2)}`), recover: replaceCodes(/%([0-9a-f]{2})/gi, 16) },
  { name: 'decimal HTML entities', encode: (key) => eachCharacter(key, (character) => `&#${code(character)};`), recover: replaceCodes(/&#(\d+);/g, 10) },
  { name: 'hex HTML entities', encode: (key) => eachCharacter(key, (character) => `&#x${hex(code(character), 2)};`), recover: replaceCodes(/&#x([0-9a-f]+);/gi, 16) },
  { name: 'HTML tags', encode: (key) => eachCharacter(key, (character) => `<b>${character}</b>`), recover: (text) => text.replace(/<[^<>]*>/g, '') },
  { name: 'a dash between characters', encode: (key) => [...key].join('-'), recover: (text) => text.replace(/-/g, '') },
  { name: 'a dot every 4', encode: (key) => (key.match(/.{1,4}/g) ?? []).join('.'), recover: (text) => text.replace(/\./g, '') },
  { name: 'a space every 4', encode: (key) => (key.match(/.{1,4}/g) ?? []).join(' '), recover: (text) => text.replace(/ /g, '') },
  { name: 'reversed', encode: reverse, recover: reverse },
  { name: 'fullwidth', encode: (key) => eachCharacter(key, (character) => (/[!-~]/.test(character) ? String.fromCharCode(code(character) + 0xfee0) : character)), recover: (text) => text.normalize('NFKC') },
  { name: 'rot13', encode: rot13, recover: rot13 },
  { name: '\\x escapes', encode: (key) => eachCharacter(key, (character) => `\\x${hex(code(character), 2)}`), recover: replaceCodes(/\\+x([0-9a-f]{2})/gi, 16) },
  { name: '\\u escapes in a string', encode: (key) => eachCharacter(key, (character) => `\\u${hex(code(character), 4)}`), recover: replaceCodes(/\\+u([0-9a-f]{4})/gi, 16) },
  {
    name: '\\u escapes in the JSON text',
    encode: (key) => `"${eachCharacter(key, (character) => `\\u${hex(code(character), 4)}`)}"`,
    recover: replaceCodes(/\\u([0-9a-f]{4})/gi, 16),
    rawJson: true,
  },
  { name: 'base64', encode: base64At(''), recover: fromBase64 },
  { name: 'base64 at offset 1', encode: base64At('x'), recover: fromBase64 },
  { name: 'base64 at offset 2', encode: base64At('xy'), recover: fromBase64 },
  { name: 'base64url at offset 1', encode: base64At('Bearer ', true), recover: fromBase64 },
  {
    name: '7-character pieces across JSON fields',
    encode: (key) => JSON.stringify(Object.fromEntries((key.match(/.{1,7}/g) ?? []).map((piece, index) => [`p${index}`, piece]))),
    recover: jsonStrings,
    rawJson: true,
  },
];

/** The eight-character windows of a key's secret part that a text gives back under an encoding, in any case. */
export function recoveredWindows(text: string, key: string, encoding: KeyEncoding): string[] {
  const secret = key.replace(/^[a-z0-9]+_(test|live)_/, '').toLowerCase();
  const recovered = encoding.recover(text).toLowerCase();
  const windows: string[] = [];
  for (let at = 0; at + 8 <= secret.length; at++) if (recovered.includes(secret.slice(at, at + 8))) windows.push(secret.slice(at, at + 8));
  return windows;
}
