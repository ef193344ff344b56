import { UsageError } from '../core/errors.js';
import { assertExtraHeader } from '../api/request-headers.js';
import { readFileCappedSync } from '../files/capped-read.js';
import { whyUnreadable } from '../files/local-file.js';

export interface Field {
  /** As written: `key`, `key[]` or `key[member]…` (see fieldPath). */
  name: string;
  /** Undefined only for `key[]` without a value: an empty array. */
  value: unknown;
}

function split(text: string, flag: string): [string, string | undefined] {
  const at = text.indexOf('=');
  // `key[]` alone is an empty array, as in gh api.
  if (at < 0 && /^[^=]+\[\]$/.test(text)) return [text, undefined];
  if (at <= 0) throw new UsageError(`${flag} ${JSON.stringify(text)}: expected key=value.`, `For example ${flag} title=Contract, or ${flag} 'events[]=ENVELOPE_COMPLETED' for an array.`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** `-f key=value`: always a string. */
export function rawField(text: string): Field {
  const [name, value] = split(text, '-f');
  return { name, value };
}

/**
 * `-F key=value` as `gh api` reads it: true, false, null and numbers become JSON values, `@file` is the file's text
 * and `@-` standard input's (readFile is given `-` for it), anything else stays a string.
 */
export function typedField(text: string, readFile: (path: string, what: string) => string = (path, what) => readFileCappedSync(path, what).toString('utf8')): Field {
  const [name, value] = split(text, '-F');
  if (value === undefined) return { name, value };
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

/** Whether a -F argument reads standard input (`key=@-`). */
export const readsStdin = (text: string): boolean => text.slice(text.indexOf('=') + 1) === '@-';

/**
 * A field name in gh api's syntax: `key` names one value, `key[]` appends to an array, `key[member]` is a member of an
 * object (members nest: `a[b][c]`, and `a[b][]` appends). Any other use of brackets is refused, so a name is never sent
 * with its brackets by mistake.
 */
export function fieldPath(name: string): { key: string; members: string[]; append: boolean } {
  const parsed = /^([^[\]]+)((?:\[[^[\]]+\])*)(\[\])?$/.exec(name);
  if (!parsed) {
    throw new UsageError(`Field ${JSON.stringify(name)}: brackets go after the name, as key[] (append to an array) or key[member].`, "For example -f 'events[]=ENVELOPE_COMPLETED' -f 'events[]=ENVELOPE_VOIDED'.", 'FIELD_INVALID');
  }
  const members = [...parsed[2]!.matchAll(/\[([^[\]]+)\]/g)].map((match) => match[1]!);
  return { key: parsed[1]!, members, append: parsed[3] !== undefined };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Without a prototype, so that a field named `__proto__` or `constructor` is just a name. */
const emptyRecord = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

/**
 * The JSON body the fields make, in their order: `key[]` appends, `key[member]` builds objects. A value given twice,
 * or a name used both as a value and as an array or object, is refused: one would silently replace the other.
 */
export function fieldsBody(fields: readonly Field[]): Record<string, unknown> {
  const body = emptyRecord();
  for (const { name, value } of fields) {
    const { key, members, append } = fieldPath(name);
    const twice = () => new UsageError(`${name} is given twice, or both as one value and as ${append ? 'an array' : 'an object'} (${key}).`, `Give ${name} once; for an array, give each item as ${key}${members.map((member) => `[${member}]`).join('')}[]=value.`, 'FIELD_GIVEN_TWICE');
    let holder = body;
    for (const step of [key, ...members].slice(0, -1)) {
      holder[step] ??= emptyRecord();
      const next = holder[step];
      if (!isPlainObject(next)) throw twice();
      holder = next;
    }
    const last = [key, ...members].at(-1)!;
    if (append) {
      holder[last] ??= [];
      const list = holder[last];
      if (!Array.isArray(list)) throw twice();
      if (value !== undefined) list.push(value);
    } else {
      if (Object.hasOwn(holder, last)) throw twice();
      holder[last] = value;
    }
  }
  return body;
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
