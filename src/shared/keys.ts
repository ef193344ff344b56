/** sandbox uses `_test_` keys, production `_live_` keys (contract, "Two environments"). */
export type Mode = 'sandbox' | 'production';

export interface ParsedKey {
  prefix: string;
  mode: Mode;
}

/** The one definition of a key's shape (pins: `<prefix>_(test|live)_<secret>`); both patterns below derive from it. */
const keyShape = '([a-z0-9]{2,8})_(test|live)_([A-Za-z0-9]{16,})';

/** A whole string that is a key. */
export const keyPattern = new RegExp(`^${keyShape}$`);

/** Key-shaped text anywhere inside a longer text (a file, a message): global, so use it with matchAll or replace. */
export const keyShapedText = new RegExp(keyShape, 'g');

/** Whether a text holds key-shaped text anywhere: refused where a key does not belong. */
export function containsKeyShapedText(text: string): boolean {
  return new RegExp(keyShape).test(text);
}

/**
 * Where a parsed document (JSON, YAML) holds key-shaped text, in a value or a mapping's key: the path of each, never
 * the text itself.
 */
export function keyShapedPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return containsKeyShapedText(value) ? [path] : [];
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => keyShapedPaths(item, [...path, index]));
  return Object.entries(value).flatMap(([name, child]) => (containsKeyShapedText(name) ? [[...path, name]] : keyShapedPaths(child, [...path, name])));
}

export function parseKey(key: string): ParsedKey | undefined {
  const match = keyPattern.exec(key);
  if (!match) return undefined;
  return { prefix: match[1]!, mode: match[2] === 'live' ? 'production' : 'sandbox' };
}

/** 1-based line numbers of the key-shaped text in a text, without the text itself. */
export function keyShapedLines(text: string): number[] {
  const lines = new Set<number>();
  for (const match of text.matchAll(keyShapedText)) lines.add(text.slice(0, match.index).split('\n').length);
  return [...lines];
}
