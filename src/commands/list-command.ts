import { UsageError } from '../core/errors.js';
import type { ListSource } from '../api/client.js';
import { defineCommand, type ArgumentSpec, type CommandSpec, type Context, type OptionSpec } from '../cli/command.js';
import { parseWholeNumber } from '../input/whole-number.js';
import { itemsOf } from '../output/envelope-view.js';
import { ListWriter, type ListFormat } from '../output/list-output.js';
import { terminalJson, visible } from '../output/sanitize.js';
import { renderTable, type Column } from '../output/table.js';

/** `--limit`: the API's page size, 1 to 100 (pins.md, "Lists"). */
export function parsePageSize(value: string): number {
  return parseWholeNumber(value, 1, 100);
}

export interface ListArgs {
  limit?: number;
  cursor?: string;
  all?: boolean;
  jsonl?: boolean;
}

/** The options every list command takes. */
export const listOptions: readonly OptionSpec[] = [
  { flags: '--limit <n>', description: 'page size, 1 to 100 (default 20)', parse: parsePageSize },
  { flags: '--cursor <cursor>', description: 'start at this page (the nextCursor of a previous --json answer)' },
  { flags: '--all', description: 'follow every page, printing rows as they arrive' },
  { flags: '--jsonl', description: 'one JSON object per line (with --all, streamed)' },
];

/**
 * The options of a list a person reads whole (an envelope's participants, documents, history): without `--limit` or
 * `--cursor` it shows every entry, and its help says so.
 */
export const wholeListOptions: readonly OptionSpec[] = listOptions.map((option) =>
  option.flags === '--limit <n>' ? { ...option, description: 'show one page of this size, 1 to 100 (default: every entry)' } : option,
);

/**
 * For the lists a person reads whole (an envelope's participants, documents, history): every page unless `--limit` or
 * `--cursor` asks for one.
 */
export function asksForOnePage(args: ListArgs): boolean {
  return !args.all && (args.limit !== undefined || args.cursor !== undefined);
}

export interface ListShape<T> {
  columns: readonly Column<T>[];
  /** Plural, for "No contacts." and "More contacts: …". */
  noun: string;
  /** Kept client-side: rows the API cannot filter. With it, `--limit` counts matches, not a page. */
  filter?: (row: T) => boolean | Promise<boolean>;
  /** Called with each page's rows before they are shown as a table: looks up what the columns show (names for ids). */
  prepare?: (rows: readonly T[]) => Promise<void>;
}

export function listFormat(ctx: Context, args: ListArgs): ListFormat {
  // One format: the last flag must not silently win over another.
  if (args.jsonl && (ctx.output.json || ctx.output.quiet)) {
    throw new UsageError(`--jsonl and ${ctx.output.json ? '--json' : '--quiet'} do not go together.`, 'Give one output format: --json (one document), --jsonl (one object per line) or -q (ids).');
  }
  if (args.jsonl) return 'jsonl';
  if (ctx.output.json) return 'json';
  return ctx.output.quiet ? 'ids' : 'human';
}

/**
 * One page as the API answers it (`--json`: the API's own `{data, nextCursor}`, so the cursor can be passed on), or
 * with `--all` (or a client-side filter) every page in turn, each row printed as it arrives and then dropped, so memory
 * stays flat however large the account (`--json`: one array of the rows, printed once the last page is in, see
 * ListWriter; there is no next page to name).
 */
export async function printList<T>(ctx: Context, source: ListSource, args: ListArgs, shape: ListShape<T>): Promise<void> {
  if (args.all && args.cursor) throw new UsageError('--all and --cursor do not go together.', '--all starts at the first page and follows every cursor.');
  const client = await ctx.client();
  const format = listFormat(ctx, args);
  if (!args.all && !shape.filter) {
    const { body } = await client.call<{ nextCursor?: string | null }>(source.operationId, {
      ...(source.params ? { params: source.params } : {}),
      query: { ...source.query, limit: args.limit, cursor: args.cursor },
    });
    const rows = itemsOf<T>(body, 'data') ?? [];
    if (format === 'human') await shape.prepare?.(rows);
    if (format === 'jsonl') for (const row of rows) await ctx.output.line(terminalJson(row));
    else ctx.output.result(body, () => (rows.length ? renderTable(rows, shape.columns, ctx.output.style) : `No ${shape.noun}.`));
    if (body?.nextCursor) ctx.output.info(`More ${shape.noun}: pass --all, or --cursor ${visible(body.nextCursor)} for the next page.`);
    return;
  }

  const writer = new ListWriter<T>(ctx.output, format, shape.columns, `No ${shape.filter ? 'matching ' : ''}${shape.noun}.`);
  const wanted = args.all ? Number.POSITIVE_INFINITY : (args.limit ?? 20);
  // Filtering client-side reads full pages whatever --limit says: --limit then counts matches.
  const pageSize = shape.filter ? 100 : args.limit;
  let stoppedEarly = false;
  for await (const page of client.pages<T>(source.operationId, {
    ...(source.params ? { params: source.params } : {}),
    query: { ...source.query, limit: pageSize, cursor: args.cursor },
  })) {
    const kept: T[] = [];
    for (const [index, row] of page.data.entries()) {
      if (shape.filter && !(await shape.filter(row))) continue;
      kept.push(row);
      if (writer.written + kept.length >= wanted) {
        stoppedEarly = index < page.data.length - 1 || page.nextCursor !== null;
        break;
      }
    }
    if (format === 'human') await shape.prepare?.(kept);
    await writer.add(kept);
    if (writer.written >= wanted) break;
  }
  await writer.end();
  if (stoppedEarly) ctx.output.info(`Showing the first ${wanted} matching ${shape.noun}; pass --all for every one, or a larger --limit.`);
}

export interface ListCommandSpec<A, T> {
  name: string;
  aliases?: readonly string[];
  description: string;
  operationId: string;
  arguments?: readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  examples: readonly string[];
  /** Fixed, or made for the run (colours, the current time). */
  columns: readonly Column<T>[] | ((ctx: Context) => readonly Column<T>[]);
  noun: string;
  /** Path parameters and extra query from the command's own arguments (it may ask, e.g. a picker). */
  source?: (args: A, ctx: Context) => Promise<Omit<ListSource, 'operationId'>> | Omit<ListSource, 'operationId'>;
  /** A client-side filter the arguments ask for, if any. */
  filter?: (args: A) => ListShape<T>['filter'];
}

/** A command that lists one collection, with `--limit`, `--cursor`, `--all` and `--jsonl`. */
export function defineListCommand<A, T>(spec: ListCommandSpec<A, T>): CommandSpec<A & ListArgs> {
  return defineCommand<A & ListArgs>({
    name: spec.name,
    ...(spec.aliases ? { aliases: spec.aliases } : {}),
    description: spec.description,
    ...(spec.arguments ? { arguments: spec.arguments } : {}),
    options: [...(spec.options ?? []), ...listOptions],
    examples: spec.examples,
    async handler(args, ctx) {
      const source = spec.source ? await spec.source(args, ctx) : {};
      const columns = typeof spec.columns === 'function' ? spec.columns(ctx) : spec.columns;
      const filter = spec.filter?.(args);
      await printList<T>(ctx, { operationId: spec.operationId, ...source }, args, { columns, noun: spec.noun, ...(filter ? { filter } : {}) });
    },
  });
}
