import type { ApiClient, RequestOptions } from '../api/client.js';

/** Items asked for per page: the most a page holds (pins: `limit` 1-100). */
const PAGE_LIMIT = 100;

/**
 * Every item of a collection, following `nextCursor` to the end: every collection pages (pins, "Lists"), an envelope's
 * participants and documents too.
 */
export async function allItems<T>(client: ApiClient, operationId: string, options: RequestOptions = {}): Promise<T[]> {
  const items: T[] = [];
  for await (const item of client.paginate<T>(operationId, { ...options, query: { ...options.query, limit: PAGE_LIMIT } })) items.push(item);
  return items;
}
