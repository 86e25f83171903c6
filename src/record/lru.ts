// k8s.io/utils/lru semantics: get moves an entry to the front, add of a present key updates
// it and moves it to the front, add of a new key evicts the least recently used entry past
// maxEntries. No TTL.
//
// Written out here because the correlator calls it three to five times per event: the
// lru-cache package's per-call option handling cost more than the correlator's own work
// (see `npm run bench`). Like lru-cache, entries live in slots of preallocated arrays
// linked by index, so a full cache allocates nothing per entry and its links are not
// objects for the garbage collector to trace.

/** No slot: the end of the list. */
const NONE = -1;

export class Lru<V extends object> {
  private readonly slots = new Map<string, number>();
  private readonly keys: (string | undefined)[] = [];
  private readonly values: (V | undefined)[] = [];
  /** Per slot, the next slot towards the least recently used end, and towards the most recent. */
  private readonly older: Int32Array;
  private readonly newer: Int32Array;
  private newest = NONE;
  private oldest = NONE;

  /**
   * maxEntries 0 means unlimited in Go; the correlator never passes 0 (its default is
   * 4096). A negative size, which Go's cache honours by evicting every entry as it is
   * added, keeps nothing here too.
   */
  constructor(readonly maxEntries: number) {
    if (maxEntries === 0) throw new RangeError('an unlimited LRU is not supported: give maxEntries > 0');
    const capacity = Math.max(0, maxEntries);
    this.older = new Int32Array(capacity);
    this.newer = new Int32Array(capacity);
  }

  get(key: string): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    this.moveToFront(slot);
    return this.values[slot];
  }

  /** Reads without touching recency (for tests and conformance checks). */
  peek(key: string): V | undefined {
    const slot = this.slots.get(key);
    return slot === undefined ? undefined : this.values[slot];
  }

  add(key: string, value: V): void {
    if (this.maxEntries < 0) return;
    let slot = this.slots.get(key);
    if (slot !== undefined) {
      this.values[slot] = value;
      this.moveToFront(slot);
      return;
    }
    if (this.slots.size < this.maxEntries) {
      slot = this.slots.size;
    } else {
      // Full: the least recently used entry's slot is reused.
      slot = this.oldest;
      this.unlink(slot);
      this.slots.delete(this.keys[slot] as string);
    }
    this.keys[slot] = key;
    this.values[slot] = value;
    this.slots.set(key, slot);
    this.linkAtFront(slot);
  }

  get size(): number {
    return this.slots.size;
  }

  private moveToFront(slot: number): void {
    if (slot === this.newest) return;
    this.unlink(slot);
    this.linkAtFront(slot);
  }

  private unlink(slot: number): void {
    const older = this.older[slot];
    const newer = this.newer[slot];
    if (older === NONE) this.oldest = newer;
    else this.newer[older] = newer;
    if (newer === NONE) this.newest = older;
    else this.older[newer] = older;
  }

  private linkAtFront(slot: number): void {
    this.older[slot] = this.newest;
    this.newer[slot] = NONE;
    if (this.newest === NONE) this.oldest = slot;
    else this.newer[this.newest] = slot;
    this.newest = slot;
  }
}
