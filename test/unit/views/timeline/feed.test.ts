// The timeline's host side on the real EventStore: lanes from the lane provider, marks in
// time order with their kind, the view's filter and a panel's scope applied, and updates
// that carry only the lanes a change touched.
import * as assert from 'node:assert/strict';
import type { InvolvedObject } from '../../../../src/model/clusterEvent';
import { objectKey } from '../../../../src/model/clusterEvent';
import { EventStore } from '../../../../src/model/eventStore';
import { NO_FILTER } from '../../../../src/model/filters';
import { OwnerIndex } from '../../../../src/model/ownerIndex';
import { ALL_OBJECTS, ObjectLanes, ViewLanes, type Lane, type LaneProvider } from '../../../../src/views/timeline/lanes';
import { WorkloadLanes } from '../../../../src/views/timeline/workloadLanes';
import { MARK_HISTORY, MARK_WARNING, parseWebviewMessage, type HostMessage, type LaneData } from '../../../../src/views/timeline/protocol';
import { TimelineFeed } from '../../../../src/views/timeline/timelineFeed';
import { storeSource, type TimelineSource } from '../../../../src/views/timeline/timelineSource';
import { coreEvent, T0 } from '../../model/fixtures';

const S = 1000;
const HOUR = 3600 * S;

function setup(provider: LaneProvider = new ObjectLanes()) {
  let now = T0 + HOUR;
  const store = new EventStore({ now: () => now });
  const feed = new TimelineFeed(storeSource(store), provider, { now: () => now, historyWindowMs: () => 24 * HOUR });
  return { store, feed, tick: (ms: number) => (now += ms) };
}

function lanesOf(m: HostMessage | undefined): readonly LaneData[] {
  assert.ok(m && m.type !== 'details', 'a lanes message');
  return m.lanes;
}

function keyOf(object: string, kind = 'Pod'): string {
  return objectKey({ kind, namespace: 'default', name: object, uid: `uid-${object}`, apiVersion: 'v1', fieldPath: '' });
}

