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
    this.widths = columns.map((column) => visibleWidth(column.header));
  }

  /** The lines for these rows (and the header before the first batch). */
  rows(batch: readonly T[]): string[] {
    const cells = batch.map((row) => this.columns.map((column) => column.value(row)));
    this.widths = this.widths.map((width, index) => Math.max(width, ...cells.map((line) => visibleWidth(line[index]!))));
    const pad = (text: string, index: number) => (index === this.columns.length - 1 ? text : text + ' '.repeat(this.widths[index]! - visibleWidth(text)));
    const lines = cells.map((line) => line.map(pad).join('  ').trimEnd());
    if (!this.started) {
      this.started = true;
      const header = this.columns.map((column, index) => pad(column.header, index)).join('  ').trimEnd();
      lines.unshift(this.style ? this.style.bold(header) : header);
    }
    return lines;
  }
}
