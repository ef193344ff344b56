/*
 * Tables and `name: value` lines. Cell values are data (from a server or a file) and are shown with their control
 * characters made visible; colour is layout, added by a column's `colour` after that.
 */
import stringWidth from 'string-width';
import { visible } from './sanitize.js';

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  /** Styles the cell's visible text (a status colour); padding stays outside the style. */
  colour?: (text: string, row: T) => string;
  /** Free text (a title, a name, a message): the column that is cut, with an ellipsis, to fit a narrow terminal. */
  freeText?: boolean;
}

/** A `name: value` line; `colour` styles the value's visible text. */
export type Field = readonly [name: string, value: string, colour?: (text: string) => string];

/** How a table is drawn: a bold header, and the terminal's width when stdout is one (Output.style carries both). */
export interface TableStyle {
  bold(text: string): string;
  readonly terminalWidth?: number;
}

const gap = '  ';
const ellipsis = '…';
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Columns on screen: East Asian wide characters and emoji take two. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** The longest start of `text` that fits `width` columns with an ellipsis after it (whole characters, never half one). */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes.segment(text)) {
    const next = displayWidth(segment);
    if (used + next + displayWidth(ellipsis) > width) break;
    kept += segment;
    used += next;
  }
  return width > 0 ? kept + ellipsis : '';
}

/**
 * Column widths that fit `limit` columns: the widest free-text column gives way first, one column at a time, down to
 * its header's width; if that is not enough, the row is cut at the terminal's edge (the columns past it dropped), so
 * no row ever wraps.
 */
export function fitWidths(widths: readonly number[], columns: readonly Pick<Column<never>, 'header' | 'freeText'>[], limit: number): number[] {
  const fitted = [...widths];
  const total = () => fitted.reduce((sum, width) => sum + width, 0) + gap.length * (fitted.length - 1);
  const floor = columns.map((column) => Math.max(displayWidth(column.header), displayWidth(ellipsis) + 2));
  for (let excess = total() - limit; excess > 0; excess--) {
    let widest = -1;
    for (const [index, column] of columns.entries()) {
      if (column.freeText && fitted[index]! > floor[index]! && (widest < 0 || fitted[index]! > fitted[widest]!)) widest = index;
    }
    if (widest < 0) break;
    fitted[widest]!--;
  }
  let start = 0;
  return fitted.flatMap((width) => {
    const room = limit - start;
    start += width + gap.length;
    return room <= 0 ? [] : [Math.min(width, room)];
  });
}

/**
 * A table printed in batches as pages arrive: the header once, and each column as wide as the widest cell seen so far
 * (a later, wider cell shifts only the rows after it), so no batch has to wait for the rest. On a terminal the rows
 * fit its width; off one (a pipe, a file) nothing is cut, and --json or --quiet are the formats for machines.
 */
export class TableStream<T> {
  private widths: number[];
  private started = false;

  constructor(
    private readonly columns: readonly Column<T>[],
    private readonly style?: TableStyle,
  ) {
    this.widths = columns.map((column) => displayWidth(column.header));
  }

  /** The lines for these rows (and the header before the first batch). */
  rows(batch: readonly T[]): string[] {
    const cells = batch.map((row) => this.columns.map((column) => visible(column.value(row))));
    this.widths = this.widths.map((known, index) => Math.max(known, ...cells.map((line) => displayWidth(line[index]!))));
    const limit = this.style?.terminalWidth;
    const widths = limit ? fitWidths(this.widths, this.columns, limit) : this.widths;
    const render = (line: readonly string[], colour: (text: string, index: number) => string) =>
      widths
        .map((width, index) => {
          const text = truncateToWidth(line[index]!, width);
          const padding = index === widths.length - 1 ? '' : ' '.repeat(width - displayWidth(text));
          return colour(text, index) + padding;
        })
        .join(gap)
        .trimEnd();
    const lines = cells.map((line, rowIndex) =>
      render(line, (text, index) => {
        const colour = this.columns[index]!.colour;
        return colour ? colour(text, batch[rowIndex]!) : text;
      }),
    );
    if (!this.started) {
      this.started = true;
      const header = render(
        this.columns.map((column) => column.header),
        (text) => text,
      );
      lines.unshift(this.style ? this.style.bold(header) : header);
    }
    return lines;
  }
}

/** A plain aligned table: two spaces between columns, no borders, so it pastes cleanly into tickets. */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], style?: TableStyle): string {
  return new TableStream(columns, style).rows(rows).join('\n');
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
