import { identityOf } from './identity.js';
import type { Output } from './output.js';
import { terminalJson, visible } from './sanitize.js';
import { TableStream, type Column } from './table.js';

export type ListFormat = 'human' | 'json' | 'jsonl' | 'ids';

/**
 * Writes a list as its rows arrive, keeping none of them: a table, one JSON array (opened before the first row and
 * closed after the last, so a reader parses the whole and memory stays flat), one JSON object per line, or (--quiet)
 * one id per line.
 */
export class ListWriter<T> {
  private count = 0;
  private readonly table: TableStream<T>;

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
    for (const [index, row] of rows.entries()) {
      const first = this.count === 0 && index === 0;
      if (this.format === 'jsonl') await this.output.line(terminalJson(row));
      else if (this.format === 'json') await this.output.line(`${first ? '[\n' : ','}${terminalJson(row)}`);
      else if (this.format === 'ids') for (const id of identityOf(row)) await this.output.line(visible(id));
    }
    if (this.format === 'human' && rows.length > 0) await this.output.line(this.table.rows(rows).join('\n'));
    this.count += rows.length;
  }

  async end(): Promise<void> {
    if (this.format === 'json') await this.output.line(this.count === 0 ? '[]' : ']');
    else if (this.format === 'human' && this.count === 0) await this.output.line(this.empty);
  }
}
