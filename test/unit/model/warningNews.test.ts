import * as assert from 'node:assert/strict';
import { BurstThrottle, type Scheduler } from '../../../src/model/burstThrottle';
import { searchEvents } from '../../../src/model/eventSearch';
import { WarningWatch } from '../../../src/model/warningWatch';
import { coreEvent, T0 } from './fixtures';

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

describe('warning news', () => {
  it('a new warning and a warning whose count rose are news; the baseline and repeats are not', () => {
    const watch = new WarningWatch();
    const old = coreEvent({ uid: 'old', type: 'Warning', reason: 'BackOff', count: 3 });
    watch.baseline([old, coreEvent({ uid: 'normal', type: 'Normal' })]);
    assert.deepEqual(watch.check([old]), [], 'the baseline is not news');
    const fresh = coreEvent({ uid: 'fresh', type: 'Warning', reason: 'Failed' });
    const rose = coreEvent({ uid: 'old', type: 'Warning', reason: 'BackOff', count: 5 });
    const news = watch.check([fresh, rose, coreEvent({ uid: 'n2', type: 'Normal' })]);
    assert.deepEqual(news.map((n) => [n.event.uid, n.isNew, n.countBefore]), [['fresh', true, 0], ['old', false, 3]]);
    assert.deepEqual(watch.check([fresh, rose]), [], 'told once');
  });

  it('history and events recorded here are not news', () => {
    const watch = new WarningWatch();
    const expired = { ...coreEvent({ uid: 'x', type: 'Warning' }), expiredAt: T0 };
    const local = { ...coreEvent({ uid: 'y', type: 'Warning' }), origin: 'local' as const };
    assert.deepEqual(watch.check([expired, local]), []);
  });

  it('forgets what the store dropped', () => {
    const watch = new WarningWatch();
    watch.baseline([coreEvent({ uid: 'a', type: 'Warning' }), coreEvent({ uid: 'b', type: 'Warning' })]);
    watch.prune((uid) => uid === 'a');
    assert.equal(watch.size, 1);
  });
});

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

describe('searchEvents', () => {
  const events = [
    coreEvent({ uid: '1', reason: 'BackOff', message: 'Back-off restarting failed container api', object: 'api-7', last: T0 + 3000 }),
    coreEvent({ uid: '2', reason: 'Pulled', message: 'Successfully pulled image "nginx:1.27"', object: 'web-1', last: T0 + 2000 }),
    { ...coreEvent({ uid: '3', reason: 'BackOff', message: 'Back-off pulling image "registry.example/broken:1"', object: 'job-x', last: T0 + 1000 }), expiredAt: T0 + 5000 },
  ];
  it('needs every word, anywhere: reason, message, object, namespace, source; newest first, history included', () => {
    assert.deepEqual(searchEvents(events, 'backoff').events.map((e) => e.uid), ['1', '3']);
    assert.deepEqual(searchEvents(events, 'back-off job-x').events.map((e) => e.uid), ['3']);
    assert.deepEqual(searchEvents(events, 'NGINX pod/web').events.map((e) => e.uid), ['2']);
    assert.deepEqual(searchEvents(events, 'kubelet default').total, 3);
    assert.deepEqual(searchEvents(events, 'nothing-like-this').total, 0);
  });
  it('cuts at the limit and says how many matched', () => {
    const r = searchEvents(events, '', 2);
    assert.deepEqual([r.events.length, r.total], [2, 3]);
  });
});
