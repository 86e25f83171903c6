// The part of time the plot shows, inside the extent the data covers: zoom about a point,
// pan, fit everything, and follow "now" while its right edge is at the present. Pure: no DOM.

export interface Extent {
  readonly start: number;
  readonly end: number;
}

/** The closest zoom: ten seconds across the plot. */
export const MIN_SPAN_MS = 10_000;
/** The smallest extent: an empty or one-event timeline still shows five minutes. */
export const MIN_EXTENT_MS = 5 * 60_000;
/** Room left around the data, as a share of its span. */
const EXTENT_PAD = 0.02;

/**
 * fit: shows the whole extent as it grows. follow: keeps its span with the right edge on
 * the extent's end (now). free: stays where the user put it.
 */
export type WindowMode = 'fit' | 'follow' | 'free';

/** The extent from the data's oldest and newest times, padded, never ending before now. */
export function extentOf(oldest: number, newest: number, now: number, floor: number): Extent {
  let start = Math.max(Number.isFinite(oldest) ? oldest : now, floor);
  let end = Math.max(Number.isFinite(newest) ? newest : now, now);
  if (start > end) start = end;
  const pad = Math.max((end - start) * EXTENT_PAD, 5_000);
  start -= pad;
  end += pad;
  if (end - start < MIN_EXTENT_MS) start = end - MIN_EXTENT_MS;
  return { start, end };
}

export class TimeWindow {
  start: number;
  end: number;
  mode: WindowMode = 'fit';

  constructor(private extent: Extent) {
    this.start = extent.start;
    this.end = extent.end;
  }

  get span(): number {
    return this.end - this.start;
  }

  get extentNow(): Extent {
    return this.extent;
  }

  /** The data or the clock moved the extent: fit and follow keep their promise, free stays put. */
  setExtent(extent: Extent): void {
    this.extent = extent;
    if (this.mode === 'fit') {
      this.start = extent.start;
      this.end = extent.end;
    } else if (this.mode === 'follow') {
      const span = Math.min(this.span, extent.end - extent.start);
      this.end = extent.end;
      this.start = this.end - span;
    }
    this.clamp();
  }

  /** Zooms by factor (below 1 zooms in) keeping `anchor` (a time) where it is on screen. */
  zoom(factor: number, anchor: number): void {
    const full = this.extent.end - this.extent.start;
    const span = Math.min(Math.max(this.span * factor, Math.min(MIN_SPAN_MS, full)), full);
    const share = this.span > 0 ? (anchor - this.start) / this.span : 0.5;
    this.start = anchor - share * span;
    this.end = this.start + span;
    this.settle();
  }

  pan(ms: number): void {
    this.start += ms;
    this.end += ms;
    this.settle();
  }

  fit(): void {
    this.start = this.extent.start;
    this.end = this.extent.end;
    this.mode = 'fit';
  }

  /** Pans the least that puts t at least `margin` (a share of the span) inside the window. */
  reveal(t: number, margin = 0.05): void {
    const m = this.span * margin;
    if (t < this.start + m) this.pan(t - m - this.start);
    else if (t > this.end - m) this.pan(t + m - this.end);
  }

  restore(start: number, end: number, mode: WindowMode): void {
    if (!Number.isFinite(start) || !Number.isFinite(end) || end <= start) return;
    this.mode = mode;
    if (mode === 'fit') return this.fit();
    this.start = start;
    this.end = end;
    this.settle();
    if (mode === 'follow') this.setExtent(this.extent);
  }

  /** After the user moved the window: which mode that leaves it in. */
  private settle(): void {
    this.clamp();
    const full = this.extent.end - this.extent.start;
    if (this.span >= full - 1) this.mode = 'fit';
    else if (this.end >= this.extent.end - this.span * 0.001) this.mode = 'follow';
    else this.mode = 'free';
  }

  private clamp(): void {
    const full = this.extent.end - this.extent.start;
    if (this.span >= full) {
      this.start = this.extent.start;
      this.end = this.extent.end;
      return;
    }
    if (this.start < this.extent.start) {
      this.end += this.extent.start - this.start;
      this.start = this.extent.start;
    }
    if (this.end > this.extent.end) {
      this.start -= this.end - this.extent.end;
      this.end = this.extent.end;
    }
  }
}
