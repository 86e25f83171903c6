// The marks of the lanes in sight, on a transparent layer of their own. Filling thousands
// of anti-aliased circles is the costly part of a frame, so a pan or a scroll does not
// redraw them: the layer is shifted by whole device pixels and only the strip or band that
// came into sight is painted. A zoom, new lanes, a theme or a size paints it all again.
import { BUCKETS, bucketOf, lowerBound, markRadius, xOf, type MarkLane, type Scale } from './marks';
import type { Theme } from './theme';

/** Alpha of history marks (events gone from the server), and of the lines of a series. */
export const HISTORY_ALPHA = 0.38;
const SERIES_ALPHA = 0.55;

/** Where the layer sits and what it shows. */
export interface LayerView {
  readonly lanes: readonly MarkLane[];
  /** Layer pixels (CSS) of the plot and the room a mark's radius needs on either side. */
  readonly width: number;
  readonly height: number;
  readonly laneHeight: number;
  readonly maxRadius: number;
  /** The time at the layer's x = maxRadius (the plot's left edge), and the scale. */
  readonly start: number;
  readonly msPerPx: number;
  readonly scrollY: number;
}

/**
 * Paints the marks (and series lines) of the lanes crossing rows [y0, y1) and columns
 * [x0, x1) of the layer, clipped to that rectangle, which is cleared first. Per lane and
 * kind, marks on one pixel column become one circle, the largest; series lines become
 * runs of covered columns. Returns the circles filled.
 */
function paint(ctx: CanvasRenderingContext2D, theme: Theme, v: LayerView, x0: number, x1: number, y0: number, y1: number, cover: Int32Array[]): number {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x0, y0, x1 - x0, y1 - y0);
  ctx.clip();
  ctx.clearRect(x0, y0, x1 - x0, y1 - y0);
  const s: Scale = { start: v.start, msPerPx: v.msPerPx, left: v.maxRadius };
  const reach = (v.maxRadius + 1) * v.msPerPx;
  const from = v.start + (x0 - v.maxRadius) * v.msPerPx - reach;
  const to = v.start + (x1 - v.maxRadius) * v.msPerPx + reach;
  const c0 = Math.max(0, Math.floor(x0));
  const c1 = Math.min(cover[0].length - 1, Math.ceil(x1));
  const firstLane = Math.max(0, Math.floor((y0 + v.scrollY) / v.laneHeight));
  const endLane = Math.min(v.lanes.length, Math.ceil((y1 + v.scrollY) / v.laneHeight));
  const dots: Path2D[] = [];
  const spans: Path2D[] = [];
  for (let b = 0; b < BUCKETS; b++) {
    dots.push(new Path2D());
    spans.push(new Path2D());
  }
  const pendingX = new Float64Array(BUCKETS);
  const pendingR = new Float64Array(BUCKETS);
  const pendingPx = new Float64Array(BUCKETS);
  let drawn = 0;
  let cy = 0;
  const flush = (b: number) => {
    if (pendingPx[b] === -1e9) return;
    const x = pendingX[b];
    const r = pendingR[b];
    dots[b].moveTo(x + r, cy);
    dots[b].arc(x, cy, r, 0, 2 * Math.PI);
    pendingPx[b] = -1e9;
    drawn++;
  };
  for (let li = firstLane; li < endLane; li++) {
    const lane = v.lanes[li];
    cy = li * v.laneHeight - v.scrollY + v.laneHeight / 2;
    pendingPx.fill(-1e9);
    let series = false;
    const hi = lowerBound(lane.last, to + lane.maxSpan);
    for (let i = lowerBound(lane.last, from); i < hi; i++) {
      const t = lane.last[i];
      const b = bucketOf(lane.flags[i]);
      const x = xOf(s, t);
      if (lane.counts[i] > 1 && lane.first[i] < to) {
        // A series: a line from its first occurrence to its last, as covered columns.
        const a = Math.max(c0, Math.round(xOf(s, lane.first[i])));
        const z = Math.min(c1, Math.round(x));
        if (z > a) {
          cover[b][a]++;
          cover[b][z]--;
          series = true;
        }
      }
      if (t > to) continue;
      const r = markRadius(lane.counts[i], v.maxRadius);
      const px = Math.round(x);
      if (px === pendingPx[b]) {
        if (r > pendingR[b]) pendingR[b] = r;
        continue;
      }
      flush(b);
      pendingPx[b] = px;
      pendingX[b] = x;
      pendingR[b] = r;
    }
    for (let b = 0; b < BUCKETS; b++) flush(b);
    if (series) runs(cover, spans, c0, c1, cy);
  }
  // Kinds bottom to top: history under live, warnings over normal.
  ctx.lineWidth = 2;
  for (let b = 0; b < BUCKETS; b++) {
    const colour = b & 1 ? theme.warning : theme.normal;
    const history = b < 2;
    ctx.globalAlpha = history ? HISTORY_ALPHA * 0.8 : SERIES_ALPHA;
    ctx.strokeStyle = colour;
    ctx.stroke(spans[b]);
    ctx.globalAlpha = history ? HISTORY_ALPHA : 1;
    ctx.fillStyle = colour;
    ctx.fill(dots[b]);
    if (theme.contrastBorder && !history) {
      ctx.lineWidth = 1;
      ctx.strokeStyle = theme.contrastBorder;
      ctx.stroke(dots[b]);
      ctx.lineWidth = 2;
    }
  }
  ctx.restore();
  return drawn;
}

