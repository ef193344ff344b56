export interface Column<T> {
  header: string;
  value: (row: T) => string;
}

const ansiPattern = /\u001b\[[0-9;]*m/g;

function visibleWidth(text: string): number {
  return [...text.replace(ansiPattern, '')].length;
}

/** A plain aligned table: two spaces between columns, no borders, so it pastes cleanly into tickets. */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], style?: { bold(t: string): string }): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, index) => Math.max(visibleWidth(column.header), ...cells.map((line) => visibleWidth(line[index]!))));
  const pad = (text: string, index: number) => (index === columns.length - 1 ? text : text + ' '.repeat(widths[index]! - visibleWidth(text)));
  const header = columns.map((column, index) => pad(column.header, index)).join('  ');
  const lines = [style ? style.bold(header) : header, ...cells.map((line) => line.map(pad).join('  '))];
  return lines.map((line) => line.trimEnd()).join('\n');
}

/** `name: value` lines with the names aligned. */
export function renderFields(pairs: readonly [string, string][]): string {
  const width = Math.max(...pairs.map(([name]) => name.length));
  return pairs.map(([name, value]) => `${`${name}:`.padEnd(width + 2)}${value}`).join('\n');
}
