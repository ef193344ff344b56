/** The value `map` holds for `key`, made by `make` and kept there when it holds none. */
export function entryIn<K, V>(map: { get(key: K): V | undefined; set(key: K, value: V): unknown }, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/**
 * A value derived from an object, made on first use and kept while the object lives. The emulator's indexes derive
 * from its state's collections: a start, a `--state` load or a reset brings new collections, and with them new
 * indexes. `forget` has the next use make it again.
 */
export class Derived<S extends object, V> {
  private readonly made = new WeakMap<S, V>();

  constructor(private readonly make: (source: S) => V) {}

  of(source: S): V {
    return entryIn(this.made, source, () => this.make(source));
  }

  forget(source: S): void {
    this.made.delete(source);
  }
}

/**
 * The items of a collection grouped by a key, each group in the order its items were added, derived on first use
 * (see `Derived`) and then kept up to date as items are added, so that one group is read without reading them all.
 */
export class GroupedIndex<S extends object, T> {
  private readonly groups: Derived<S, Map<string, T[]>>;

  constructor(
    itemsOf: (source: S) => Iterable<T>,
    private readonly keyOf: (item: T) => string,
  ) {
    this.groups = new Derived((source) => {
      const groups = new Map<string, T[]>();
      for (const item of itemsOf(source)) entryIn(groups, keyOf(item), () => []).push(item);
      return groups;
    });
  }

  /** One group's items, oldest first. */
  group(source: S, key: string): readonly T[] {
    return this.groups.of(source).get(key) ?? [];
  }

  /** Adds an item: `put` stores it in `source`, after the index was derived without it. */
  add(source: S, item: T, put: (source: S) => void): void {
    const groups = this.groups.of(source);
    put(source);
    entryIn(groups, this.keyOf(item), () => []).push(item);
  }

  /** Forgets a group whose items have left `source`. */
  drop(source: S, key: string): void {
    this.groups.of(source).delete(key);
  }
}
