import { describe, expect, it } from 'vitest';
import { GroupedIndex } from './derived.js';

interface Item {
  id: number;
  group: string;
}

const byGroup = () => new GroupedIndex((items: Item[]) => items, (item: Item) => item.group);

describe('GroupedIndex', () => {
  it('groups the items a collection already has, then each added one once, in the order they came', () => {
    const items: Item[] = [
      { id: 1, group: 'a' },
      { id: 2, group: 'b' },
    ];
    const index = byGroup();
    const added = { id: 3, group: 'a' };
    index.add(items, added, (source) => source.push(added));
    expect(items).toHaveLength(3);
    expect(index.group(items, 'a').map((item) => item.id)).toEqual([1, 3]);
    expect(index.group(items, 'b').map((item) => item.id)).toEqual([2]);
    expect(index.group(items, 'none')).toEqual([]);
  });

  it('forgets a dropped group, and derives a new collection (a reset, a load) from its own items', () => {
    const items: Item[] = [{ id: 1, group: 'a' }];
    const index = byGroup();
    index.drop(items, 'a');
    expect(index.group(items, 'a')).toEqual([]);
    expect(index.group([{ id: 9, group: 'a' }], 'a').map((item) => item.id)).toEqual([9]);
  });
});
