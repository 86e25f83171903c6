// Which warnings are news: new ones and ones whose count rose, never the baseline, history
// or what was recorded here; what the store dropped is forgotten.
import * as assert from 'node:assert/strict';
import { WarningWatch } from '../../../src/model/warningWatch';
import { coreEvent, T0 } from './fixtures';

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
