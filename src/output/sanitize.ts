/*
 * Text from a server or a file is shown with its control characters made visible, so it cannot clear the screen,
 * retitle the terminal, reorder a line or start a line of its own. Our own layout (newlines, colours) is added around
 * it afterwards.
 */

/**
 * C0 controls (newline and tab included), DEL, C1 controls, the Unicode line and paragraph separators, and every
 * format character (category Cf): the bidirectional marks, embeddings, overrides and isolates, and the invisible ones
 * (zero-width space and joiners U+200B-U+200D, word joiner U+2060, BOM U+FEFF, soft hyphen, tags…), which would
 * hide what a text holds: a key with U+200B between its characters shows whole on a terminal and masks nothing.
 */
const unsafeCharacter = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `\\uXXXX` for each UTF-16 unit: what JSON writes, so a character beyond U+FFFF is a surrogate pair. */
function escaped(character: string): string {
  return character
    .split('')
    .map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .join('');
}

/** `\n`, `\r` and `\t` as written in JSON; every other one as `\uXXXX` (ESC is `\u001b`). */
export function visible(text: string): string {
  return text.replace(unsafeCharacter, (character) => named[character] ?? escaped(character));
}

/** What JSON.stringify leaves unescaped and a terminal may still obey or hide: DEL, C1, separators, format characters. */
const unsafeInJson = /[\u007f-\u009f\u2028\u2029\p{Cf}]/gu;

/** JSON text for a terminal: the same value, with every character above escaped as `\uXXXX` (they occur only in strings). */
export function terminalJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(unsafeInJson, escaped);
}
