// Keeps kubectl's ages current on the rows VS Code has drawn: every few seconds, while the
// view is visible, each drawn row's time-dependent text is worked out again and only the
// rows whose text changed are redrawn, all in one batch (an object and its newest event
// always agree). Each redrawn age is exactly what kubectl would print at that moment; rows
// older than ten minutes change at most once a minute, so a quiet cluster redraws little.
import type { RenderContext, TreeNode } from './nodes/treeNode';

/**
 * How often ages are redrawn. Not every second: redrawing a row cancels a hover that is
 * about to open on it (VS Code waits 500 ms before showing one, 1.5 s on macOS), so with
 * one-second redraws the tooltip of an event younger than ten minutes could hardly ever be
 * opened. Every 5 s the hover opens on nine rests of the pointer in ten (seven on macOS),
 * and once open it is held (below). The tooltip always shows the age of its moment.
 */
export const TICK_MS = 5000;
/**
 * A row someone points at is not redrawn for this long (nor its parent, whose refresh
 * redraws it): a redraw closes the row's hover, so a young event's tooltip could never be
 * read. VS Code asks for a row's tooltip (resolveTreeItem) when the pointer rests on it.
 */
export const HOVER_HOLD_MS = 20_000;

export class AgeTicker {
  private readonly drawn = new Map<TreeNode, string>();
  private readonly held = new Map<TreeNode, number>();
  private timer: NodeJS.Timeout | undefined;
  /** Ticks run, rows checked and rows refreshed, for the host benchmark. */
  readonly stats = { ticks: 0, checked: 0, refreshed: 0, lastTickMs: 0, maxTickMs: 0 };

  constructor(
    private readonly refresh: (nodes: TreeNode[]) => void,
    private readonly context: () => RenderContext,
  ) {}

  /** A row was drawn with this context's time. */
  rendered(node: TreeNode, ctx: RenderContext): void {
    if (this.timer === undefined || !node.clockText) return;
    this.drawn.set(node, node.clockText(ctx));
  }

  /** The pointer rests on this row: leave it and its parent as drawn for a while. */
  hold(node: TreeNode, now = Date.now()): void {
    for (let n: TreeNode | undefined = node; n; n = n.parent) this.held.set(n, now + HOVER_HOLD_MS);
  }

  /** Everything is being redrawn: what was drawn before no longer matters. */
  forget(): void {
    this.drawn.clear();
  }

  /** Ticks while the view is visible; a hidden view costs nothing. */
  setVisible(visible: boolean): void {
    if (visible && this.timer === undefined) {
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref?.();
    } else if (!visible && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.drawn.clear();
      this.held.clear();
    }
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  tick(): void {
    const started = performance.now();
    const ctx = this.context();
    const changed: TreeNode[] = [];
    for (const [node, until] of this.held) if (until <= ctx.now) this.held.delete(node);
    for (const [node, before] of this.drawn) {
      if (this.held.has(node)) continue;
      const now = node.clockText?.(ctx);
      if (now !== before) {
        changed.push(node);
        this.drawn.delete(node);
      }
    }
    this.stats.ticks++;
    this.stats.checked += this.drawn.size + changed.length;
    this.stats.refreshed += changed.length;
    if (changed.length > 0) this.refresh(changed);
    this.stats.lastTickMs = performance.now() - started;
    this.stats.maxTickMs = Math.max(this.stats.maxTickMs, this.stats.lastTickMs);
  }

  dispose(): void {
    this.setVisible(false);
  }
}
