import type { ApiClient, RequestOptions } from '../api/client.js';
import { itemsOf } from '../output/envelope-view.js';

/** Items asked for per page: the most a page holds (pins: `limit` 1-100). */
const PAGE_LIMIT = 100;

/**
 * Every item of a collection, following `nextCursor` to the end: every collection pages (pins, "Lists"), an envelope's
 * participants and documents too. The first answer is read whatever its shape (`data`, or the array named `name`).
 */
export async function allItems<T>(client: ApiClient, operationId: string, name: string, options: RequestOptions = {}): Promise<T[]> {
  const query = { ...options.query, limit: PAGE_LIMIT };
  const { body } = await client.call(operationId, { ...options, query });
  const items = itemsOf<T>(body, name) ?? [];
  const cursor = (body as { nextCursor?: unknown } | undefined)?.nextCursor;
  if (typeof cursor === 'string') {
    for await (const page of client.pages<T>(operationId, { ...options, query: { ...query, cursor } })) items.push(...page.data);
  }
  return items;
}
