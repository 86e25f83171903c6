// What the Events view shows, in plain Node over a real store: the filter and the order it
// is built for, a pause that holds the groups (and the events of the listed ones) as they
// were while the store fills, and each change told once, in the kind the tree needs.
import * as assert from 'node:assert/strict';
import { EventStore } from '../../../src/model/eventStore';
import { ShownEvents, type ShownChange } from '../../../src/services/shownEvents';
import { coreEvent, T0 } from '../model/fixtures';

const S = 1000;

function setup() {
  const store = new EventStore({ maxEvents: 1000 });
  const shown = new ShownEvents(store, 'lastSeen');
  const changes: ShownChange['kind'][] = [];
  shown.onDidChange((c) => changes.push(c.kind));
  return { store, shown, changes };
}

describe('ShownEvents', () => {
  it('shows the store through the filter, and tells group changes as they come', async () => {
    const { store, shown, changes } = setup();
    store.upsert(coreEvent({ uid: 'a', object: 'web-1', type: 'Warning', reason: 'BackOff', first: T0 }));
    store.upsert(coreEvent({ uid: 'b', object: 'web-2', first: T0 + S }));
    assert.deepEqual(shown.groups().map((g) => g.object.name), ['web-2', 'web-1']);
    assert.ok(changes.includes('groups'));
    await shown.setFilter({ types: ['Warning'] });
    assert.deepEqual(shown.groups().map((g) => g.object.name), ['web-1']);
    assert.equal(shown.groupCount, 1);
    assert.equal(changes.at(-1), 'rebuilt', 'a new filter shows another view');
    assert.ok(shown.filterApplied);
  });

  it('builds the order asked for', async () => {
    const { store, shown } = setup();
    store.upsert(coreEvent({ uid: 'a', object: 'zeta', first: T0 + S }));
    store.upsert(coreEvent({ uid: 'b', object: 'alpha', first: T0 }));
    assert.deepEqual(shown.groups().map((g) => g.object.name), ['zeta', 'alpha']);
    await shown.setSortOrder('name');
    assert.equal(shown.sortOrder, 'name');
    assert.deepEqual(shown.groups().map((g) => g.object.name), ['alpha', 'zeta']);
  });

  it('holds groups and the listed groups\' events while paused, counts what it held back, and shows it on resume', () => {
    const { store, shown, changes } = setup();
    store.upsert(coreEvent({ uid: 'a1', object: 'web-1', reason: 'Pulled', first: T0 }));
    store.upsert(coreEvent({ uid: 'b1', object: 'web-2', reason: 'Pulled', first: T0 + S }));
    const key1 = shown.groups().find((g) => g.object.name === 'web-1')?.key as string;
    const key2 = shown.groups().find((g) => g.object.name === 'web-2')?.key as string;
    let pauses = 0;
    shown.onDidChangePause(() => pauses++);
    shown.pause((key) => key === key1);
    assert.ok(shown.paused);
    changes.length = 0;
    store.upsert(coreEvent({ uid: 'a2', object: 'web-1', reason: 'Started', first: T0 + 2 * S }));
    store.upsert(coreEvent({ uid: 'b2', object: 'web-2', reason: 'Started', first: T0 + 3 * S }));
    store.upsert(coreEvent({ uid: 'c1', object: 'web-3', first: T0 + 4 * S }));
    assert.deepEqual(changes, ['held', 'held', 'held'], 'nothing but held changes reach the tree');
    assert.equal(shown.heldBackChanges, 3);
    assert.deepEqual(shown.groups().map((g) => g.object.name), ['web-2', 'web-1'], 'the groups as they were, in their order');
    assert.deepEqual(shown.group(key1)?.events.map((e) => e.uid), ['a1'], 'a listed group keeps its events');
    assert.equal(shown.group(key2)?.count, 1, 'counts as they were');
    assert.deepEqual(shown.group(key2)?.events.map((e) => e.uid), ['b2', 'b1'], 'a group first opened while paused shows its events now');
    assert.equal(shown.liveGroup(key1)?.count, 2, 'the live view went on');
    shown.resume();
    assert.ok(!shown.paused);
    assert.equal(changes.at(-1), 'rebuilt');
    assert.equal(shown.groupCount, 3);
    assert.equal(shown.heldBackChanges, 0);
    assert.equal(pauses, 2, 'pause and resume told');
  });

  it('a new filter or order ends a pause, and so does another source or a cleared store (a reset)', async () => {
    const { store, shown, changes } = setup();
    store.upsert(coreEvent({ uid: 'a', first: T0 }));
    shown.pause(() => false);
    await shown.setFilter({ text: 'Started' });
    assert.ok(!shown.paused, 'a filter');
    shown.pause(() => false);
    await shown.setSortOrder('name');
    assert.ok(!shown.paused, 'an order');
    shown.pause(() => false);
    const focused = new EventStore({ maxEvents: 10 });
    focused.upsert(coreEvent({ uid: 'f', object: 'focused', first: T0 }));
    changes.length = 0;
    await shown.setSource(focused);
    assert.ok(!shown.paused, 'another source');
    assert.deepEqual(changes, ['reset', 'rebuilt']);
    assert.equal(shown.source, focused);
    assert.deepEqual(shown.groups().map((g) => g.object.name), ['focused']);
    assert.equal(shown.event('f')?.uid, 'f');
    assert.equal(shown.event('a'), undefined, 'events come from the source shown');
    await shown.setSource(store);
    shown.pause(() => false);
    changes.length = 0;
    store.clear();
    assert.ok(!shown.paused, 'a cleared store');
    assert.ok(changes.includes('reset'));
  });

  it('while a new filter\'s or source\'s view is built, shows what it showed (paused or not), then the new view and its source in one step', async () => {
    const { store, shown, changes } = setup();
    store.upsert(coreEvent({ uid: 'w', object: 'web-1', type: 'Warning', reason: 'BackOff', first: T0 }));
    store.upsert(coreEvent({ uid: 'n', object: 'web-2', reason: 'Pulled', first: T0 + S }));
    let pauseTold: boolean[] = [];
    shown.onDidChangePause((p) => pauseTold.push(p));
    shown.pause(() => false);
    store.upsert(coreEvent({ uid: 'n2', object: 'web-3', reason: 'Pulled', first: T0 + 2 * S }));
    changes.length = 0;
    pauseTold = [];
    // Show Warnings Only while paused: the filter, then the focused store it asks the apiserver for.
    const focused = new EventStore({ maxEvents: 10 });
    focused.upsert(coreEvent({ uid: 'w', object: 'web-1', type: 'Warning', reason: 'BackOff', first: T0 }));
    const filtered = shown.setFilter({ types: ['Warning'] });
    const sourced = shown.setSource(focused);
    assert.ok(shown.paused, 'still paused while the view is built');
    assert.deepEqual(shown.groups().map((g) => g.object.name), ['web-2', 'web-1'], 'the paused rows, not the live unfiltered ones');
    assert.equal(shown.source, store, 'events still come from the store the rows are from');
    assert.equal(shown.event('n')?.uid, 'n');
    assert.deepEqual(changes, [], 'nothing to draw yet');
    await Promise.all([filtered, sourced]);
    assert.ok(!shown.paused);
    assert.deepEqual(pauseTold, [false], 'the end of the pause told once, as the new view shows');
    assert.equal(shown.source, focused);
    assert.deepEqual(shown.groups().map((g) => g.object.name), ['web-1']);
    assert.deepEqual(changes, ['reset', 'rebuilt']);
    // Not paused: the rows shown stay those of the old filter until the new view is built.
    changes.length = 0;
    const cleared = shown.setFilter({ text: 'no such text' });
    assert.deepEqual(shown.groups().map((g) => g.object.name), ['web-1']);
    await cleared;
    assert.deepEqual(shown.groups().map((g) => g.object.name), []);
    assert.deepEqual(changes, ['rebuilt']);
  });

  it('a pause taken while a new filter\'s view is built holds on once it is shown', async () => {
    const { store, shown } = setup();
    store.upsert(coreEvent({ uid: 'a', object: 'web-1', first: T0 }));
    const filtered = shown.setSortOrder('name');
    shown.pause(() => false);
    await filtered;
    assert.ok(shown.paused, 'the pause was asked for after the order');
    shown.resume();
    assert.ok(!shown.paused);
  });
});
