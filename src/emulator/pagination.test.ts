import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paginate, paginateNewestFirst } from './pagination.js';

describe('paginateNewestFirst', () => {
  it('pages as paginate pages the reversed list, cursor for cursor, without reversing the list', () => {
    fc.assert(
      fc.property(fc.nat(250), fc.integer({ min: 1, max: 100 }), (length, limit) => {
        const items = Array.from({ length }, (_, index) => index);
        const reversed = items.toReversed();
        for (let cursor: string | undefined; ; ) {
          const query = { limit: String(limit), ...(cursor ? { cursor } : {}) };
          const page = paginateNewestFirst(items, query);
          expect(page).toEqual(paginate(reversed, query));
          if (!page.nextCursor) break;
          cursor = page.nextCursor;
        }
      }),
    );
  });
});
