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

/**
 * A table printed in batches as pages arrive: the header once, and each column as wide as the widest cell seen so far
 * (a later, wider cell shifts only the rows after it), so no batch has to wait for the rest.
 */
export class TableStream<T> {
  private widths: number[];
  private started = false;

  constructor(
    private readonly columns: readonly Column<T>[],
    private readonly style?: { bold(t: string): string },
  ) {
    this.widths = columns.map((column) => width(column.header));
  }

  /** The lines for these rows (and the header before the first batch). */
  rows(batch: readonly T[]): string[] {
    const cells = batch.map((row) => this.columns.map((column) => visible(column.value(row))));
    this.widths = this.widths.map((known, index) => Math.max(known, ...cells.map((line) => width(line[index]!))));
    const pad = (text: string, index: number) => (index === this.columns.length - 1 ? text : text + ' '.repeat(this.widths[index]! - width(text)));
    const lines = cells.map((line, rowIndex) =>
      line
        .map((text, index) => {
          const colour = this.columns[index]!.colour;
          return colour ? colour(text, batch[rowIndex]!) + pad(text, index).slice(text.length) : pad(text, index);
        })
        .join('  ')
        .trimEnd(),
    );
    if (!this.started) {
      this.started = true;
      const header = this.columns.map((column, index) => pad(column.header, index)).join('  ').trimEnd();
      lines.unshift(this.style ? this.style.bold(header) : header);
    }
    return lines;
  }
}
