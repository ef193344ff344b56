/**
 * Where an item sits in a list, newest first: by `primary` descending, then by `seq` (unique, creation order)
 * descending. A cursor is a position, so a page continues after the last item it showed even while items are added
 * in front of it.
 */
export interface Position {
  primary: number;
  seq: number;
}

/** Items per block: an insert or removal moves at most 2 × BLOCK references, a lookup is two binary searches. */
const BLOCK = 512;

/**
 * A sorted list of items in blocks of at most 2 × BLOCK: insert, remove and "the page after this position" in
 * O(log n + BLOCK + page), whatever the size, with one reference per item (no tree nodes). Blocks hold items oldest
 * first, so the usual insert (the newest item) is an append; lists read them backwards.
 */
export class OrderedIndex<T> {
  private readonly blocks: T[][] = [];
  private count = 0;

  constructor(
    private readonly primaryOf: (item: T) => number,
    private readonly seqOf: (item: T) => number,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Negative when `item` sorts (oldest first) before the position (primary, seq). */
  private compare(item: T, primary: number, seq: number): number {
    return this.primaryOf(item) - primary || this.seqOf(item) - seq;
  }

  /** The first block whose last item does not sort before the position (the last block if every one does). */
  private blockFor(primary: number, seq: number): number {
    let low = 0;
    let high = this.blocks.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const block = this.blocks[middle]!;
      if (this.compare(block[block.length - 1]!, primary, seq) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The first index in `block` whose item does not sort before the position. */
  private indexIn(block: readonly T[], primary: number, seq: number): number {
    let low = 0;
    let high = block.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare(block[middle]!, primary, seq) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  insert(item: T): void {
    this.count++;
    const last = this.blocks[this.blocks.length - 1];
    if (!last) {
      this.blocks.push([item]);
      return;
    }
    const primary = this.primaryOf(item);
    const seq = this.seqOf(item);
    let blockIndex = this.blocks.length - 1;
    let block = last;
    if (this.compare(last[last.length - 1]!, primary, seq) < 0) {
      block.push(item);
    } else {
      blockIndex = this.blockFor(primary, seq);
      block = this.blocks[blockIndex]!;
      block.splice(this.indexIn(block, primary, seq), 0, item);
    }
    if (block.length > 2 * BLOCK) this.blocks.splice(blockIndex + 1, 0, block.splice(BLOCK));
  }

  /** Removes the item (found by its position, which must not have changed since it was inserted). */
  remove(item: T): boolean {
    if (this.blocks.length === 0) return false;
    const primary = this.primaryOf(item);
    const seq = this.seqOf(item);
    const blockIndex = this.blockFor(primary, seq);
    const block = this.blocks[blockIndex]!;
    const index = this.indexIn(block, primary, seq);
    if (block[index] !== item) return false;
    block.splice(index, 1);
    if (block.length === 0) this.blocks.splice(blockIndex, 1);
    this.count--;
    return true;
  }

  /** Items newest first, starting right after `after` (from the newest without it). */
  *itemsAfter(after?: Position): Generator<T> {
    let blockIndex = this.blocks.length - 1;
    let index = blockIndex < 0 ? -1 : this.blocks[blockIndex]!.length - 1;
    if (after !== undefined && blockIndex >= 0) {
      // The last item sorting before the cursor's position, oldest first, is the first one after it, newest first.
      blockIndex = this.blockFor(after.primary, after.seq);
      index = this.indexIn(this.blocks[blockIndex]!, after.primary, after.seq) - 1;
    }
    for (; blockIndex >= 0; blockIndex--) {
      const block = this.blocks[blockIndex]!;
      if (index >= block.length) index = block.length - 1;
      for (; index >= 0; index--) yield block[index]!;
      index = Infinity;
    }
  }

  /** Up to `limit` items after `after`, and whether more follow. */
  page(after: Position | undefined, limit: number): { items: T[]; more: boolean } {
    const items: T[] = [];
    for (const item of this.itemsAfter(after)) {
      if (items.length === limit) return { items, more: true };
      items.push(item);
    }
    return { items, more: false };
  }
}
