/**
 * Where a value is, as messages name it: `file:line:column`, or how to find that out when a message needs it (finding
 * it composes the file's positions, which the happy path never needs).
 */
export type Where = string | (() => string);

export function whereText(where: Where): string {
  return typeof where === 'string' ? where : where();
}

/** A file as messages name it: its path, after the place in another file that names it (`spec.yaml:3:9: a.pdf`). */
export function fileNamed(path: string, where: Where = path): string {
  const place = whereText(where);
  return place === path ? path : `${place}: ${path}`;
}
