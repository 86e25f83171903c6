// k8s.io/utils/lru semantics: get moves an entry to the front, add of a present key updates
// it and moves it to the front, add of a new key evicts the least recently used entry past
// maxEntries. No TTL.
//
// Written out here for speed: the correlator calls it three to five times per event, with
// keys of a few hundred characters made afresh for each event (client-go's getEventKey
// and friends). Three costs dominated (measured with `npm run bench` and --cpu-prof):
//  - the lru-cache package's per-call option handling: entries here live in slots of
//    preallocated arrays linked by index, so a full cache allocates nothing per entry;
//  - V8 hashing every character of each fresh key (Node 20: about 2 ns a character):
//    entries are found by a fingerprint of a few characters spread over the key, then
//    compared whole, so lookups stay exact. Keys whose fingerprints collide share a chain;
//    if a chain ever grows past MAX_CHAIN (keys that differ only where the fingerprint does
//    not look), the cache switches to hashing whole keys;
//  - joining each key's fields: a key may be given as its fields (joinedKey.ts), never
//    joined unless the cache falls back to whole keys.
import { fingerprint, joined, sameText, type JoinedKey } from './joinedKey';

/** No slot: the end of the list. */
const NONE = -1;
/** Entries with one fingerprint before the cache stops trusting fingerprints. */
const MAX_CHAIN = 8;

export class Lru<V extends object> {
  /** Fingerprint → the slot, or the slots, of keys with that fingerprint. */
  private byFingerprint: Map<number, number | number[]> | undefined = new Map();
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
    this.fingerprints = new Int32Array(capacity);
    this.older = new Int32Array(capacity);
    this.newer = new Int32Array(capacity);
  }

  get(key: JoinedKey): V | undefined {
    let slot = key === this.lastKey && this.keys[this.lastSlot] === key ? this.lastSlot : NONE;
    if (slot === NONE) {
      const fp = this.byKey ? 0 : fingerprint(key);
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
    const slot = this.find(key, this.byKey ? 0 : fingerprint(key));
    return slot === NONE ? undefined : this.values[slot];
  }

  add(key: JoinedKey, value: V): void {
    if (this.maxEntries < 0) return;
    const missed = key === this.missedKey;
    this.missedKey = undefined;
    const fp = missed ? this.missedFingerprint : this.byKey ? 0 : fingerprint(key);
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
    if (this.byKey) return this.byKey.get(joined(key)) ?? NONE;
    const at = (this.byFingerprint as Map<number, number | number[]>).get(fp);
    if (at === undefined) return NONE;
    if (typeof at === 'number') return sameText(this.keys[at] as JoinedKey, key) ? at : NONE;
    for (const slot of at) if (sameText(this.keys[slot] as JoinedKey, key)) return slot;
    return NONE;
  }

  private index(key: JoinedKey, fp: number, slot: number): void {
    if (this.byKey) {
      this.byKey.set(joined(key), slot);
      return;
    }
    const byFingerprint = this.byFingerprint as Map<number, number | number[]>;
    const at = byFingerprint.get(fp);
    if (at === undefined) byFingerprint.set(fp, slot);
    else if (typeof at === 'number') byFingerprint.set(fp, [at, slot]);
    else if (at.push(slot) > MAX_CHAIN) this.indexByKey();
  }

  private forget(slot: number): void {
    const key = this.keys[slot] as JoinedKey;
    if (this.byKey) {
      this.byKey.delete(joined(key));
      return;
    }
    const byFingerprint = this.byFingerprint as Map<number, number | number[]>;
    const fp = this.fingerprints[slot];
    const at = byFingerprint.get(fp) as number | number[];
    if (typeof at === 'number') {
      byFingerprint.delete(fp);
      return;
    }
    at.splice(at.indexOf(slot), 1);
    if (at.length === 1) byFingerprint.set(fp, at[0]);
  }

  /** From now on, whole keys: these keys differ where fingerprints do not look. */
  private indexByKey(): void {
    this.byKey = new Map();
    for (let slot = 0; slot < this.count; slot++) this.byKey.set(joined(this.keys[slot] as JoinedKey), slot);
    this.byFingerprint = undefined;
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
