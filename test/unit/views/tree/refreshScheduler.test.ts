// When the tree is drawn again: a burst becomes one refresh, the changed groups alone unless
// everything was asked for, nothing at all while a quick input holds the tree, and what
// waited is sent once the last hold ends.
import * as assert from 'node:assert/strict';
import { RefreshScheduler, type Refresh } from '../../../../src/views/tree/refreshScheduler';

const DELAY = 20;
const later = (ms = DELAY * 3) => new Promise((r) => setTimeout(r, ms));

function setup() {
  const sent: { all: boolean; keys: string[] }[] = [];
  const scheduler = new RefreshScheduler((r: Refresh) => sent.push({ all: r.all, keys: [...r.keys].sort() }), DELAY);
  let settles = 0;
  scheduler.onDidSettle(() => settles++);
  return { scheduler, sent, settles: () => settles };
}

describe('RefreshScheduler', () => {
  it('batches a burst of changes into one refresh of the changed groups, then settles', async () => {
    const { scheduler, sent, settles } = setup();
    scheduler.refresh(['a']);
    scheduler.refresh(['b', 'a']);
    assert.ok(!scheduler.isSettled);
    await later();
    assert.deepEqual(sent, [{ all: false, keys: ['a', 'b'] }]);
    assert.equal(settles(), 1);
    assert.ok(scheduler.isSettled);
    scheduler.dispose();
  });

  it('sends one whole refresh when anything asked for everything', async () => {
    const { scheduler, sent } = setup();
    scheduler.refresh(['a']);
    scheduler.refreshAll();
    await later();
    assert.deepEqual(sent, [{ all: true, keys: ['a'] }]);
    scheduler.dispose();
  });

  it('settles without sending when only touched (a held-back change shows in the status alone)', async () => {
    const { scheduler, sent, settles } = setup();
    scheduler.touch();
    await later();
    assert.deepEqual(sent, [{ all: false, keys: [] }]);
    assert.equal(settles(), 1);
    scheduler.dispose();
  });

  it('sends nothing while held, and what waited when the last hold ends', async () => {
    const { scheduler, sent } = setup();
    let released = 0;
    scheduler.onDidRelease(() => released++);
    const first = scheduler.hold();
    const second = scheduler.hold();
    assert.ok(scheduler.isHeld);
    scheduler.refresh(['a']);
    await later();
    assert.deepEqual(sent, [], 'held');
    first.dispose();
    first.dispose();
    await later();
    assert.deepEqual(sent, [], 'one hold is still open (and a second release of the first counts once)');
    second.dispose();
    assert.equal(released, 1);
    await later();
    assert.deepEqual(sent, [{ all: false, keys: ['a'] }]);
    scheduler.dispose();
  });

  it('sends nothing after it is disposed', async () => {
    const { scheduler, sent } = setup();
    scheduler.refresh(['a']);
    scheduler.dispose();
    scheduler.refreshAll();
    await later();
    assert.deepEqual(sent, []);
  });
});
