// Keeps kubectl's ages current on the rows VS Code has drawn: once a second, while the view
// is visible, each drawn row's time-dependent text is worked out again and only the rows
// whose text changed are refreshed. Under two minutes an age changes every second ("45s"),
// later every minute or hour, so in a quiet cluster most ticks refresh nothing.
import type { RenderContext, TreeNode } from './nodes/treeNode';

/** How often ages are checked. */
export const TICK_MS = 1000;

export class AgeTicker {
  private readonly drawn = new Map<TreeNode, string>();
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
    }
  }

  get running(): boolean {
    return this.timer !== undefined;
  }

  tick(): void {
    const started = performance.now();
    const ctx = this.context();
    const changed: TreeNode[] = [];
    for (const [node, before] of this.drawn) {
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
