// The timeline webview's page: takes lanes from the host, draws them on a canvas once a
// frame at most, and turns the wheel, drags, clicks and keys into zoom, pan, hover and
// reveal. Event text reaches the page only through textContent and fillText.
import { MARK_HISTORY, MARK_WARNING, type HostMessage, type TimelineHeader, type WebviewMessage } from '../protocol';
import { fullTime } from './axis';
import { headerTexts } from './header';
import { hitTest, LaneSet, nearestInTime, timeOf, type MarkLane } from './marks';
import { RateBins } from './rate';
import { Renderer, scaleOf, type MarkRef } from './renderer';
import { readSavedState, type SavedState } from './savedState';
import { onThemeChange, readTheme } from './theme';
import { extentOf, TimeWindow } from './timeWindow';
import { Tooltip } from './tooltip';

export interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** A pointer that moved less than this between down and up clicked. */
const CLICK_SLOP_PX = 4;
/** How far from a mark's edge the pointer still hits it. */
const HIT_SLACK_PX = 3;
/** Wheel zoom: the factor per pixel of wheel movement. */
const WHEEL_ZOOM = 0.0015;
/** Keyboard zoom and pan steps. */
const KEY_ZOOM = 1.6;
const KEY_PAN = 0.1;
/** How often "now" moves on (a redraw only when it moved a pixel). */
const CLOCK_MS = 1000;
/** The live region's longest announcement: a screen reader reads a long message to its end. */
const ANNOUNCE_MAX = 300;

function byId<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`#${id} is missing`);
  return e as T;
}

export class TimelineApp {
  private readonly lanes = new LaneSet();
  private readonly window = new TimeWindow(extentOf(NaN, NaN, Date.now(), -Infinity));
  private readonly renderer: Renderer;
  private bins: RateBins | undefined;
  /** Host clock minus this page's clock. */
  private clockSkew = 0;
  private oldest = -Infinity;
  private header: TimelineHeader = { scope: '', filter: '', untimed: 0 };
  private scrollY = 0;
  private cursor: { lane: string; uid: string } | undefined;
  private cursorLane = 0;
  private hover: { lane: string; uid: string } | undefined;
  private focused = false;
  private frame = 0;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private drag: { id: number; x: number; y: number; lastX: number; lastY: number; moved: boolean } | undefined;
  private restored: SavedState | undefined;
  private readonly tzOffset = -new Date().getTimezoneOffset() * 60_000;
  private lastNowPx = NaN;

  private readonly canvas = byId<HTMLCanvasElement>('canvas');
  private readonly plot = byId<HTMLDivElement>('plot');
  private readonly tooltip: Tooltip;
  private readonly empty = byId<HTMLDivElement>('empty');
  private readonly live = byId<HTMLDivElement>('cursor');
  /** The cursor's event as the live region says it before its details come. */
  private cursorWords = '';

  constructor(private readonly vscode: VsCodeApi) {
    this.renderer = new Renderer(this.canvas, readTheme());
    this.tooltip = new Tooltip(byId<HTMLDivElement>('tooltip'), this.plot, (m) => vscode.postMessage(m));
    this.restored = readSavedState(vscode.getState());
    onThemeChange(() => {
      this.renderer.setTheme(readTheme());
      this.contentVersion++;
      this.requestDraw();
    });
    new ResizeObserver(() => this.resize()).observe(this.plot);
    this.resize();
    this.listen();
    setInterval(() => this.tick(), CLOCK_MS);
  }

  private get now(): number {
    return Date.now() + this.clockSkew;
  }

