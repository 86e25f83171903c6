// The order in which the memory cap drops events: a binary min-heap on last-seen time (the
// oldest on top), arrival order breaking ties. Each entry knows its place in the heap, so
// removing or replacing any entry is O(log n) with no search.
import type { StoreEntry } from './storeEntry';

/** Older first; at equal times, the one received first. */
function before(a: StoreEntry, b: StoreEntry): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

export class EvictionOrder {
  private heap: StoreEntry[] = [];

  get size(): number {
    return this.heap.length;
  }

  /** The entry to drop first. */
  peek(): StoreEntry | undefined {
    return this.heap[0];
  }

  /**
   * Whether an entry made now with this time would be the one to drop first: older than the
   * oldest held (at an equal time the oldest goes first, as it was received first).
   */
  olderThanAll(time: number): boolean {
    const top = this.heap[0];
    return top !== undefined && time < top.time;
  }

  push(e: StoreEntry): void {
    e.heapIndex = this.heap.length;
    this.heap.push(e);
    this.up(e.heapIndex);
  }

  remove(e: StoreEntry): void {
    const i = e.heapIndex;
    if (i < 0 || this.heap[i] !== e) return;
    const last = this.heap.pop() as StoreEntry;
    e.heapIndex = -1;
    if (last === e) return;
    this.heap[i] = last;
    last.heapIndex = i;
    this.down(i);
    this.up(last.heapIndex);
  }

  clear(): void {
    for (const e of this.heap) e.heapIndex = -1;
    this.heap = [];
  }

  private up(i: number): void {
    const h = this.heap;
    const e = h[i];
    while (i > 0) {
      const p = (i - 1) >>> 1;
      if (!before(e, h[p])) break;
      h[i] = h[p];
      h[i].heapIndex = i;
      i = p;
    }
    h[i] = e;
    e.heapIndex = i;
  }

  private down(i: number): void {
    const h = this.heap;
    const e = h[i];
    const n = h.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && before(h[r], h[l]) ? r : l;
      if (!before(h[c], e)) break;
      h[i] = h[c];
      h[i].heapIndex = i;
      i = c;
    }
    h[i] = e;
    e.heapIndex = i;
  }
}
