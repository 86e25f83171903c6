// k8s.io/utils/lru semantics: get moves an entry to the front, add of a present key updates
// it and moves it to the front, add of a new key evicts the least recently used entry past
// maxEntries. No TTL.
//
// Written out here for speed: the correlator calls it three to five times per event, with
// keys of a few hundred characters made afresh for each event (client-go's getEventKey
// and friends). Three costs dominate a general-purpose cache there:
//  - the lru-cache package's per-call option handling: entries here live in slots of
//    preallocated arrays linked by index, so a full cache allocates nothing per entry;
//  - V8 hashing every character of each fresh key (Node 20: about 2 ns a character):
//    entries are found by a fingerprint of a few characters spread over the key, then
//    compared whole, so lookups stay exact. The fingerprints index the slots in an open
//    table of their own (linear probing in an Int32Array, deletion by shifting back): a
//    Map of fingerprints cost a hash, a bucket walk and tombstones on every one of the
//    three to four lookups, adds and evictions of each new event. If more than MAX_CHAIN
//    keys ever share one fingerprint (keys that differ only where it does not look), the
//    cache switches to hashing whole keys;
//  - joining each key's fields: a key may be given as its fields (joinedKey.ts), never
//    joined unless the cache falls back to whole keys.
import { fingerprint, joined, sameText, type JoinedKey } from './joinedKey';

/** No slot: the end of the list. */
const NONE = -1;
/** Entries with one fingerprint before the cache stops trusting fingerprints. */
const MAX_CHAIN = 8;
/**
 * Table cells per entry: a quarter full, a lookup that misses (every new event's) reads
 * about 1.4 cells on average with linear probing.
 */
const CELLS_PER_ENTRY = 4;

/** The cells of the index of a cache of maxEntries: a power of two, at least 2. */
export function indexCells(maxEntries: number): number {
  let cells = 2;
  while (cells < maxEntries * CELLS_PER_ENTRY) cells *= 2;
  return cells;
}

export class Lru<V extends object> {
  /**
   * Cells of slots (NONE: empty), each placed at or after the cell its fingerprint points
   * at, with no empty cell between: an open-addressed index from fingerprints to slots.
   * Undefined once fingerprints proved too weak for these keys.
   */
  private table: Int32Array | undefined;
  private readonly mask: number;
  /** Joined key → slot, once fingerprints proved too weak for these keys. */
  private byKey: Map<string, number> | undefined;
  private count = 0;
  private readonly keys: (JoinedKey | undefined)[] = [];
  private readonly values: (V | undefined)[] = [];
  private readonly fingerprints: Int32Array;
  /** Per slot, the next slot towards the least recently used end, and towards the most recent. */
  private readonly older: Int32Array;
  private readonly newer: Int32Array;
  private newest = NONE;
  private oldest = NONE;
  /**
   * The key the last get() did not find, and its fingerprint: the correlator's usual step
   * on a new event is get(key), then add(key) with the same key, and nothing changed
   * between them; add then neither fingerprints nor looks the key up again.
   */
  private missedKey: JoinedKey | undefined;
  private missedFingerprint = 0;
  /**
   * The key last found or added, and its slot: the correlator looks again for the key it
   * has just added (updateState after a create), and then needs no fingerprint or lookup.
   * Trusted only while the slot still holds that very key.
   */
  private lastKey: JoinedKey | undefined;
  private lastSlot = NONE;

  /**
   * maxEntries 0 means unlimited in Go; the correlator never passes 0 (its default is
   * 4096). A negative size, which Go's cache honours by evicting every entry as it is
   * added, keeps nothing here too.
   */
  constructor(readonly maxEntries: number) {
    if (maxEntries === 0) throw new RangeError('an unlimited LRU is not supported: give maxEntries > 0');
    const capacity = Math.max(0, maxEntries);
    const cells = indexCells(capacity);
    this.table = new Int32Array(cells).fill(NONE);
    this.mask = cells - 1;
    this.fingerprints = new Int32Array(capacity);
    this.older = new Int32Array(capacity);
    this.newer = new Int32Array(capacity);
  }