describe('timeline feed', () => {
  it('sends one lane per object, newest object first, marks oldest first with count, span and kind', () => {
    const { store, feed } = setup();
    store.upsert(coreEvent({ uid: 'a1', object: 'a', first: T0, last: T0 + 10 * S }));
    store.upsert(coreEvent({ uid: 'b1', object: 'b', type: 'Warning', reason: 'BackOff', count: 7, first: T0 + 5 * S, last: T0 + 50 * S }));
    store.upsert(coreEvent({ uid: 'b2', object: 'b', first: T0 + 1 * S, last: T0 + 2 * S }));
    store.expire('a1');
    const m = feed.reset();
    assert.equal(m.type, 'reset');
    if (m.type !== 'reset') return;
    assert.equal(m.oldest, T0 + HOUR - 24 * HOUR - HOUR, 'the history window plus the apiserver TTL');
    assert.deepEqual(m.header, { scope: 'All objects', filter: '', untimed: 0 });
    assert.deepEqual(m.lanes.map((l) => [l.id, l.label, l.description]), [[keyOf('b'), 'Pod/b', 'default'], [keyOf('a'), 'Pod/a', 'default']]);
    const b = m.lanes[0];
    assert.deepEqual(b.uids, ['b2', 'b1']);
    assert.deepEqual(b.first, [T0 + 1 * S, T0 + 5 * S]);
    assert.deepEqual(b.last, [T0 + 2 * S, T0 + 50 * S]);
    assert.deepEqual(b.counts, [1, 7]);
    assert.deepEqual(b.flags, [0, MARK_WARNING]);
    assert.deepEqual(m.lanes[1].flags, [MARK_HISTORY], 'an expired event is history');
  });

  it('applies the filter and the scope; labels are one line with controls made visible', () => {
    const { store, feed } = setup();
    store.upsert(coreEvent({ uid: 'a1', object: 'a\u001b[31m\nred', type: 'Warning', first: T0 }));
    store.upsert(coreEvent({ uid: 'b1', object: 'b', first: T0 + S }));
    feed.configure({ types: ['Warning'] }, ALL_OBJECTS);
    let m = feed.reset();
    assert.deepEqual(lanesOf(m).map((l) => l.label), ['Pod/a^[[31m red']);
    assert.equal(m.type === 'reset' && m.header.filter, 'Warning');
    const b = { kind: 'Pod', namespace: 'default', name: 'b', uid: 'uid-b', apiVersion: 'v1', fieldPath: '' } satisfies InvolvedObject;
    feed.configure(NO_FILTER, { kind: 'object', key: objectKey(b), object: b });
    m = feed.reset();
    assert.deepEqual(lanesOf(m).map((l) => l.uids), [['b1']]);
    assert.equal(m.type === 'reset' && m.header.scope, 'Pod/b in default');
  });

  it('leaves out events that have no time at all, and counts them', () => {
    const { store, feed } = setup();
    store.upsert({ ...coreEvent({ uid: 'x', object: 'a' }), firstSeen: undefined, lastSeen: undefined, created: undefined });
    store.upsert(coreEvent({ uid: 'y', object: 'a', first: T0 }));
    const m = feed.reset();
    assert.deepEqual(lanesOf(m)[0].uids, ['y']);
    assert.equal(m.type === 'reset' && m.header.untimed, 1);
  });

  it('updates only the lanes a change touched; lanes that went are removed; the order is sent when it moved', () => {
    const { store, feed } = setup();
    store.upsert(coreEvent({ uid: 'a1', object: 'a', first: T0 + 2 * S }));
    store.upsert(coreEvent({ uid: 'b1', object: 'b', first: T0 + 1 * S }));
    feed.reset();
    assert.equal(feed.update(new Set(['no-such-group'])), undefined, 'nothing of ours changed');
    store.upsert(coreEvent({ uid: 'a2', object: 'a', first: T0 + 3 * S }));
    let m = feed.update(new Set([keyOf('a')]));
    assert.ok(m?.type === 'update');
    assert.deepEqual(m.lanes.map((l) => [l.id, l.uids]), [[keyOf('a'), ['a1', 'a2']]]);
    assert.deepEqual(m.removed, []);
    assert.equal(m.order, undefined, 'a stayed first');
    store.upsert(coreEvent({ uid: 'b2', object: 'b', first: T0 + 9 * S }));
    m = feed.update(new Set([keyOf('b')]));
    assert.ok(m?.type === 'update');
    assert.deepEqual(m.order, [keyOf('b'), keyOf('a')], 'b moved up');
    feed.configure({ text: 'never matches' }, ALL_OBJECTS);
    m = feed.update(new Set());
    assert.ok(m?.type === 'update');
    assert.deepEqual([...m.removed].sort(), [keyOf('a'), keyOf('b')].sort());
  });

  it('serves a roll-up provider: a lane over several groups, events merged in time order once each', () => {
    // A provider shaped like the workload roll-up: the Deployment lane holds its pods' groups too.
    const rollUp: LaneProvider = {
      lanes(source: TimelineSource): readonly Lane[] {
        const groups = source.groups(NO_FILTER);
        const keys = groups.map((g) => g.key);
        const web = { kind: 'Deployment', name: 'web', namespace: 'default', uid: 'uid-web', apiVersion: 'apps/v1', fieldPath: '' };
        return [
          { id: 'deploy/web', label: 'Deployment/web', description: 'default', depth: 0, groupKeys: keys, object: web },
          ...groups.map((g) => ({ id: g.key, label: g.key, description: '', depth: 1, groupKeys: [g.key], object: g.object })),
        ];
      },
    };
    const { store, feed } = setup(rollUp);
    store.upsert(coreEvent({ uid: 'p1', object: 'web-1', first: T0 + 3 * S }));
    store.upsert(coreEvent({ uid: 'p2', object: 'web-2', first: T0 + 1 * S }));
    store.upsert(coreEvent({ uid: 'p3', object: 'web-1', first: T0 + 2 * S }));
    const lanes = lanesOf(feed.reset());
    assert.deepEqual(lanes.map((l) => [l.id, l.depth]), [['deploy/web', 0], [keyOf('web-1'), 1], [keyOf('web-2'), 1]]);
    assert.deepEqual(lanes[0].uids, ['p2', 'p3', 'p1']);
    store.upsert(coreEvent({ uid: 'p4', object: 'web-2', first: T0 + 4 * S }));
    const m = feed.update(new Set([keyOf('web-2')]));
    assert.deepEqual(lanesOf(m).map((l) => l.id), ['deploy/web', keyOf('web-2')], 'the parent and the child that changed');
  });
});

