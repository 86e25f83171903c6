// The events-per-minute strip: occurrences binned by minute (wider bins only past
// MAX_BINS), normal and warning apart. An event seen `count` times has its first and last
// occurrence at their times and the others spread evenly between (the API keeps no more).
// Each column of the strip shows the busiest bin it covers, so a burst never averages away.
// Pure: no DOM.
import { MARK_WARNING } from '../protocol';
import type { MarkLane } from './marks';

const MINUTE = 60_000;
/** Past this many one-minute bins (about 70 days), bins widen to whole minutes that keep the count under it. */
export const MAX_BINS = 100_000;

export class RateBins {
  readonly origin: number;
  readonly binMs: number;
  readonly normal: Float64Array;
  readonly warning: Float64Array;

  constructor(start: number, end: number) {
    this.binMs = Math.max(MINUTE, Math.ceil((end - start) / MAX_BINS / MINUTE) * MINUTE);
    this.origin = Math.floor(start / this.binMs) * this.binMs;
    const n = Math.max(1, Math.ceil((end - this.origin) / this.binMs) + 1);
    this.normal = new Float64Array(n);
    this.warning = new Float64Array(n);
  }

  static of(lanes: readonly MarkLane[], start: number, end: number): RateBins {
    const bins = new RateBins(start, end);
    // Spread parts go into a difference array (O(1) an event), summed once at the end.
    const spreadN = new Float64Array(bins.normal.length + 1);
    const spreadW = new Float64Array(bins.normal.length + 1);
    for (const lane of lanes) {
      for (let i = 0; i < lane.last.length; i++) {
        const w = (lane.flags[i] & MARK_WARNING) !== 0;
        bins.add(lane.first[i], lane.last[i], lane.counts[i], w ? bins.warning : bins.normal, w ? spreadW : spreadN);
      }
    }
    bins.sum(spreadN, bins.normal);
    bins.sum(spreadW, bins.warning);
    return bins;
  }

  /** The bin index of time t, or -1 outside. */
  bin(t: number): number {
    const b = Math.floor((t - this.origin) / this.binMs);
    return b >= 0 && b < this.normal.length ? b : -1;
  }

  /** Events per minute in bin b (bins wider than a minute are averaged). */
  perMinute(values: Float64Array, b: number): number {
    return (values[b] * MINUTE) / this.binMs;
  }

  private add(first: number, last: number, count: number, into: Float64Array, spread: Float64Array): void {
    const lastBin = this.bin(last);
    if (count <= 1 || last <= first) {
      if (lastBin >= 0) into[lastBin] += count;
      return;
    }
    const firstBin = this.bin(first);
    if (firstBin >= 0) into[firstBin] += 1;
    if (lastBin >= 0) into[lastBin] += 1;
    if (count === 2) return;
    // count - 2 occurrences at a constant rate over (first, last), clipped to the bins.
    const rate = (count - 2) / (last - first);
    const from = Math.max(first, this.origin);
    const to = Math.min(last, this.origin + this.normal.length * this.binMs);
    if (to <= from) return;
    const b0 = Math.floor((from - this.origin) / this.binMs);
    const b1 = Math.min(this.normal.length - 1, Math.floor((to - this.origin) / this.binMs));
    if (b0 === b1) {
      into[b0] += rate * (to - from);
      return;
    }
    into[b0] += rate * (this.origin + (b0 + 1) * this.binMs - from);
    into[b1] += rate * (to - (this.origin + b1 * this.binMs));
    if (b1 > b0 + 1) {
      spread[b0 + 1] += rate * this.binMs;
      spread[b1] -= rate * this.binMs;
    }
  }

  private sum(spread: Float64Array, into: Float64Array): void {
    let run = 0;
    for (let b = 0; b < into.length; b++) {
      run += spread[b];
      // A run that should be 0 may be a rounding error away from it.
      if (Math.abs(run) > 1e-9) into[b] += run;
    }
  }
}

/** The strip, one value per column: the busiest bin each column covers, in events per minute. */
export interface RateColumns {
  readonly normal: Float32Array;
  readonly warning: Float32Array;
  /** The busiest column's total. */
  readonly peak: number;
}

/** Columns of `width` pixels from time `start` at `msPerPx`. */
export function rateColumns(bins: RateBins, start: number, msPerPx: number, width: number): RateColumns {
  const normal = new Float32Array(width);
  const warning = new Float32Array(width);
  let peak = 0;
  const last = bins.normal.length - 1;
  for (let c = 0; c < width; c++) {
    const t0 = start + c * msPerPx;
    let b0 = Math.floor((t0 - bins.origin) / bins.binMs);
    let b1 = Math.floor((t0 + msPerPx - bins.origin) / bins.binMs);
    // A column ending exactly on a bin boundary does not reach into the next bin.
    if (b1 > b0 && bins.origin + b1 * bins.binMs >= t0 + msPerPx) b1--;
    if (b1 < 0 || b0 > last) continue;
    b0 = Math.max(0, b0);
    b1 = Math.min(last, b1);
    let best = -1;
    let bestTotal = 0;
    for (let b = b0; b <= b1; b++) {
      const total = bins.normal[b] + bins.warning[b];
      if (total > bestTotal) {
        bestTotal = total;
        best = b;
      }
    }
    if (best < 0) continue;
    normal[c] = bins.perMinute(bins.normal, best);
    warning[c] = bins.perMinute(bins.warning, best);
    peak = Math.max(peak, normal[c] + warning[c]);
  }
  return { normal, warning, peak };
}
