/*
 * Text from a server or a file is shown with its control characters made visible, so it cannot clear the screen,
 * retitle the terminal, reorder a line or start a line of its own. Our own layout (newlines, colours) is added around
 * it afterwards.
 */

/**
 * C0 controls (newline and tab included), DEL, C1 controls, the bidirectional embeddings, overrides and isolates, and
 * the Unicode line and paragraph separators.
 */
const unsafeCharacter = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `\n`, `\r` and `\t` as written in JSON; every other one as `\uXXXX` (ESC is `\u001b`). */
export function visible(text: string): string {
  return text.replace(unsafeCharacter, (character) => named[character] ?? escaped(character));
}

/** What JSON.stringify leaves unescaped and a terminal may still obey: DEL, C1 controls, bidi controls, separators. */
const unsafeInJson = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON text for a terminal: the same value, with every character above escaped as `\uXXXX` (they occur only in strings). */
export function terminalJson(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(unsafeInJson, escaped);
}
