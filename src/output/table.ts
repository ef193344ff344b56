/*
 * Tables and `name: value` lines. Cell values are data (from a server or a file) and are shown with their control
 * characters made visible; colour is layout, added by a column's `colour` after that.
 */
import { visible } from './sanitize.js';

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  /** Styles the cell's visible text (a status colour); padding stays outside the style. */
  colour?: (text: string, row: T) => string;
}

/** A `name: value` line; `colour` styles the value's visible text. */
export type Field = readonly [name: string, value: string, colour?: (text: string) => string];

function width(text: string): number {
  return [...text].length;
}

/** A plain aligned table: two spaces between columns, no borders, so it pastes cleanly into tickets. */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], style?: { bold(t: string): string }): string {
  const cells = rows.map((row) => columns.map((column) => visible(column.value(row))));
  const widths = columns.map((column, index) => Math.max(width(column.header), ...cells.map((line) => width(line[index]!))));
  const pad = (text: string, index: number) => (index === columns.length - 1 ? '' : ' '.repeat(widths[index]! - width(text)));
  const header = columns.map((column, index) => column.header + pad(column.header, index)).join('  ');
  const lines = cells.map((line, rowIndex) =>
    line
      .map((text, index) => {
        const colour = columns[index]!.colour;
        return (colour ? colour(text, rows[rowIndex]!) : text) + pad(text, index);
      })
      .join('  '),
  );
  return [style ? style.bold(header) : header, ...lines].map((line) => line.trimEnd()).join('\n');
}

/** `name: value` lines with the names aligned. */
export function renderFields(fields: readonly Field[]): string {
  const nameWidth = Math.max(...fields.map(([name]) => name.length));
  return fields
    .map(([name, value, colour]) => {
      const text = visible(value);
      return `${`${name}:`.padEnd(nameWidth + 2)}${colour ? colour(text) : text}`;
    })
    .join('\n');
}
