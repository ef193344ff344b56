/**
 * The text of a "contains" filter. Every value contains the empty text, so an empty or blank one (often an unset shell
 * variable) would quietly match everything: it is refused instead.
 */
export function parseSearchText(text: string): string {
  if (!text.trim()) throw new Error('expected the text to look for; an empty one would match everything (leave the option out for that).');
  return text;
}
