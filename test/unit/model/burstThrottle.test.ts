// At most one notification per window: the first at once, the rest as one summary.
import * as assert from 'node:assert/strict';
import { BurstThrottle, type Scheduler } from '../../../src/model/burstThrottle';
import { T0 } from './fixtures';

/** A clock and timers that move only when told. */
class ManualScheduler implements Scheduler {
  t = T0;
  private timers: { at: number; f: () => void; live: boolean }[] = [];
  now(): number {
    return this.t;
  }
  setTimeout(f: () => void, ms: number): { cancel(): void } {
    const timer = { at: this.t + ms, f, live: true };
    this.timers.push(timer);
    return { cancel: () => (timer.live = false) };
  }
  advance(ms: number): void {
    this.t += ms;
    for (const timer of this.timers.filter((x) => x.live && x.at <= this.t)) {
      timer.live = false;
      timer.f();
    }
  }
}

describe('BurstThrottle', () => {
  it('tells the first at once, then at most one summary per window', () => {
    const clock = new ManualScheduler();
    const told: [string[], boolean, number][] = [];
    const throttle = new BurstThrottle<string>(10_000, (items, summary) => told.push([items, summary, clock.t - T0]), clock);
    throttle.push(['a']);
    clock.advance(1000);
    throttle.push(['b']);
    clock.advance(1000);
    throttle.push(['c', 'd']);
    clock.advance(7999);
    assert.equal(told.length, 1, 'nothing more within the window');
    clock.advance(1);
    assert.deepEqual(told, [[['a'], false, 0], [['b', 'c', 'd'], true, 10_000]]);
    clock.advance(30_000);
    throttle.push(['e']);
    assert.deepEqual(told[2], [['e'], false, 40_000], 'after a quiet spell, at once again');
  });
});
