/*
 * Tables and `name: value` lines. Cell values are data (from a server or a file) and are shown with their control
 * characters made visible; colour is layout, added by a column's `colour` after that.
 */
import type stringWidthOf from 'string-width';
import { visible } from './sanitize.js';

export interface Column<T> {
  header: string;
  value: (row: T) => string;
  /** Styles the cell's visible text (a status colour); padding stays outside the style. */
  colour?: (text: string, row: T) => string;
  /**
   * Free text (a title, a name, a message): the column that gives way to fit a narrow terminal, cut with an ellipsis,
   * or with `wrap` continued on the lines below (a reason or a list of names that must be read whole).
   */
  freeText?: boolean;
  wrap?: boolean;
  /**
   * An id: on a terminal shown by its first 8 characters (more where two rows share them), which esign accepts as
   * input wherever it takes the id; --wide, --json and -q give it whole.
   */
  id?: boolean;
  /** May be left out to fit a narrow terminal, the lowest first: a note on stderr names it and --wide. */
  dropOrder?: number;
}

/** A `name: value` line; `colour` styles the value's visible text. */
export type Field = readonly [name: string, value: string, colour?: (text: string) => string];

/**
 * How a table is drawn: a bold header, and the terminal's width when stdout is one (Output.style carries both), and
 * where to say that columns were left out to fit it.
 */
export interface TableStyle {
  bold(text: string): string;
  readonly terminalWidth?: number;
  readonly columnsLeftOut?: (headers: readonly string[], width: number) => void;
}

const gap = '  ';
const ellipsis = '…';
/** Ids are shown by this many characters at least: the shortest prefix esign accepts as input. */
export const shortIdLength = 8;
/** Free text is cut or wrapped no narrower than this (or its header) while a column can still be left out instead. */
const comfortableText = 20;
/** ...and never narrower than this: past it the rows are shown as records. */
const narrowestText = 10;

/**
 * Text of characters that each take one column and stand alone on screen (none joins or marks its neighbour): printable
 * ASCII, Latin-1 but the soft hyphen, Latin, Greek and Cyrillic letters but combining marks, and the punctuation,
 * currency, arrows, mathematical and box-drawing signs esign and most data use (… × · → ’ ✓ ✗). Its width is its length,
 * and each character is one on screen: neither string-width's Unicode tables and emoji expression (about 25 ms the
 * first time, on the first ellipsis of a cut cell) nor a segmenter (9 ms) is needed for it. table.test.ts checks every
 * character of it against string-width and Intl.Segmenter.
 */
export const ONE_COLUMN_EACH = /^[\x20-\x7e\xa0-\xac\xae-\u02ff\u0370-\u0482\u048a-\u04ff\u2010-\u2027\u2030-\u205e\u20a0-\u20c0\u2190-\u22ff\u2500-\u257f\u2713\u2717]*$/;

let segmenter: Intl.Segmenter | undefined;
/** The characters of `text` as seen on screen; the segmenter is made on first need, by a cut or wrap of other text. */
function graphemes(text: string): Iterable<{ segment: string }> {
  if (ONE_COLUMN_EACH.test(text)) return Array.from(text, (segment) => ({ segment }));
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}

/**
 * string-width, loaded on the first text of other characters (ONE_COLUMN_EACH): its Unicode tables and emoji
 * expressions are a quarter of a command's start-up (about 25 ms of CPU time).
 */
let stringWidth: typeof stringWidthOf | undefined;

/** Columns on screen: East Asian wide characters and emoji take two. */
export function displayWidth(text: string): number {
  if (ONE_COLUMN_EACH.test(text)) return text.length;
  // A synchronous load on first need: esbuild bundles the package and evaluates it only at this call.
  stringWidth ??= (require('string-width') as { default: typeof stringWidthOf }).default;
  return stringWidth(text);
}

/** The longest start of `text` that fits `width` columns with an ellipsis after it (whole characters, never half one). */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes(text)) {
    const next = displayWidth(segment);
    if (used + next + displayWidth(ellipsis) > width) break;
    kept += segment;
    used += next;
  }
  return width > 0 ? kept + ellipsis : '';
}

/** `text` in lines of at most `width` columns, broken at spaces where it can be, inside a word where it must. */
export function wrapToWidth(text: string, width: number): string[] {
  if (displayWidth(text) <= width || width <= 0) return [text];
  const lines: string[] = [];
  let line = '';
  const push = () => {
    lines.push(line.trimEnd());
    line = '';
  };
  for (const word of text.split(/(?<= )/)) {
    if (line && displayWidth(line + word.trimEnd()) > width) push();
    for (const { segment } of graphemes(line ? word : word.trimStart())) {
      if (displayWidth(line + segment) > width && segment !== ' ') push();
      if (line || segment !== ' ') line += segment;
    }
  }
  if (line.trim()) push();
  return lines;
}

