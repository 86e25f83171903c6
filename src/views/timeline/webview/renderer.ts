// Draws the timeline on one canvas: the time axis and the events-per-minute strip at the
// top, then one lane per row, labels on the left, the marks from their own layer (see
// markLayer.ts). Only what is in sight is drawn: lanes by scroll position, marks by a
// binary search on time.
import { spanText, tickLabel, ticks, tickStep } from './axis';
import { MarkLayer } from './markLayer';
import { markRadius, xOf, type LaneSet, type Scale } from './marks';
import { rateColumns, type RateBins } from './rate';
import type { Theme } from './theme';
import type { TimeWindow } from './timeWindow';

/** A tick label needs this much room. */
const TICK_MIN_PX = 90;

export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly labelWidth: number;
  readonly plotLeft: number;
  readonly plotWidth: number;
  readonly axisHeight: number;
  readonly stripTop: number;
  readonly stripHeight: number;
  readonly lanesTop: number;
  readonly laneHeight: number;
  readonly maxRadius: number;
}

export function layoutFor(width: number, height: number, fontSize: number): Layout {
  const labelWidth = Math.round(Math.min(300, Math.max(130, width * 0.22)));
  const plotLeft = labelWidth + 10;
  const axisHeight = Math.round(fontSize * 1.7);
  const stripHeight = Math.round(fontSize * 3.4);
  const laneHeight = Math.max(20, Math.round(fontSize * 1.75));
  return {
    width,
    height,
    labelWidth,
    plotLeft,
    plotWidth: Math.max(1, width - plotLeft - 12),
    axisHeight,
    stripTop: axisHeight,
    stripHeight,
    lanesTop: axisHeight + stripHeight + 4,
    laneHeight,
    maxRadius: laneHeight / 2 - 1.5,
  };
}

/** A mark: the lane's index and the mark's index in it. */
export interface MarkRef {
  readonly lane: number;
  readonly mark: number;
}

export interface Frame {
  readonly lanes: LaneSet;
  /** Changes whenever the lanes do (the mark layer is painted again). */
  readonly lanesVersion: number;
  readonly window: TimeWindow;
  readonly bins: RateBins | undefined;
  readonly now: number;
  /** Local time minus UTC, for labels. */
  readonly tzOffset: number;
  readonly scrollY: number;
  readonly cursor: MarkRef | undefined;
  /** The lane the keyboard cursor is on (it may have no mark in sight). */
  readonly cursorLane: number;
  readonly hover: MarkRef | undefined;
  readonly focused: boolean;
}

export function scaleOf(layout: Layout, window: TimeWindow): Scale {
  return { start: window.start, msPerPx: window.span / layout.plotWidth, left: layout.plotLeft };
}

