import { identityOf } from './identity.js';
import type { Output } from './output.js';
import { terminalJson, visible } from './sanitize.js';
import { TableStream, type Column } from './table.js';

export type ListFormat = 'human' | 'json' | 'jsonl' | 'ids';

/**
 * Writes a list: a table, one JSON object per line, or (--quiet) one id per line as the rows arrive, keeping none of
 * them; or one JSON array (--json) once the last row is in. The array is held until then because --json promises one
 * whole document or nothing: a page that fails after others were printed would leave half an array on stdout.
 * --jsonl is the format that streams, each line whole.
 */
export class ListWriter<T> {
  private count = 0;
  private readonly table: TableStream<T>;
  /** The rows of a --json array, as JSON text, until `end`. */
  private readonly jsonRows: string[] = [];

  constructor(
    private readonly output: Output,
    private readonly format: ListFormat,
    columns: readonly Column<T>[],
    private readonly empty: string,
  ) {
    this.table = new TableStream(columns, output.style);
  }

  get written(): number {
    return this.count;
  }

  async add(rows: readonly T[]): Promise<void> {
    for (const row of rows) {
      if (this.format === 'jsonl') await this.output.line(terminalJson(row));
      else if (this.format === 'json') this.jsonRows.push(terminalJson(row));
      else if (this.format === 'ids') for (const id of identityOf(row)) await this.output.line(visible(id));
    }
    if (this.format === 'human' && rows.length > 0) await this.output.line(this.table.rows(rows).join('\n'));
    this.count += rows.length;
  }

  async end(): Promise<void> {
    if (this.format === 'json') {
      for (const [index, row] of this.jsonRows.entries()) await this.output.line(`${index === 0 ? '[\n' : ','}${row}`);
      await this.output.line(this.jsonRows.length === 0 ? '[]' : ']');
    }
    else if (this.format === 'human' && this.count === 0) await this.output.line(this.empty);
  }
}