/**
 * Each id cut to its first 8 characters, or as many more as it takes to tell it from the other ids shown beside it
 * (a prefix shared by two rows would name neither).
 */
export function shortIds(ids: readonly string[]): string[] {
  return ids.map((id) => {
    let length = shortIdLength;
    while (length < id.length && ids.some((other) => other !== id && other.startsWith(id.slice(0, length)))) length++;
    return id.slice(0, length);
  });
}

export interface TableOptions {
  /**
   * The rows of one thing (an envelope's participants, its documents): shown as records rather than with a column left
   * out or text cut, since the person asked about exactly these rows.
   */
  whole?: boolean;
}

/** What fits a terminal: the columns kept (by index) and their widths, or records when no table fits. */
export type Layout = { kind: 'table'; kept: number[]; widths: number[] } | { kind: 'records' };

/**
 * The layout for `limit` columns: free text gives way first down to a comfortable width, then the columns that may go
 * are left out (the lowest `dropOrder` first), then free text gives way down to its narrowest; if the rest still does
 * not fit, each row is shown as a record (one `Name: value` line per column), so that no value is ever cut off.
 */
export function fitLayout(
  widths: readonly number[],
  columns: readonly Pick<Column<never>, 'header' | 'freeText' | 'dropOrder'>[],
  limit: number,
  options: TableOptions = {},
): Layout {
  const natural = widths.reduce((sum, width) => sum + width, 0) + gap.length * (widths.length - 1);
  if (options.whole && natural > limit) return { kind: 'records' };
  const floor = (index: number, least: number) => {
    const column = columns[index]!;
    return column.freeText ? Math.min(widths[index]!, Math.max(displayWidth(column.header), least)) : widths[index]!;
  };
  const needed = (kept: readonly number[], least: number) => kept.reduce((sum, index) => sum + floor(index, least), 0) + gap.length * (kept.length - 1);
  let kept = columns.map((_, index) => index);
  const droppable = kept.filter((index) => columns[index]!.dropOrder !== undefined).sort((a, b) => columns[a]!.dropOrder! - columns[b]!.dropOrder!);
  while (needed(kept, comfortableText) > limit && droppable.length) {
    const left = droppable.shift()!;
    kept = kept.filter((index) => index !== left);
  }
  if (needed(kept, narrowestText) > limit) return { kind: 'records' };
  // The check above guarantees enough free text to give way: each step below finds a column to narrow.
  const fitted = kept.map((index) => widths[index]!);
  const total = () => fitted.reduce((sum, width) => sum + width, 0) + gap.length * (fitted.length - 1);
  for (let excess = total() - limit; excess > 0; excess--) {
    let widest = -1;
    for (const [position, index] of kept.entries()) {
      if (columns[index]!.freeText && fitted[position]! > floor(index, narrowestText) && (widest < 0 || fitted[position]! > fitted[widest]!)) widest = position;
    }
    fitted[widest]!--;
  }
  return { kind: 'table', kept, widths: fitted };
}

/**
 * A table printed in batches as pages arrive: the header once, and each column as wide as the widest cell seen so far
 * (a later, wider cell shifts only the rows after it), so no batch has to wait for the rest. On a terminal the rows
 * fit its width (see fitLayout); off one (a pipe, a file, --wide) nothing is cut, and --json or --quiet are the
 * formats for machines.
 */
export class TableStream<T> {
  private widths: number[];
  private started = false;
  private leftOut = new Set<number>();

  constructor(
    private readonly columns: readonly Column<T>[],
    private readonly style?: TableStyle,
    private readonly options: TableOptions = {},
  ) {
    this.widths = columns.map((column) => displayWidth(column.header));
  }