/** Each kind's covered columns in [c0, c1] as line segments; the counts are zeroed for the next lane. */
function runs(cover: Int32Array[], spans: Path2D[], c0: number, c1: number, cy: number): void {
  for (let b = 0; b < BUCKETS; b++) {
    const d = cover[b];
    let depth = 0;
    let start = -1;
    for (let c = c0; c <= c1; c++) {
      if (d[c] === 0) continue;
      const before = depth;
      depth += d[c];
      d[c] = 0;
      if (before === 0 && depth > 0) start = c;
      else if (before > 0 && depth === 0) {
        spans[b].moveTo(start, cy);
        spans[b].lineTo(c, cy);
      }
    }
  }
}

export class MarkLayer {
  private front = document.createElement('canvas');
  private back = document.createElement('canvas');
  private cover: Int32Array[] = [];
  /** What the front canvas shows: the view it was painted for, and the paint key. */
  private shown: LayerView | undefined;
  private key = '';
  private dpr = 1;
  /** Circles filled in the last frame. */
  drawn = 0;

  get canvas(): HTMLCanvasElement {
    return this.front;
  }

  /**
   * Brings the layer to view `v` and returns the start and scroll it shows, which differ from
   * v's by less than a device pixel (a shift moves whole device pixels). `key` names
   * everything else a paint depends on: the lanes, the theme, the scale.
   */
  update(v: LayerView, key: string, theme: Theme, dpr: number): { start: number; scrollY: number } {
    const w = Math.max(1, Math.ceil(v.width * dpr));
    const h = Math.max(1, Math.ceil(v.height * dpr));
    if (this.front.width !== w || this.front.height !== h || dpr !== this.dpr) {
      for (const c of [this.front, this.back]) {
        c.width = w;
        c.height = h;
      }
      this.dpr = dpr;
      this.cover = Array.from({ length: BUCKETS }, () => new Int32Array(Math.ceil(v.width) + 4));
      this.shown = undefined;
    }
    const old = this.shown;
    // The shift since the last paint, in whole device pixels (content moves opposite to the view).
    const dx = old ? Math.round(((old.start - v.start) / v.msPerPx) * dpr) : 0;
    const dy = old ? Math.round((old.scrollY - v.scrollY) * dpr) : 0;
    if (!old || key !== this.key || Math.abs(dx) >= w || Math.abs(dy) >= h) {
      const ctx = this.context(this.front);
      this.drawn = paint(ctx, theme, v, 0, v.width, 0, v.height, this.cover);
      this.shown = v;
      this.key = key;
      return { start: v.start, scrollY: v.scrollY };
    }
    const shown: LayerView = { ...v, start: old.start - (dx / dpr) * v.msPerPx, scrollY: old.scrollY - dy / dpr };
    if (dx === 0 && dy === 0) {
      this.drawn = 0;
      return { start: old.start, scrollY: old.scrollY };
    }
    const ctx = this.context(this.back);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.drawImage(this.front, dx, dy);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    let drawn = 0;
    // What came into sight: a strip at the side the content moved away from, a band likewise.
    const sx = dx / dpr;
    const sy = dy / dpr;
    if (dx > 0) drawn += paint(ctx, theme, shown, 0, sx + 1, 0, v.height, this.cover);
    else if (dx < 0) drawn += paint(ctx, theme, shown, v.width + sx - 1, v.width, 0, v.height, this.cover);
    if (dy > 0) drawn += paint(ctx, theme, shown, 0, v.width, 0, sy + 1, this.cover);
    else if (dy < 0) drawn += paint(ctx, theme, shown, 0, v.width, v.height + sy - 1, v.height, this.cover);
    [this.front, this.back] = [this.back, this.front];
    this.shown = shown;
    this.drawn = drawn;
    return { start: shown.start, scrollY: shown.scrollY };
  }

  private context(c: HTMLCanvasElement): CanvasRenderingContext2D {
    const ctx = c.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas');
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    return ctx;
  }
}
