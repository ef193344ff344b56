import { ApiFailure } from './errors.js';
import type { Position } from './ordered-index.js';

/**
 * `limit` (1-100, default 20) and an opaque `cursor` (pins.md, "Lists"). Small collections use an offset cursor; the
 * envelope lists, which grow without bound, a position cursor (where the last item shown sits in the list's order), so
 * that a page costs O(log n + limit) and stays stable while envelopes are created. Both are encoded so that a client
 * cannot mistake them for numbers it may compute.
 */
export function pageLimit(query: Record<string, string | undefined>): number {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new ApiFailure(400, 'VALIDATION_ERROR', '`limit` must be an integer from 1 to 100.', { parameter: 'limit' });
  }
  return limit;
}

function foreignCursor(): ApiFailure {
  return new ApiFailure(400, 'VALIDATION_ERROR', '`cursor` is not a cursor this service issued.', { parameter: 'cursor' });
}

function decodedCursor(query: Record<string, string | undefined>, kind: 'o' | 'p'): number[] | undefined {
  if (query.cursor === undefined) return undefined;
  const text = Buffer.from(query.cursor, 'base64url').toString('utf8');
  if (!text.startsWith(`${kind}:`)) throw foreignCursor();
  const numbers = text.slice(2).split(':').map(Number);
  if (!numbers.every((value) => Number.isSafeInteger(value) && value >= 0)) throw foreignCursor();
  return numbers;
}

function encodedCursor(kind: 'o' | 'p', numbers: readonly number[]): string {
  return Buffer.from(`${kind}:${numbers.join(':')}`).toString('base64url');
}

export function paginate<T>(items: readonly T[], query: Record<string, string | undefined>): { data: T[]; nextCursor: string | null } {
  const limit = pageLimit(query);
  const [offset = 0] = decodedCursor(query, 'o') ?? [];
  const data = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? encodedCursor('o', [offset + limit]) : null;
  return { data, nextCursor: next };
}

/** `paginate` over `items` read from the end (items kept oldest first, listed newest first), copying only the page. */
export function paginateNewestFirst<T>(items: readonly T[], query: Record<string, string | undefined>): { data: T[]; nextCursor: string | null } {
  const limit = pageLimit(query);
  const [offset = 0] = decodedCursor(query, 'o') ?? [];
  const end = Math.max(0, items.length - offset);
  const start = Math.max(0, end - limit);
  return { data: items.slice(start, end).reverse(), nextCursor: start > 0 ? encodedCursor('o', [offset + limit]) : null };
}

/** Whether the query's cursor is a position cursor (a list made of an offset part and a position part takes both). */
export function hasPositionCursor(query: Record<string, string | undefined>): boolean {
  return query.cursor !== undefined && Buffer.from(query.cursor, 'base64url').toString('utf8').startsWith('p:');
}

/** The position a position cursor continues after, if the query has one. */
export function cursorPosition(query: Record<string, string | undefined>): Position | undefined {
  const numbers = decodedCursor(query, 'p');
  if (numbers === undefined) return undefined;
  if (numbers.length !== 2) throw foreignCursor();
  return { primary: numbers[0]!, seq: numbers[1]! };
}

export function positionCursor(position: Position): string {
  return encodedCursor('p', [position.primary, position.seq]);
}