  /** The lines for these rows (and the header before the first batch). */
  rows(batch: readonly T[]): string[] {
    const limit = this.style?.terminalWidth;
    const cells = batch.map((row) => this.columns.map((column) => visible(column.value(row))));
    if (limit) {
      for (const [index, column] of this.columns.entries()) {
        if (!column.id) continue;
        const short = shortIds(cells.map((line) => line[index]!));
        for (const [rowIndex, line] of cells.entries()) line[index] = short[rowIndex]!;
      }
    }
    this.widths = this.widths.map((known, index) => Math.max(known, ...cells.map((line) => displayWidth(line[index]!))));
    const layout: Layout = limit ? fitLayout(this.widths, this.columns, limit, this.options) : { kind: 'table', kept: this.columns.map((_, index) => index), widths: this.widths };
    const colour = (text: string, index: number, rowIndex: number) => {
      const style = this.columns[index]!.colour;
      return style ? style(text, batch[rowIndex]!) : text;
    };
    if (layout.kind === 'records') return this.records(cells, limit!, colour);
    this.noteLeftOut(layout.kept, limit);
    const { kept, widths } = layout;
    const render = (line: readonly string[], paint: (text: string, index: number) => string) => {
      const parts = kept.map((index, position) => {
        const column = this.columns[index]!;
        const text = line[index]!;
        return column.freeText && column.wrap ? wrapToWidth(text, widths[position]!) : [column.freeText ? truncateToWidth(text, widths[position]!) : text];
      });
      const height = Math.max(...parts.map((part) => part.length));
      return Array.from({ length: height }, (_, row) =>
        kept
          .map((index, position) => {
            const text = parts[position]![row] ?? '';
            const padding = position === kept.length - 1 ? '' : ' '.repeat(Math.max(0, widths[position]! - displayWidth(text)));
            return (text ? paint(text, index) : '') + padding;
          })
          .join(gap)
          .trimEnd(),
      );
    };
    const lines = cells.flatMap((line, rowIndex) => render(line, (text, index) => colour(text, index, rowIndex)));
    if (!this.started) {
      this.started = true;
      const header = render(
        this.columns.map((column) => column.header),
        (text) => text,
      ).join('\n');
      lines.unshift(this.style ? this.style.bold(header) : header);
    }
    return lines;
  }

  /** Each row as `Name: value` lines, a blank line between rows: for a terminal no table of these columns fits. */
  private records(cells: readonly string[][], limit: number, colour: (text: string, index: number, rowIndex: number) => string): string[] {
    const labels = this.columns.map((column) => (column.header ? `${recordLabel(column.header)}:` : ''));
    const labelWidth = Math.max(...labels.map(displayWidth)) + 1;
    const lines = cells.flatMap((line, rowIndex) => {
      const record = line.flatMap((text, index) => {
        if (!text) return [];
        const wrapped = wrapToWidth(text, Math.max(narrowestText, limit - labelWidth));
        return wrapped.map((part, row) => `${(row === 0 ? labels[index]! : '').padEnd(labelWidth)}${colour(part, index, rowIndex)}`.trimEnd());
      });
      return [...(this.started || rowIndex > 0 ? [''] : []), ...record];
    });
    this.started = true;
    return lines;
  }

  /** Says once which columns were left out to fit, and how to see them. */
  private noteLeftOut(kept: readonly number[], limit: number | undefined): void {
    const newly = this.columns.flatMap((_, index) => (kept.includes(index) || this.leftOut.has(index) ? [] : [index]));
    if (!newly.length || !limit) return;
    for (const index of newly) this.leftOut.add(index);
    this.style?.columnsLeftOut?.(
      newly.map((index) => this.columns[index]!.header),
      limit,
    );
  }
}

/** `LAST ANSWER` is `Last answer` in a record, `AT (UTC)` is `At (UTC)`; `ID` and `#` stay as they are. */
function recordLabel(header: string): string {
  const [words, rest] = header.split(/(?= \()/);
  if (words === 'ID' || words === '#') return header;
  return `${words!.charAt(0)}${words!.slice(1).toLowerCase()}${rest ?? ''}`;
}

/** A plain aligned table: two spaces between columns, no borders, so it pastes cleanly into tickets. */
export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], style?: TableStyle, options: TableOptions = {}): string {
  return new TableStream(columns, style, options).rows(rows).join('\n');
}

/** `name: value` lines with the names aligned; with `width` (a terminal's), a long value continues under itself. */
export function renderFields(fields: readonly Field[], width?: number): string {
  const nameWidth = Math.max(...fields.map(([name]) => name.length)) + 2;
  return fields
    .flatMap(([name, value, colour]) => {
      const parts = width ? wrapToWidth(visible(value), Math.max(narrowestText, width - nameWidth)) : [visible(value)];
      return parts.map((text, index) => `${(index === 0 ? `${name}:` : '').padEnd(nameWidth)}${colour ? colour(text) : text}`);
    })
    .join('\n');
}
