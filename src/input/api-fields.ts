import { UsageError } from '../api/errors.js';
import { assertExtraHeader } from '../api/request-headers.js';
import { readFileCappedSync } from './capped-read.js';
import { whyUnreadable } from './local-file.js';

export interface Field {
  name: string;
  value: unknown;
}

function split(text: string, flag: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} ${JSON.stringify(text)}: expected key=value.`, `For example ${flag} title=Contract.`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** `-f key=value`: always a string. */
export function rawField(text: string): Field {
  const [name, value] = split(text, '-f');
  return { name, value };
}

/**
 * `-F key=value` as `gh api` reads it: true, false, null and numbers become JSON values, `@file` is the file's text
 * (`@-` is not offered: standard input is `--input`), anything else stays a string.
 */
export function typedField(text: string, readFile: (path: string, what: string) => string = (path, what) => readFileCappedSync(path, what).toString('utf8')): Field {
  const [name, value] = split(text, '-F');
  if (value === 'true') return { name, value: true };
  if (value === 'false') return { name, value: false };
  if (value === 'null') return { name, value: null };
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) return { name, value: Number(value) };
  if (value.startsWith('@')) {
    const path = value.slice(1);
    try {
      return { name, value: readFile(path, `-F ${name}=@${path}`) };
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`-F ${name}=@${path}: ${path}: ${whyUnreadable(error)}.`);
    }
  }
  return { name, value };
}

/**
 * `-H 'Name: value'`. Only spaces and tabs around the name and value are dropped (a header's optional whitespace), so
 * a line break or control character is refused with the header, not quietly cut off.
 */
export function parseHeader(text: string): [string, string] {
  const at = text.indexOf(':');
  const name = at > 0 ? text.slice(0, at).replace(/^[ \t]+|[ \t]+$/g, '') : '';
  if (!name) throw new UsageError(`-H ${JSON.stringify(text)}: expected "Name: value".`, "Give the header's name, a colon, then its value, e.g. -H 'X-Trace: abc'.", 'HEADER_INVALID');
  const value = text.slice(at + 1).replace(/^[ \t]+|[ \t]+$/g, '');
  assertExtraHeader(name, value);
  return [name, value];
}
