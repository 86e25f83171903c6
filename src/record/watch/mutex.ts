// A FIFO mutex. Taking a free lock is synchronous (tryLock), so an uncontended caller
// keeps the order of its calls; contended callers queue in arrival order, as Go's
// sync.Mutex does in its starvation mode.
export class Mutex {
  private locked = false;
  private readonly waiters: (() => void)[] = [];

  /** Takes the lock now if it is free and nobody is waiting for it. */
  tryLock(): boolean {
    if (this.locked) return false;
    this.locked = true;
    return true;
  }

  lock(): Promise<void> {
    if (this.tryLock()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Hands the lock to the next waiter, if any, without letting anyone cut in. */
  unlock(): void {
    if (!this.locked) throw new Error('unlock of unlocked mutex');
    const next = this.waiters.shift();
    if (next) next();
    else this.locked = false;
  }
}