  get(key: JoinedKey): V | undefined {
    let slot = key === this.lastKey && this.keys[this.lastSlot] === key ? this.lastSlot : NONE;
    if (slot === NONE) {
      const fp = this.table ? fingerprint(key) : 0;
      slot = this.find(key, fp);
      if (slot === NONE) {
        this.missedKey = key;
        this.missedFingerprint = fp;
        return undefined;
      }
      this.lastKey = key;
      this.lastSlot = slot;
    }
    this.moveToFront(slot);
    return this.values[slot];
  }

  /** Reads without touching recency (for tests and conformance checks). */
  peek(key: JoinedKey): V | undefined {
    const slot = this.find(key, this.table ? fingerprint(key) : 0);
    return slot === NONE ? undefined : this.values[slot];
  }

  add(key: JoinedKey, value: V): void {
    if (this.maxEntries < 0) return;
    const missed = key === this.missedKey;
    this.missedKey = undefined;
    const fp = missed ? this.missedFingerprint : this.table ? fingerprint(key) : 0;
    let slot = missed ? NONE : this.find(key, fp);
    if (slot !== NONE) {
      this.values[slot] = value;
      this.moveToFront(slot);
      this.lastKey = key;
      this.lastSlot = slot;
      return;
    }
    if (this.count < this.maxEntries) {
      slot = this.count++;
    } else {
      // Full: the least recently used entry's slot is reused.
      slot = this.oldest;
      this.unlink(slot);
      this.forget(slot);
    }
    this.keys[slot] = key;
    this.values[slot] = value;
    this.fingerprints[slot] = fp;
    this.index(key, fp, slot);
    this.linkAtFront(slot);
    this.lastKey = key;
    this.lastSlot = slot;
  }

  get size(): number {
    return this.count;
  }

  private find(key: JoinedKey, fp: number): number {
    const table = this.table;
    if (table === undefined) return (this.byKey as Map<string, number>).get(joined(key)) ?? NONE;
    const mask = this.mask;
    for (let cell = fp & mask; ; cell = (cell + 1) & mask) {
      const slot = table[cell];
      if (slot === NONE) return NONE;
      if (this.fingerprints[slot] === fp && sameText(this.keys[slot] as JoinedKey, key)) return slot;
    }
  }

  private index(key: JoinedKey, fp: number, slot: number): void {
    const table = this.table;
    if (table === undefined) {
      (this.byKey as Map<string, number>).set(joined(key), slot);
      return;
    }
    const mask = this.mask;
    let sharing = 0;
    let cell = fp & mask;
    for (; table[cell] !== NONE; cell = (cell + 1) & mask) if (this.fingerprints[table[cell]] === fp) sharing++;
    table[cell] = slot;
    if (sharing >= MAX_CHAIN) this.indexByKey();
  }

  private forget(slot: number): void {
    const table = this.table;
    if (table === undefined) {
      (this.byKey as Map<string, number>).delete(joined(this.keys[slot] as JoinedKey));
      return;
    }
    const mask = this.mask;
    let hole = this.fingerprints[slot] & mask;
    while (table[hole] !== slot) hole = (hole + 1) & mask;
    // Shift back every later cell of the run whose home is not between the hole and it, so
    // no lookup meets an empty cell before its slot.
    for (let cell = (hole + 1) & mask; table[cell] !== NONE; cell = (cell + 1) & mask) {
      const home = this.fingerprints[table[cell]] & mask;
      if (((cell - home) & mask) >= ((cell - hole) & mask)) {
        table[hole] = table[cell];
        hole = cell;
      }
    }
    table[hole] = NONE;
  }

  /** From now on, whole keys: these keys differ where fingerprints do not look. */
  private indexByKey(): void {
    this.byKey = new Map();
    for (let slot = 0; slot < this.count; slot++) this.byKey.set(joined(this.keys[slot] as JoinedKey), slot);
    this.table = undefined;
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
