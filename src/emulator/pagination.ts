import { ApiFailure } from './errors.js';

/**
 * `limit` (1-100, default 20) and an opaque `cursor` (pins.md, "Lists"). The cursor is the offset, encoded, so a
 * client cannot mistake it for a number it may compute.
 */
export function paginate<T>(items: readonly T[], query: Record<string, string | undefined>): { data: T[]; nextCursor: string | null } {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new ApiFailure(400, 'VALIDATION_ERROR', '`limit` must be an integer from 1 to 100.', { parameter: 'limit' });
  }
  let offset = 0;
  if (query.cursor !== undefined) {
    const decoded = Number(Buffer.from(query.cursor, 'base64url').toString('utf8').replace(/^o:/, ''));
    if (!Number.isInteger(decoded) || decoded < 0 || !Buffer.from(query.cursor, 'base64url').toString('utf8').startsWith('o:')) {
      throw new ApiFailure(400, 'VALIDATION_ERROR', '`cursor` is not a cursor this service issued.', { parameter: 'cursor' });
    }
    offset = decoded;
  }
  const data = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? Buffer.from(`o:${offset + limit}`).toString('base64url') : null;
  return { data, nextCursor: next };
}
