// Long work (a filter change over 200,000 events, loading or saving history) done in slices:
// each runs until its time is up, then the event loop gets a turn, so the extension host,
// which every extension shares, never waits on us for much more than SLICE_MS.
import { performance } from 'node:perf_hooks';

/** How long one slice may run. Well under the 50 ms the host's responsiveness budget allows. */
export const SLICE_MS = 5;
/** Items between two looks at the clock: reading it costs more than most items. */
const CLOCK_EVERY = 32;

/** Lets timers, I/O and other extensions run before we go on. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The time allowed to one slice of work. */
export class Slice {
  private readonly end: number;
  private n = 0;

  constructor(ms = SLICE_MS) {
    this.end = performance.now() + ms;
  }

  /** Call once per item: true when this slice's time is up. */
  spent(): boolean {
    return ++this.n % CLOCK_EVERY === 0 && performance.now() > this.end;
  }
}
