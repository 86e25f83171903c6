// The lanes as the webview keeps them: marks in typed arrays sorted by time, so drawing and
// hit-testing a lane cost a binary search and the marks in sight. Updates replace whole
// lanes. Pure: no DOM.
import { MARK_HISTORY, MARK_WARNING, type HostMessage, type LaneData } from '../protocol';

/** A mark's radius in CSS pixels: grows with the log of the count, fits in its lane. */
export function markRadius(count: number, maxRadius: number): number {
  return Math.min(2.5 + 1.5 * Math.log2(Math.max(1, count)), maxRadius);
}

/** Draw order, bottom to top: history under live, warnings over normal. Hit-testing prefers the top. */
export const BUCKETS = 4;
export function bucketOf(flags: number): number {
  return (flags & MARK_HISTORY ? 0 : 2) + (flags & MARK_WARNING ? 1 : 0);
}

export interface MarkLane {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly depth: number;
  readonly uids: readonly string[];
  readonly first: Float64Array;
  /** Ascending. */
  readonly last: Float64Array;
  readonly counts: Uint32Array;
  readonly flags: Uint8Array;
  /** The longest first-to-last span: how far before the window a span can start and still show. */
  readonly maxSpan: number;
  readonly oldest: number;
  readonly newest: number;
  readonly warnings: number;
}

/** First index with a[i] >= t (a ascending). */
export function lowerBound(a: Float64Array, t: number, lo = 0, hi = a.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function toMarkLane(d: LaneData): MarkLane {
  const n = Math.min(d.uids.length, d.first.length, d.last.length, d.counts.length, d.flags.length);
  const order = Array.from({ length: n }, (_, i) => i);
  // The host sends them sorted; a lane that is not is sorted rather than drawn wrong.
  for (let i = 1; i < n; i++) {
    if (d.last[i] < d.last[i - 1]) {
      order.sort((a, b) => d.last[a] - d.last[b]);
      break;
    }
  }
  const uids = new Array<string>(n);
  const first = new Float64Array(n);
  const last = new Float64Array(n);
  const counts = new Uint32Array(n);
  const flags = new Uint8Array(n);
  let maxSpan = 0;
  let oldest = Infinity;
  let warnings = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k];
    uids[k] = String(d.uids[i]);
    last[k] = d.last[i];
    first[k] = Math.min(d.first[i], d.last[i]);
    counts[k] = d.counts[i];
    flags[k] = d.flags[i];
    maxSpan = Math.max(maxSpan, last[k] - first[k]);
    oldest = Math.min(oldest, first[k]);
    if ((flags[k] & (MARK_WARNING | MARK_HISTORY)) === MARK_WARNING) warnings++;
  }
  return { id: String(d.id), label: String(d.label), description: String(d.description), depth: Math.max(0, Math.min(8, d.depth | 0)), uids, first, last, counts, flags, maxSpan, oldest, newest: n ? last[n - 1] : -Infinity, warnings };
}

/** Every lane in order, patched by the host's messages. */
export class LaneSet {
  lanes: MarkLane[] = [];
  private readonly byId = new Map<string, MarkLane>();
  private index: Map<string, number> | undefined;
  /** Events in all lanes (a lane shared by two parents counts twice). */
  events = 0;
  warnings = 0;
  oldest = Infinity;
  newest = -Infinity;

  apply(m: Extract<HostMessage, { type: 'reset' | 'update' }>): void {
    if (m.type === 'reset') this.byId.clear();
    for (const id of m.type === 'update' ? m.removed : []) this.byId.delete(id);
    const added: string[] = [];
    for (const d of m.lanes) {
      if (!this.byId.has(d.id)) added.push(d.id);
      this.byId.set(d.id, toMarkLane(d));
    }
    if (m.type === 'reset') this.lanes = m.lanes.map((d) => this.byId.get(d.id)).filter((l): l is MarkLane => l !== undefined);
    else if (m.order) this.lanes = m.order.map((id) => this.byId.get(id)).filter((l): l is MarkLane => l !== undefined);
    else {
      // Same order: replace in place, drop the removed, new lanes (with no order sent) go last.
      const kept = this.lanes.map((l) => this.byId.get(l.id)).filter((l): l is MarkLane => l !== undefined);
      const known = new Set(kept.map((l) => l.id));
      this.lanes = [...kept, ...added.filter((id) => !known.has(id)).map((id) => this.byId.get(id) as MarkLane)];
    }
    this.index = undefined;
    this.totals();
  }

  indexOf(id: string): number {
    if (!this.index) this.index = new Map(this.lanes.map((l, i) => [l.id, i]));
    return this.index.get(id) ?? -1;
  }

  private totals(): void {
    this.events = 0;
    this.warnings = 0;
    this.oldest = Infinity;
    this.newest = -Infinity;
    for (const l of this.lanes) {
      this.events += l.uids.length;
      this.warnings += l.warnings;
      if (l.uids.length) {
        this.oldest = Math.min(this.oldest, l.oldest);
        this.newest = Math.max(this.newest, l.newest);
      }
    }
  }
}

/** Where times go on screen: x = left + (t - start) / msPerPx. */
export interface Scale {
  readonly start: number;
  readonly msPerPx: number;
  readonly left: number;
}

export function xOf(s: Scale, t: number): number {
  return s.left + (t - s.start) / s.msPerPx;
}

export function timeOf(s: Scale, x: number): number {
  return s.start + (x - s.left) * s.msPerPx;
}

/**
 * The mark under pixel px of a lane: within its radius plus `slackPx`, the topmost (live
 * warnings first), then the nearest. -1 when none.
 */
export function hitTest(lane: MarkLane, px: number, s: Scale, maxRadius: number, slackPx: number): number {
  const centre = timeOf(s, px);
  const reach = (maxRadius + slackPx) * s.msPerPx;
  const hi = lowerBound(lane.last, centre + reach);
  let best = -1;
  let bestBucket = -1;
  let bestDist = Infinity;
  for (let i = lowerBound(lane.last, centre - reach); i < hi; i++) {
    const d = Math.abs(xOf(s, lane.last[i]) - px);
    if (d > markRadius(lane.counts[i], maxRadius) + slackPx) continue;
    const b = bucketOf(lane.flags[i]);
    if (b > bestBucket || (b === bestBucket && d <= bestDist)) {
      best = i;
      bestBucket = b;
      bestDist = d;
    }
  }
  return best;
}

/** The mark of a lane nearest in time to t (for moving the keyboard cursor between lanes); -1 for an empty lane. */
export function nearestInTime(lane: MarkLane, t: number): number {
  const n = lane.last.length;
  if (n === 0) return -1;
  const i = lowerBound(lane.last, t);
  if (i >= n) return n - 1;
  if (i === 0) return 0;
  return t - lane.last[i - 1] <= lane.last[i] - t ? i - 1 : i;
}
