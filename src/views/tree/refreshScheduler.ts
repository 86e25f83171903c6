// When the tree is drawn again: changes are batched into a few refreshes a second, so a
// burst of events costs a few redraws, not one each; and none is sent while a quick input
// of ours is open. VS Code gives the focus back to a tree view that had it whenever one of
// its refreshes completes (TreeView.doRefresh), and a quick input that loses the focus
// closes: one opened from a row or a title button closed by itself as it came when events
// were arriving. What changed meanwhile is sent when the last one closes.
import { Emitter } from '../../common/emitter';
import { Disposable, toDisposable, type IDisposable } from '../../common/lifecycle';

/** Refreshes are batched this long. */
export const REFRESH_DEBOUNCE_MS = 250;

/** What to draw again: everything, or the rows of these groups. */
export interface Refresh {
  readonly all: boolean;
  readonly keys: ReadonlySet<string>;
}

export class RefreshScheduler extends Disposable {
  private keys: Set<string> | undefined;
  private all = false;
  private timer: NodeJS.Timeout | undefined;
  private holds = 0;
  private readonly settled = this._register(new Emitter<void>());
  /** Fires after a batch has been sent (or found empty). */
  readonly onDidSettle = this.settled.event;
  private readonly released = this._register(new Emitter<void>());
  /** Fires when the last hold ends. */
  readonly onDidRelease = this.released.event;

  constructor(
    private readonly send: (refresh: Refresh) => void,
    private readonly delayMs = REFRESH_DEBOUNCE_MS,
  ) {
    super();
    this._register(toDisposable(() => clearTimeout(this.timer)));
  }

  refreshAll(): void {
    this.all = true;
    this.soon();
  }

  refresh(keys: Iterable<string>): void {
    for (const k of keys) (this.keys ??= new Set()).add(k);
    this.soon();
  }

  /** Nothing to redraw, but settle soon (what waits on a settle then sees the change). */
  touch(): void {
    this.soon();
  }

  /** Nothing waits to be sent. */
  get isSettled(): boolean {
    return this.timer === undefined && !this.keys && !this.all;
  }

  get isHeld(): boolean {
    return this.holds > 0;
  }

  /** Sends nothing until the returned hold (and every other) is disposed. */
  hold(): IDisposable {
    this.holds++;
    let released = false;
    return toDisposable(() => {
      if (released) return;
      released = true;
      if (--this.holds > 0) return;
      if (this.keys || this.all) this.soon();
      this.released.fire();
    });
  }

  private soon(): void {
    if (this.isDisposed) return;
    this.timer ??= setTimeout(() => this.flush(), this.delayMs);
  }

  private flush(): void {
    this.timer = undefined;
    // Kept: sent when the hold ends.
    if (this.holds > 0) return;
    const refresh = { all: this.all, keys: this.keys ?? new Set<string>() };
    this.all = false;
    this.keys = undefined;
    this.send(refresh);
    this.settled.fire();
  }
}