  private saveSoon(): void {
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      const state: SavedState = { start: this.window.start, end: this.window.end, mode: this.window.mode, scrollY: this.scrollY, cursor: this.cursor };
      this.vscode.setState(state);
    }, 500);
  }

  // ── Messages from the host ────────────────────────────────────────────────────────────
  receive(m: HostMessage): void {
    if (m.type === 'details') {
      if (this.tooltip.forCursor && m.uid === this.cursor?.uid && m.text) this.announce(m.text);
      return this.tooltip.show(m.uid, m.text);
    }
    this.clockSkew = m.now - Date.now();
    if (m.type === 'reset') this.oldest = m.oldest;
    this.header = m.header;
    this.lanes.apply(m);
    this.window.setExtent(this.extent());
    this.bins = RateBins.of(this.lanes.lanes, this.window.extentNow.start, this.window.extentNow.end);
    if (m.type === 'reset' && m.fit) {
      this.restored = undefined;
      this.window.fit();
      this.scrollY = 0;
      this.cursor = undefined;
      this.cursorLane = 0;
      this.hideTooltip();
    } else if (m.type === 'reset' && this.restored) {
      const r = this.restored;
      this.restored = undefined;
      this.window.restore(r.start, r.end, r.mode);
      this.scrollY = r.scrollY;
      this.cursor = r.cursor;
    }
    this.reconcileCursor();
    this.showHeader();
    this.contentVersion++;
    this.requestDraw();
  }

  private extent() {
    return extentOf(this.lanes.oldest, this.lanes.newest, this.now, this.oldest);
  }

  /** Lanes moved or went: the cursor keeps its lane if it is still there, else the nearest row. */
  private reconcileCursor(): void {
    const n = this.lanes.lanes.length;
    if (this.cursor) {
      const i = this.lanes.indexOf(this.cursor.lane);
      if (i >= 0) this.cursorLane = i;
      else this.cursor = undefined;
    }
    this.cursorLane = Math.min(this.cursorLane, Math.max(0, n - 1));
    if (this.hover && this.lanes.indexOf(this.hover.lane) < 0) this.hideTooltip();
    this.scrollY = Math.min(this.scrollY, this.renderer.maxScroll(n));
  }

  private showHeader(): void {
    const t = headerTexts(this.header, this.lanes.lanes.length, this.lanes.events, this.lanes.warnings);
    byId('scope').textContent = t.scope;
    byId('filter').textContent = t.filter;
    byId('summary').textContent = t.summary;
    this.empty.hidden = t.empty === undefined;
    if (t.empty !== undefined) this.empty.textContent = t.empty;
  }

  // ── Drawing ───────────────────────────────────────────────────────────────────────────
  requestDraw(): void {
    this.frame ||= requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private draw(): void {
    const cursor = this.ref(this.cursor);
    const hover = this.ref(this.hover);
    const now = this.now;
    // A frame that would look like the last one (a drag held at the extent's edge) is not drawn again.
    const nowPx = Math.round(now / scaleOf(this.renderer.layout, this.window).msPerPx);
    const key = [this.contentVersion, this.window.start, this.window.end, this.scrollY, cursor?.lane, cursor?.mark, this.cursorLane, hover?.lane, hover?.mark, this.focused, nowPx].join();
    if (key === this.drawnKey) return;
    this.drawnKey = key;
    this.renderer.draw({ lanes: this.lanes, lanesVersion: this.contentVersion, window: this.window, bins: this.bins, now, tzOffset: this.tzOffset, scrollY: this.scrollY, cursor, cursorLane: this.cursorLane, hover, focused: this.focused });
    this.saveSoon();
  }

  /** Changes with the lanes, the theme and the size: anything else drawn is in the frame key. */
  private contentVersion = 0;
  private drawnKey = '';

  private ref(m: { lane: string; uid: string } | undefined): MarkRef | undefined {
    if (!m) return undefined;
    const lane = this.lanes.indexOf(m.lane);
    const mark = lane >= 0 ? this.lanes.lanes[lane].uids.indexOf(m.uid) : -1;
    return mark >= 0 ? { lane, mark } : undefined;
  }

  private resize(): void {
    const r = this.plot.getBoundingClientRect();
    this.renderer.resize(r.width, r.height, window.devicePixelRatio || 1);
    this.contentVersion++;
    this.scrollY = Math.min(this.scrollY, this.renderer.maxScroll(this.lanes.lanes.length));
    this.draw();
  }

  /** Time passes: the extent grows; fit and follow move with it once "now" moved a pixel. */
  private tick(): void {
    if (document.hidden) return;
    const s = scaleOf(this.renderer.layout, this.window);
    const px = Math.round(this.now / s.msPerPx);
    if (px === this.lastNowPx) return;
    this.lastNowPx = px;
    this.window.setExtent(this.extent());
    this.requestDraw();
  }

  // ── Input ─────────────────────────────────────────────────────────────────────────────
  private listen(): void {
    const c = this.canvas;
    c.addEventListener('wheel', (e) => this.onWheel(e), { passive: false });
    c.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    c.addEventListener('pointermove', (e) => this.onPointerMove(e));
    c.addEventListener('pointerup', (e) => this.onPointerUp(e));
    c.addEventListener('pointercancel', () => (this.drag = undefined));
    c.addEventListener('pointerleave', () => {
      if (!this.drag) this.hideTooltip();
    });
    c.addEventListener('keydown', (e) => this.onKey(e));
    c.addEventListener('contextmenu', (e) => this.onContextMenu(e));
    c.addEventListener('focus', () => {
      this.focused = true;
      if (!this.cursor) this.placeCursor(this.firstVisibleLane(), undefined);
      this.requestDraw();
    });
    c.addEventListener('blur', () => {
      this.focused = false;
      if (this.tooltip.forCursor) this.hideTooltip();
      this.requestDraw();
    });
    byId('zoomIn').addEventListener('click', () => this.zoomCentre(1 / KEY_ZOOM));
    byId('zoomOut').addEventListener('click', () => this.zoomCentre(KEY_ZOOM));
    byId('fit').addEventListener('click', () => {
      this.window.fit();
      this.requestDraw();
    });
  }

  private local(e: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const k = e.deltaMode === WheelEvent.DOM_DELTA_LINE ? 16 : e.deltaMode === WheelEvent.DOM_DELTA_PAGE ? 400 : 1;
    const dx = e.deltaX * k;
    const dy = e.deltaY * k;
    const p = this.local(e);
    const L = this.renderer.layout;
    if (p.x < L.plotLeft || e.shiftKey) {
      // Over the labels, or with Shift: the lanes scroll.
      this.scrollBy(e.shiftKey && dx !== 0 && dy === 0 ? dx : dy);
    } else if (Math.abs(dx) > Math.abs(dy)) {
      this.window.pan(dx * scaleOf(L, this.window).msPerPx);
    } else {
      this.window.zoom(Math.exp(dy * WHEEL_ZOOM), timeOf(scaleOf(L, this.window), p.x));
    }
    this.hideTooltip();
    this.requestDraw();
  }

  private scrollBy(dy: number): void {
    this.scrollY = Math.max(0, Math.min(this.renderer.maxScroll(this.lanes.lanes.length), this.scrollY + dy));
  }

  private onPointerDown(e: PointerEvent): void {
    if (e.button !== 0) return;
    const p = this.local(e);
    this.drag = { id: e.pointerId, x: p.x, y: p.y, lastX: p.x, lastY: p.y, moved: false };
    try {
      // The drag goes on when the pointer leaves the canvas.
      this.canvas.setPointerCapture(e.pointerId);
    } catch {
      // A pointer the browser does not track (a synthetic one) cannot be captured: the drag works without.
    }
  }

  private onPointerMove(e: PointerEvent): void {
    const p = this.local(e);
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return this.hoverAt(p.x, p.y);
    if (!d.moved && Math.hypot(p.x - d.x, p.y - d.y) < CLICK_SLOP_PX) return;
    if (!d.moved) {
      d.moved = true;
      this.canvas.classList.add('dragging');
      this.hideTooltip();
    }
    this.window.pan(-(p.x - d.lastX) * scaleOf(this.renderer.layout, this.window).msPerPx);
    this.scrollBy(-(p.y - d.lastY));
    d.lastX = p.x;
    d.lastY = p.y;
    this.requestDraw();
  }

  private onPointerUp(e: PointerEvent): void {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    this.drag = undefined;
    this.canvas.classList.remove('dragging');
    if (this.canvas.hasPointerCapture(e.pointerId)) this.canvas.releasePointerCapture(e.pointerId);
    if (d.moved) return;
    const p = this.local(e);
    const hit = this.hitAt(p.x, p.y);
    if (!hit) return;
    this.cursor = { lane: hit.lane.id, uid: hit.lane.uids[hit.mark] };
    this.cursorLane = hit.index;
    this.requestDraw();
    this.vscode.postMessage({ type: 'reveal', uid: hit.lane.uids[hit.mark] });
  }

  /**
   * VS Code's context menu for a webview (webview/context) reads data-vscode-context from the
   * element right-clicked, as the menu opens: the canvas names the lane under the pointer, so
   * the lane's items (Diagnose) apply to it, and none show off the lanes.
   */
  private onContextMenu(e: MouseEvent): void {
    const L = this.renderer.layout;
    const y = this.local(e).y;
    const lane = y >= L.lanesTop ? this.lanes.lanes[Math.floor((y - L.lanesTop + this.scrollY) / L.laneHeight)] : undefined;
    this.canvas.dataset.vscodeContext = JSON.stringify(lane ? { kubernetesEventsLane: true, laneId: lane.id, preventDefaultContextMenuItems: true } : { preventDefaultContextMenuItems: true });
  }

  private hitAt(x: number, y: number): { lane: MarkLane; index: number; mark: number } | undefined {
    const L = this.renderer.layout;
    if (y < L.lanesTop || x < L.plotLeft - L.maxRadius) return undefined;
    const index = Math.floor((y - L.lanesTop + this.scrollY) / L.laneHeight);
    const lane = this.lanes.lanes[index];
    if (!lane) return undefined;
    const mark = hitTest(lane, x, scaleOf(L, this.window), L.maxRadius, HIT_SLACK_PX);
    return mark >= 0 ? { lane, index, mark } : undefined;
  }

  private hoverAt(x: number, y: number): void {
    const hit = this.hitAt(x, y);
    if (!hit) {
      if (this.hover) {
        this.hideTooltip();
        this.requestDraw();
      }
      return;
    }
    const uid = hit.lane.uids[hit.mark];
    if (this.hover?.uid === uid && this.hover.lane === hit.lane.id) return this.tooltip.place(x + 14, y + 16);
    this.hover = { lane: hit.lane.id, uid };
    this.tooltip.ask(uid, x + 14, y + 16, false);
    this.requestDraw();
  }

  private hideTooltip(): void {
    this.hover = undefined;
    this.tooltip.hide();
  }

  // ── Keyboard: a cursor on one mark ────────────────────────────────────────────────────
  private onKey(e: KeyboardEvent): void {
    const L = this.renderer.layout;
    const lane = this.lanes.lanes[this.cursorLane] as MarkLane | undefined;
    const at = this.ref(this.cursor);
    let handled = true;
    switch (e.key) {
      case 'ArrowLeft':
      case 'ArrowRight': {
        const dir = e.key === 'ArrowLeft' ? -1 : 1;
        if (e.shiftKey || !lane) this.window.pan(dir * this.window.span * KEY_PAN);
        else if (!at || at.lane !== this.cursorLane) this.placeCursor(this.cursorLane, this.window.start + this.window.span / 2);
        else this.moveCursorTo(this.cursorLane, Math.max(0, Math.min(lane.uids.length - 1, at.mark + dir)));
        break;
      }
      case 'ArrowUp':
      case 'ArrowDown': {
        const dir = e.key === 'ArrowUp' ? -1 : 1;
        if (e.shiftKey) this.scrollBy(dir * L.laneHeight);
        else this.placeCursor(this.cursorLane + dir, this.cursorTime());
        break;
      }
      case 'PageUp':
      case 'PageDown':
        this.placeCursor(this.cursorLane + (e.key === 'PageUp' ? -1 : 1) * Math.max(1, this.renderer.lanesInView - 1), this.cursorTime());
        break;
      case 'Home':
      case 'End':
        if (lane && lane.uids.length) this.moveCursorTo(this.cursorLane, e.key === 'Home' ? 0 : lane.uids.length - 1);
        break;
      case '+':
      case '=':
        this.window.zoom(1 / KEY_ZOOM, this.anchor());
        break;
      case '-':
      case '_':
        this.window.zoom(KEY_ZOOM, this.anchor());
        break;
      case '0':
        this.window.fit();
        break;
      case 'Enter':
      case ' ':
        if (this.cursor) this.vscode.postMessage({ type: 'reveal', uid: this.cursor.uid });
        break;
      case 'Escape':
        this.hideTooltip();
        break;
      default:
        handled = false;
    }
    if (!handled) return;
    e.preventDefault();
    e.stopPropagation();
    this.requestDraw();
  }

  /** Zooms keep the cursor's mark in place when it is in sight, else the centre. */
  private anchor(): number {
    const at = this.ref(this.cursor);
    const t = at ? this.lanes.lanes[at.lane].last[at.mark] : NaN;
    return t >= this.window.start && t <= this.window.end ? t : this.window.start + this.window.span / 2;
  }

  private zoomCentre(factor: number): void {
    this.window.zoom(factor, this.anchor());
    this.requestDraw();
  }

  private cursorTime(): number {
    const at = this.ref(this.cursor);
    return at ? this.lanes.lanes[at.lane].last[at.mark] : this.window.start + this.window.span / 2;
  }

  private firstVisibleLane(): number {
    return Math.min(Math.max(0, this.lanes.lanes.length - 1), Math.floor(this.scrollY / this.renderer.layout.laneHeight));
  }

  /** The cursor onto lane i, at its mark nearest to t (its newest in sight when t is undefined). */
  private placeCursor(i: number, t: number | undefined): void {
    const n = this.lanes.lanes.length;
    if (n === 0) return;
    i = Math.max(0, Math.min(n - 1, i));
    const lane = this.lanes.lanes[i];
    const mark = nearestInTime(lane, t ?? Math.min(this.window.end, this.now));
    if (mark < 0) {
      this.cursorLane = i;
      this.cursor = undefined;
      this.keepLaneInView(i);
      return;
    }
    this.moveCursorTo(i, mark);
  }

  private moveCursorTo(i: number, mark: number): void {
    const lane = this.lanes.lanes[i];
    this.cursorLane = i;
    this.cursor = { lane: lane.id, uid: lane.uids[mark] };
    this.keepLaneInView(i);
    this.window.reveal(lane.last[mark]);
    const L = this.renderer.layout;
    const s = scaleOf(L, this.window);
    const x = L.plotLeft + (lane.last[mark] - s.start) / s.msPerPx;
    const y = L.lanesTop + i * L.laneHeight - this.scrollY + L.laneHeight;
    const kind = `${lane.flags[mark] & MARK_WARNING ? 'Warning' : 'Normal'}${lane.flags[mark] & MARK_HISTORY ? ' (history)' : ''}`;
    this.cursorWords = `${lane.label}: ${kind} at ${fullTime(lane.last[mark], this.tzOffset)}, ${lane.counts[mark]}×`;
    this.live.textContent = this.cursorWords;
    this.tooltip.ask(lane.uids[mark], x + 12, y + 4, true);
  }

  /**
   * The cursor's event in the live region once its details come: what a sighted user reads in
   * the tooltip (reason and message first), on one line and cut, set as text.
   */
  private announce(details: string): void {
    // The details are the type and reason, a line per field, a blank line, then the message.
    const blank = details.indexOf('\n\n');
    const eol = details.indexOf('\n');
    const head = eol < 0 ? details : details.slice(0, eol);
    const message = blank < 0 ? '' : details.slice(blank + 2);
    const words = `${this.cursorWords}. ${head.replace(/^(Warning|Normal) /, '')}: ${message}`.replace(/\s+/g, ' ').trim();
    this.live.textContent = words.length > ANNOUNCE_MAX ? `${words.slice(0, ANNOUNCE_MAX - 1)}…` : words;
  }

  private keepLaneInView(i: number): void {
    const L = this.renderer.layout;
    const top = i * L.laneHeight;
    const room = L.height - L.lanesTop;
    if (top < this.scrollY) this.scrollY = top;
    else if (top + L.laneHeight > this.scrollY + room) this.scrollY = top + L.laneHeight - room;
    this.scrollY = Math.max(0, Math.min(this.renderer.maxScroll(this.lanes.lanes.length), this.scrollY));
  }
}
