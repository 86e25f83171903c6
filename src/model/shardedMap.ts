// A Map with string keys, split into SHARDS smaller Maps. V8 compacts a hash table that
// keeps gaining and losing keys by rehashing it whole once every (capacity - size)
// insertions: for the store's 20,000-entry maps, a pause of a millisecond or more each,
// every map at the same upsert (they churn in step). Split in SHARDS, each pause is that
// much shorter and the shards' pauses fall at different times.

/** How many Maps one is split into (a power of two). */
const SHARDS = 16;

export class ShardedMap<V> {
  private readonly shards: Map<string, V>[] = Array.from({ length: SHARDS }, () => new Map<string, V>());
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: string): V | undefined {
    return this.shard(key).get(key);
  }

  has(key: string): boolean {
    return this.shard(key).has(key);
  }

  set(key: string, value: V): void {
    const m = this.shard(key);
    const before = m.size;
    m.set(key, value);
    this.count += m.size - before;
  }

  delete(key: string): boolean {
    const deleted = this.shard(key).delete(key);
    if (deleted) this.count--;
    return deleted;
  }

  clear(): void {
    for (const m of this.shards) m.clear();
    this.count = 0;
  }

  /** Live, as a Map's: values set later in a shard not yet passed are visited too. */
  values(): IterableIterator<V> {
    const shards = this.shards;
    let i = 0;
    let it = shards[0].values();
    const iterator: IterableIterator<V> = {
      next(): IteratorResult<V> {
        for (;;) {
          const r = it.next();
          if (!r.done || ++i >= shards.length) return r;
          it = shards[i].values();
        }
      },
      [Symbol.iterator]: () => iterator,
    };
    return iterator;
  }

  /** Every value now, in an array: what a pass that may change the map walks over. */
  snapshot(): V[] {
    const out: V[] = [];
    for (const m of this.shards) for (const v of m.values()) out.push(v);
    return out;
  }

  /** The last two characters pick the shard: uids, names and object keys differ there. */
  private shard(key: string): Map<string, V> {
    const n = key.length;
    return this.shards[((key.charCodeAt(n - 1) | 0) + 31 * (key.charCodeAt(n - 2) | 0)) & (SHARDS - 1)];
  }
}