describe('timeline workload lanes', () => {
  function ownerOf(kind: string, name: string, uid: string, owner?: [string, string, string]) {
    return { kind, namespace: 'default', name, uid, apiVersion: 'v1', owner: owner && { kind: owner[0], name: owner[1], uid: owner[2], apiVersion: 'apps/v1' } };
  }

  it('rolls lanes up as the Events view does: a Deployment lane holds its ReplicaSet\'s and pods\' events, children one level deeper', () => {
    const owners = new OwnerIndex();
    owners.set(ownerOf('Pod', 'web-1', 'uid-web-1', ['ReplicaSet', 'web-7f', 'rs1']));
    owners.set(ownerOf('Pod', 'web-2', 'uid-web-2', ['ReplicaSet', 'web-7f', 'rs1']));
    owners.set(ownerOf('ReplicaSet', 'web-7f', 'rs1', ['Deployment', 'web', 'd1']));
    let rolledUp = true;
    const grouping = new Set<() => void>();
    const lanes = new ViewLanes(() => rolledUp, new ObjectLanes(), new WorkloadLanes(owners, () => ({ dispose: () => undefined })), (l) => (grouping.add(l), { dispose: () => grouping.delete(l) }));
    const { store, feed } = setup(lanes);
    store.upsert(coreEvent({ uid: 'w1', object: 'web-1', type: 'Warning', reason: 'BackOff', first: T0 + 3 * S }));
    store.upsert(coreEvent({ uid: 'w2', object: 'web-2', first: T0 + 1 * S }));
    store.upsert(coreEvent({ uid: 'cm', object: 'settings', kind: 'ConfigMap', first: T0 + 2 * S }));
    const rolled = lanesOf(feed.reset());
    assert.deepEqual(rolled.map((l) => [l.label, l.depth, l.uids]), [
      ['Deployment/web', 0, ['w2', 'w1']],
      ['ReplicaSet/web-7f', 1, ['w2', 'w1']],
      ['Pod/web-1', 2, ['w1']],
      ['Pod/web-2', 2, ['w2']],
      ['ConfigMap/settings', 0, ['cm']],
    ]);
    assert.deepEqual(rolled[0].flags, [0, MARK_WARNING]);
    // Opened on the ReplicaSet: it and what it owns.
    const rs = rolled[1];
    feed.configure(NO_FILTER, { kind: 'object', key: rs.id, object: { kind: 'ReplicaSet', namespace: 'default', name: 'web-7f', uid: 'rs1', apiVersion: 'apps/v1', fieldPath: '' } });
    assert.deepEqual(lanesOf(feed.reset()).map((l) => l.label), ['ReplicaSet/web-7f', 'Pod/web-1', 'Pod/web-2']);
    // The view stops rolling up: object lanes again, in one update.
    feed.configure(NO_FILTER, ALL_OBJECTS);
    feed.reset();
    rolledUp = false;
    assert.equal(grouping.size, 0, 'the feed itself does not listen; the panel does');
    const m = feed.update(new Set());
    assert.ok(m?.type === 'update');
    assert.deepEqual(m.order?.length, 3);
    assert.deepEqual([...m.removed].sort(), [rolled[0].id, rolled[1].id].sort(), 'the owners without events of their own went');
  });
});

describe('timeline messages from the webview', () => {
  it('takes only the messages it knows, with a UID of sane length', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseWebviewMessage({ type: 'reveal', uid: 'u-1', extra: 1 }), { type: 'reveal', uid: 'u-1' });
    assert.deepEqual(parseWebviewMessage({ type: 'details', uid: 'u-1' }), { type: 'details', uid: 'u-1' });
    for (const bad of [null, 'reveal', 7, {}, { type: 'reveal' }, { type: 'reveal', uid: 5 }, { type: 'reveal', uid: '' }, { type: 'reveal', uid: 'x'.repeat(513) }, { type: 'command', command: 'workbench.action.closeWindow' }]) {
      assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
    }
    assert.equal((parseWebviewMessage({ type: 'problem', text: 'y'.repeat(5000) }) as { text: string }).text.length, 2000);
  });
});
