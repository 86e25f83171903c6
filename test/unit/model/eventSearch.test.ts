// Search over every event kept, history included: every word, anywhere, newest first.
import * as assert from 'node:assert/strict';
import { searchEvents } from '../../../src/model/eventSearch';
import { coreEvent, T0 } from './fixtures';

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