export class Renderer {
  private readonly ctx: CanvasRenderingContext2D;
  layout: Layout;
  private theme: Theme;
  private readonly fitted = new Map<string, string>();
  private readonly layer = new MarkLayer();
  private themeVersion = 0;
  private dpr = 1;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    theme: Theme,
  ) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('no 2D canvas');
    this.ctx = ctx;
    this.theme = theme;
    this.layout = layoutFor(1, 1, theme.fontSize);
  }

  /** Circles filled in the last frame (after merging marks on one pixel; none when the layer only moved). */
  get drawn(): number {
    return this.layer.drawn;
  }

  setTheme(theme: Theme): void {
    this.theme = theme;
    this.themeVersion++;
    this.fitted.clear();
    this.layout = layoutFor(this.layout.width, this.layout.height, theme.fontSize);
  }

  resize(width: number, height: number, dpr: number): void {
    this.dpr = dpr;
    this.canvas.width = Math.max(1, Math.round(width * dpr));
    this.canvas.height = Math.max(1, Math.round(height * dpr));
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.layout = layoutFor(width, height, this.theme.fontSize);
    this.fitted.clear();
  }

  /** How many lanes fit below the strip. */
  get lanesInView(): number {
    return Math.max(1, Math.floor((this.layout.height - this.layout.lanesTop) / this.layout.laneHeight));
  }

  /** The scroll position that keeps every lane reachable and no more. */
  maxScroll(lanes: number): number {
    return Math.max(0, lanes * this.layout.laneHeight - (this.layout.height - this.layout.lanesTop));
  }

  draw(frame: Frame): void {
    const { ctx, layout: L, theme: T } = this;
    const msPerPx = frame.window.span / L.plotWidth;
    // The marks first: the layer may show a start and scroll a fraction of a pixel off; the
    // rest of the frame is drawn at those, so marks and axis agree.
    const at = this.layer.update(
      { lanes: frame.lanes.lanes, width: L.plotWidth + 2 * L.maxRadius, height: L.height - L.lanesTop, laneHeight: L.laneHeight, maxRadius: L.maxRadius, start: frame.window.start, msPerPx, scrollY: frame.scrollY },
      `${frame.lanesVersion}|${this.themeVersion}|${msPerPx}|${L.width}|${L.height}`,
      T,
      this.dpr,
    );
    const f = { ...frame, scrollY: at.scrollY };
    const s: Scale = { start: at.start, msPerPx, left: L.plotLeft };
    const end = at.start + frame.window.span;
    ctx.globalAlpha = 1;
    ctx.fillStyle = T.background;
    ctx.fillRect(0, 0, L.width, L.height);
    ctx.font = `${T.fontSize}px ${T.fontFamily}`;
    ctx.textBaseline = 'middle';

    const step = tickStep(msPerPx, TICK_MIN_PX);
    const tickTimes = ticks(at.start, end, step, f.tzOffset);
    const firstLane = Math.max(0, Math.floor(f.scrollY / L.laneHeight));
    const endLane = Math.min(f.lanes.lanes.length, Math.ceil((f.scrollY + L.height - L.lanesTop) / L.laneHeight));

    // Lanes: stripes, the cursor's lane and grid lines under the mark layer, labels beside it.
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, L.lanesTop, L.width, L.height - L.lanesTop);
    ctx.clip();
    for (let i = firstLane; i < endLane; i++) {
      const y = L.lanesTop + i * L.laneHeight - f.scrollY;
      if (i === f.cursorLane && f.focused) {
        ctx.fillStyle = T.selection;
        ctx.fillRect(0, y, L.width, L.laneHeight);
      } else if (i % 2 === 1) {
        ctx.globalAlpha = 0.045;
        ctx.fillStyle = T.foreground;
        ctx.fillRect(0, y, L.width, L.laneHeight);
        ctx.globalAlpha = 1;
      }
    }
    this.grid(tickTimes, s, L.lanesTop, L.height);
    const layer = this.layer.canvas;
    ctx.drawImage(layer, 0, 0, layer.width, layer.height, L.plotLeft - L.maxRadius, L.lanesTop, layer.width / this.dpr, layer.height / this.dpr);
    this.labels(f, firstLane, endLane);
    ctx.restore();

    this.header(f, s, step, tickTimes, frame.window.span);
    this.nowLine(f, s);
    this.rings(f, s);
    this.scrollbar(f);
  }

  private grid(times: number[], s: Scale, top: number, bottom: number): void {
    const { ctx, theme: T } = this;
    ctx.strokeStyle = T.grid;
    ctx.globalAlpha = 0.5;
    ctx.lineWidth = 1;
    ctx.beginPath();
    for (const t of times) {
      const x = Math.round(xOf(s, t)) + 0.5;
      ctx.moveTo(x, top);
      ctx.lineTo(x, bottom);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  private labels(f: Frame, firstLane: number, endLane: number): void {
    const { ctx, layout: L, theme: T } = this;
    ctx.fillStyle = T.background;
    ctx.globalAlpha = 1;
    for (let i = firstLane; i < endLane; i++) {
      const lane = f.lanes.lanes[i];
      const y = L.lanesTop + i * L.laneHeight - f.scrollY;
      const cy = y + L.laneHeight / 2;
      const indent = 8 + lane.depth * 12;
      const room = L.labelWidth - indent - 4;
      const warn = lane.warnings > 0 ? `⚠ ${lane.warnings}` : '';
      const warnWidth = warn ? ctx.measureText(warn).width + 8 : 0;
      const label = this.fit(lane.label, room - warnWidth);
      ctx.fillStyle = T.foreground;
      ctx.fillText(label, indent, cy);
      const used = ctx.measureText(label).width;
      if (lane.description && used + 24 < room - warnWidth) {
        ctx.fillStyle = T.dim;
        ctx.fillText(this.fit(lane.description, room - warnWidth - used - 8), indent + used + 8, cy);
      }
      if (warn) {
        ctx.fillStyle = T.warning;
        ctx.textAlign = 'right';
        ctx.fillText(warn, L.labelWidth - 2, cy);
        ctx.textAlign = 'left';
      }
    }
    ctx.strokeStyle = T.grid;
    ctx.beginPath();
    ctx.moveTo(L.labelWidth + 0.5, L.lanesTop);
    ctx.lineTo(L.labelWidth + 0.5, L.height);
    ctx.stroke();
  }

  private header(f: Frame, s: Scale, step: number, tickTimes: number[], span: number): void {
    const { ctx, layout: L, theme: T } = this;
    ctx.fillStyle = T.background;
    ctx.fillRect(0, 0, L.width, L.lanesTop);
    // The axis: tick labels centred on their tick where they fit.
    ctx.fillStyle = T.dim;
    ctx.textAlign = 'center';
    for (const t of tickTimes) {
      const x = xOf(s, t);
      const label = tickLabel(t, step, f.tzOffset);
      const w = ctx.measureText(label).width / 2;
      if (x - w < L.plotLeft || x + w > L.width) continue;
      ctx.fillText(label, x, L.axisHeight / 2);
    }
    ctx.textAlign = 'left';
    ctx.fillText(spanText(span), 8, L.axisHeight / 2);
    this.grid(tickTimes, s, L.axisHeight - 4, L.lanesTop - 4);

    // The strip: per column, normal then warnings stacked above.
    const bottom = L.stripTop + L.stripHeight;
    const width = Math.floor(L.plotWidth);
    let peak = 0;
    if (f.bins) {
      const cols = rateColumns(f.bins, s.start, s.msPerPx, width);
      peak = cols.peak;
      if (peak > 0) {
        const k = (L.stripHeight - 6) / peak;
        ctx.globalAlpha = 0.7;
        ctx.fillStyle = T.normal;
        for (let c = 0; c < width; c++) if (cols.normal[c] > 0) ctx.fillRect(L.plotLeft + c, bottom - Math.max(1, cols.normal[c] * k), 1, Math.max(1, cols.normal[c] * k));
        ctx.fillStyle = T.warning;
        for (let c = 0; c < width; c++) {
          if (cols.warning[c] <= 0) continue;
          const base = bottom - cols.normal[c] * k;
          const h = Math.max(1, cols.warning[c] * k);
          ctx.fillRect(L.plotLeft + c, base - h, 1, h);
        }
        ctx.globalAlpha = 1;
      }
    }
    ctx.strokeStyle = T.grid;
    ctx.beginPath();
    ctx.moveTo(L.plotLeft, bottom + 0.5);
    ctx.lineTo(L.plotLeft + L.plotWidth, bottom + 0.5);
    ctx.moveTo(0, L.lanesTop - 0.5);
    ctx.lineTo(L.width, L.lanesTop - 0.5);
    ctx.stroke();
    ctx.fillStyle = T.dim;
    ctx.fillText('Events per minute', 8, L.stripTop + L.stripHeight / 2 - T.fontSize * 0.6);
    ctx.fillStyle = T.foreground;
    ctx.fillText(peak > 0 ? `peak ${formatRate(peak)}` : 'none in sight', 8, L.stripTop + L.stripHeight / 2 + T.fontSize * 0.6);
  }

  private nowLine(f: Frame, s: Scale): void {
    const { ctx, layout: L, theme: T } = this;
    const x = Math.round(xOf(s, f.now)) + 0.5;
    if (x < L.plotLeft || x > L.plotLeft + L.plotWidth + 1) return;
    ctx.strokeStyle = T.focus;
    ctx.setLineDash([3, 3]);
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(x, L.axisHeight);
    ctx.lineTo(x, L.height);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = T.focus;
    ctx.textAlign = 'right';
    ctx.fillText('now', x - 3, L.stripTop + 8);
    ctx.textAlign = 'left';
  }

  /** The hovered mark and the keyboard cursor: rings around the mark. */
  private rings(f: Frame, s: Scale): void {
    const { ctx, layout: L, theme: T } = this;
    const ring = (m: MarkRef | undefined, colour: string, width: number) => {
      const lane = m && f.lanes.lanes[m.lane];
      if (!m || !lane || m.mark < 0 || m.mark >= lane.last.length) return;
      const y = L.lanesTop + m.lane * L.laneHeight - f.scrollY + L.laneHeight / 2;
      const x = xOf(s, lane.last[m.mark]);
      if (y < L.lanesTop || y > L.height || x < L.plotLeft - L.maxRadius || x > L.width) return;
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.beginPath();
      ctx.arc(x, y, markRadius(lane.counts[m.mark], L.maxRadius) + 2.5, 0, 2 * Math.PI);
      ctx.stroke();
    };
    ring(f.hover, T.foreground, 1.5);
    if (f.focused) ring(f.cursor, T.focus, 2);
    ctx.lineWidth = 1;
  }

  private scrollbar(f: Frame): void {
    const { ctx, layout: L, theme: T } = this;
    const total = f.lanes.lanes.length * L.laneHeight;
    const room = L.height - L.lanesTop;
    if (total <= room) return;
    const h = Math.max(16, (room * room) / total);
    const y = L.lanesTop + (f.scrollY / (total - room)) * (room - h);
    ctx.fillStyle = T.scrollbar;
    ctx.fillRect(L.width - 8, y, 6, h);
  }

  /** The text cut with an ellipsis to fit `width` pixels (cached: measuring is the slow part). */
  private fit(text: string, width: number): string {
    if (width <= 0) return '';
    const key = `${Math.floor(width)}\u0000${text}`;
    const known = this.fitted.get(key);
    if (known !== undefined) return known;
    let out = text;
    if (this.ctx.measureText(text).width > width) {
      let lo = 0;
      let hi = text.length;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (this.ctx.measureText(`${text.slice(0, mid)}…`).width <= width) lo = mid;
        else hi = mid - 1;
      }
      // Never cut a surrogate pair in two.
      if (lo > 0 && /[\uD800-\uDBFF]/.test(text[lo - 1])) lo--;
      out = lo > 0 ? `${text.slice(0, lo)}…` : '';
    }
    if (this.fitted.size > 5000) this.fitted.clear();
    this.fitted.set(key, out);
    return out;
  }
}

/** A rate as the strip's legend shows it: whole numbers, one decimal below ten. */
export function formatRate(perMinute: number): string {
  return `${perMinute >= 10 ? Math.round(perMinute) : Math.round(perMinute * 10) / 10}/min`;
}
