// At most one notification per window: the first item after a quiet spell is told at once,
// whatever comes within the window after it is gathered and told once, as a summary, when
// the window ends. Plain Node with an injected clock and timer, for tests.

export interface Scheduler {
  now(): number;
  setTimeout(f: () => void, ms: number): { cancel(): void };
}

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (f, ms) => {
    const t = setTimeout(f, ms);
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  },
};

export class BurstThrottle<T> {
  private lastTold = -Infinity;
  private gathered: T[] = [];
  private timer: { cancel(): void } | undefined;

  constructor(
    private readonly windowMs: number,
    private readonly tell: (items: T[], summary: boolean) => void,
    private readonly scheduler: Scheduler = realScheduler,
  ) {}

  push(items: readonly T[]): void {
    if (items.length === 0) return;
    const now = this.scheduler.now();
    if (!this.timer && now - this.lastTold >= this.windowMs) {
      this.lastTold = now;
      this.tell([...items], items.length > 1);
      return;
    }
    this.gathered.push(...items);
    this.timer ??= this.scheduler.setTimeout(() => this.flush(), Math.max(0, this.lastTold + this.windowMs - now));
  }

  private flush(): void {
    this.timer = undefined;
    const items = this.gathered;
    this.gathered = [];
    if (items.length === 0) return;
    this.lastTold = this.scheduler.now();
    this.tell(items, true);
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.gathered = [];
  }
}
