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
