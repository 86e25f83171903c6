// A list kept sorted by a comparator, held as a row of short sorted chunks: inserting or
// removing costs a binary search and a copy within one chunk, at either end or in the middle.
// A plain sorted array would copy everything after the insertion point (20,000 pointers for
// each event of an object with 20,000 events).

/** A chunk splits in two past this many items: a splice inside one stays a short copy. */
const MAX_CHUNK = 512;
/** A chunk this small joins a neighbour, so there are about size / MAX_CHUNK chunks at most twice over. */
const MIN_CHUNK = MAX_CHUNK / 8;

export type Compare<T> = (a: T, b: T) => number;

export class SortedList<T> implements Iterable<T> {
  private chunks: T[][] = [];
  private count = 0;

  /** `compare` must be a total order on the items held: 0 only for the item itself. */
  constructor(private readonly compare: Compare<T>) {}

  get size(): number {
    return this.count;
  }

  /** The smallest item (the first), or undefined when empty. */
  first(): T | undefined {
    return this.chunks[0]?.[0];
  }

  last(): T | undefined {
    const c = this.chunks[this.chunks.length - 1];
    return c?.[c.length - 1];
  }

  insert(x: T): void {
    if (this.chunks.length === 0) {
      this.chunks.push([x]);
      this.count = 1;
      return;
    }
    const ci = this.chunkFor(x);
    const chunk = this.chunks[ci];
    chunk.splice(this.lowerBound(chunk, x), 0, x);
    this.count++;
    if (chunk.length > MAX_CHUNK) this.chunks.splice(ci + 1, 0, chunk.splice(chunk.length >>> 1));
  }

  /** Removes the item; false when it is not in the list. */
  remove(x: T): boolean {
    if (this.count === 0) return false;
    const ci = this.chunkFor(x);
    const chunk = this.chunks[ci];
    const i = this.lowerBound(chunk, x);
    if (i >= chunk.length || this.compare(chunk[i], x) !== 0) return false;
    chunk.splice(i, 1);
    this.count--;
    if (chunk.length === 0) this.chunks.splice(ci, 1);
    else if (chunk.length < MIN_CHUNK) this.joinNeighbour(ci);
    return true;
  }

  /** The position of the item, or -1. Costs a binary search and a sum over the chunks before it. */
  indexOf(x: T): number {
    if (this.count === 0) return -1;
    const ci = this.chunkFor(x);
    const chunk = this.chunks[ci];
    const i = this.lowerBound(chunk, x);
    if (i >= chunk.length || this.compare(chunk[i], x) !== 0) return -1;
    let before = 0;
    for (let c = 0; c < ci; c++) before += this.chunks[c].length;
    return before + i;
  }

  /** Items from `start` (inclusive) to `end` (exclusive), as Array.prototype.slice takes them. */
  slice(start = 0, end = this.count): T[] {
    start = Math.max(0, start);
    end = Math.min(this.count, end);
    const out: T[] = [];
    let offset = 0;
    for (const chunk of this.chunks) {
      if (offset >= end) break;
      const next = offset + chunk.length;
      if (next > start) {
        for (let i = Math.max(0, start - offset); i < chunk.length && offset + i < end; i++) out.push(chunk[i]);
      }
      offset = next;
    }
    return out;
  }

  toArray(): T[] {
    return this.slice();
  }

  clear(): void {
    this.chunks = [];
    this.count = 0;
  }

  /** Replaces the contents by items already in order (one sort beats many inserts). */
  reset(sorted: readonly T[]): void {
    this.chunks = [];
    for (let i = 0; i < sorted.length; i += MAX_CHUNK / 2) this.chunks.push(sorted.slice(i, i + MAX_CHUNK / 2));
    this.count = sorted.length;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (const chunk of this.chunks) yield* chunk;
  }

  /** The first chunk whose last item is not below x (the last chunk when x is above all). */
  private chunkFor(x: T): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.chunks[mid];
      if (this.compare(c[c.length - 1], x) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first index in the chunk whose item is not below x. */
  private lowerBound(chunk: T[], x: T): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(chunk[mid], x) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private joinNeighbour(ci: number): void {
    const chunk = this.chunks[ci];
    const next = this.chunks[ci + 1];
    if (next && chunk.length + next.length <= MAX_CHUNK) {
      this.chunks[ci] = chunk.concat(next);
      this.chunks.splice(ci + 1, 1);
      return;
    }
    const previous = this.chunks[ci - 1];
    if (previous && previous.length + chunk.length <= MAX_CHUNK) {
      this.chunks[ci - 1] = previous.concat(chunk);
      this.chunks.splice(ci, 1);
    }
  }
}
