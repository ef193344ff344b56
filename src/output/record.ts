import { renderFields } from './table.js';

function scalar(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) return value.length ? value.join(', ') : '-';
  return JSON.stringify(value);
}

/** A record the contract does not describe, shown field by field (`camelCase` names made readable). */
export function renderRecord(record: Record<string, unknown>, labels: Record<string, string> = {}): string {
  return renderFields(
    Object.entries(record).map(([name, value]) => [labels[name] ?? name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase()), scalar(value)]),
  );
}

/** A cell of a table: a missing value shows as `-`. */
export const cell = (value: unknown): string => scalar(value);
