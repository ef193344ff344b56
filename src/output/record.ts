import { visible } from './sanitize.js';
import { renderTable, type Column } from './table.js';

type Entries = Record<string, unknown>;

const isEntries = (value: unknown): value is Entries => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A list of records: shown as a table. */
const isRows = (value: unknown): value is Entries[] => Array.isArray(value) && value.length > 0 && value.every(isEntries);
/** What gets lines of its own under its label rather than a value after it. */
const isBlock = (value: unknown): boolean => (isEntries(value) && Object.keys(value).length > 0) || isRows(value);

/** `camelCase` names made readable: `maxDocumentBytes` is `Max Document Bytes`. */
const labelOf = (name: string): string => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase());

/** A value on one line; an object inside a table cell reads `name value, name value` rather than as JSON. */
function scalar(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length ? value.map(scalar).join(', ') : '-';
  if (isEntries(value)) {
    const entries = Object.entries(value);
    return entries.length ? entries.map(([name, inner]) => `${labelOf(name)} ${scalar(inner)}`).join(', ') : '-';
  }
  return String(value);
}

function rowsTable(rows: readonly Entries[]): string {
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const columns: Column<Entries>[] = names.map((name) => ({ header: labelOf(name).toUpperCase(), value: (row) => scalar(row[name]) }));
  return renderTable(rows, columns);
}

function recordLines(record: Entries, labels: Record<string, string>, indent: string): string[] {
  const entries = Object.entries(record).map(([name, value]) => [labels[name] ?? labelOf(name), value] as const);
  const width = Math.max(0, ...entries.filter(([, value]) => !isBlock(value)).map(([label]) => label.length));
  return entries.flatMap(([label, value]) => {
    if (isRows(value)) return [`${indent}${visible(label)}:`, ...rowsTable(value).split('\n').map((line) => `${indent}  ${line}`)];
    if (isBlock(value)) return [`${indent}${visible(label)}:`, ...recordLines(value as Entries, {}, `${indent}  `)];
    return [`${indent}${`${visible(label)}:`.padEnd(width + 1)} ${visible(scalar(value))}`];
  });
}

/**
 * A record the contract does not describe, shown field by field (`camelCase` names made readable): a nested object
 * as its own indented fields, a list of objects as a table, so that no JSON reaches a person's screen.
 */
export function renderRecord(record: Record<string, unknown>, labels: Record<string, string> = {}): string {
  return recordLines(record, labels, '').join('\n');
}

/** A cell of a table: a missing value shows as `-`. */
export const cell = (value: unknown): string => scalar(value);
