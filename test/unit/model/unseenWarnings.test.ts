// The count on the view's badge: live warnings that appeared or whose count rose since the
// user last looked, through the store as it is written and capped.
import * as assert from 'node:assert/strict';
import { EventStore } from '../../../src/model/eventStore';
import { coreEvent, T0 } from './fixtures';

const S = 1000;

describe('unseen warnings (the badge)', () => {
  it('counts live warnings that appeared or whose count rose since markSeen, and nothing else', () => {
    const store = new EventStore({ now: () => T0 });
    const badge = store.unseenWarnings;
    store.upsert(coreEvent({ uid: 'n', type: 'Normal' }));
    store.upsert(coreEvent({ uid: 'w1', type: 'Warning' }));
    store.upsert(coreEvent({ uid: 'w2', type: 'Warning', object: 'db' }));
    assert.equal(badge.count, 2);
    store.upsert(coreEvent({ uid: 'w1', type: 'Warning', count: 2 }));
    assert.equal(badge.count, 2, 'the same warning again is still one');
    badge.markSeen();
    assert.equal(badge.count, 0);
    store.upsert(coreEvent({ uid: 'w2', type: 'Warning', object: 'db', message: 'same count, other text' }));
    assert.equal(badge.count, 0, 'a change without a new occurrence is not new');
    store.upsert(coreEvent({ uid: 'w2', type: 'Warning', object: 'db', count: 5 }));
    assert.equal(badge.count, 1, 'its count rose');
    store.expire('w2');
    assert.equal(badge.count, 0, 'an expired warning is not live');
    store.upsert(coreEvent({ uid: 'n', type: 'Normal', count: 9 }));
    assert.equal(badge.count, 0);
  });

  it('forgets warnings the cap evicted', () => {
    const store = new EventStore({ maxEvents: 2, now: () => T0 });
    store.upsert(coreEvent({ uid: 'w', type: 'Warning', first: T0 }));
    store.upsert(coreEvent({ uid: 'a', first: T0 + S }));
    store.upsert(coreEvent({ uid: 'b', first: T0 + 2 * S }));
    assert.equal(store.unseenWarnings.count, 0);
  });
});
