// k8s.io/utils/lru semantics over the lru-cache package: get moves an entry to the front,
// add of a present key updates it and moves it to the front, add of a new key evicts the
// least recently used entry past maxEntries. No TTL.
import { LRUCache } from 'lru-cache';

export class Lru<V extends object> {
  private readonly cache: LRUCache<string, V> | undefined;

  /**
   * maxEntries 0 means unlimited in Go; the correlator never passes 0 (its default is
   * 4096). A negative size, which Go's cache honours by evicting every entry as it is
   * added, keeps nothing here too.
   */
  constructor(readonly maxEntries: number) {
    if (maxEntries > 0) this.cache = new LRUCache<string, V>({ max: maxEntries });
    else if (maxEntries === 0) throw new RangeError('an unlimited LRU is not supported: give maxEntries > 0');
  }

  get(key: string): V | undefined {
    return this.cache?.get(key);
  }

  /** Reads without touching recency (for tests and conformance checks). */
  peek(key: string): V | undefined {
    return this.cache?.peek(key);
  }

  add(key: string, value: V): void {
    this.cache?.set(key, value);
  }

  get size(): number {
    return this.cache?.size ?? 0;
  }
}
