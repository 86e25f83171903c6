import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { normalizeEvent } from '../../../src/cluster/normalize';
import { objectKey } from '../../../src/model/clusterEvent';
import { EventStore } from '../../../src/model/eventStore';
import { describeFilter, isFilterActive, matchesFilter } from '../../../src/model/filters';
import { describeRow, eventInterval, humanDuration, kubectlEventsRow } from '../../../src/model/kubectlFormat';
import { coreEvent, T0 } from './fixtures';

const S = 1000;

describe('normalizeEvent', () => {
  it('reads core/v1: count, first and last timestamps, source.component', () => {
    const e = coreEvent({ uid: 'a', count: 3, first: T0, last: T0 + 300 * S, source: 'kubelet' });
    assert.equal(e.count, 3);
    assert.equal(e.firstSeen, T0);
    assert.equal(e.lastSeen, T0 + 300 * S);
    assert.equal(e.source, 'kubelet');
    assert.equal(e.origin, 'core/v1');
  });

  it('reads events.k8s.io/v1: regarding, note, series, eventTime and reportingController', () => {
    const e = normalizeEvent({
      metadata: { uid: 'b', name: 'x', namespace: 'ns' },
      regarding: { kind: 'Node', name: 'n1' },
      note: 'NodeNotReady',
      reason: 'NodeNotReady',
      type: 'Warning',
      eventTime: '2026-01-01T00:00:00.250000Z',
      series: { count: 7, lastObservedTime: '2026-01-01T00:10:00.000000Z' },
      reportingController: 'node-controller',
      reportingInstance: 'kcm-1',
    }, 'events.k8s.io/v1');
    assert.deepEqual([e.count, e.firstSeen, e.lastSeen, e.source, e.message, e.involvedObject.kind], [7, T0 + 250, T0 + 600 * S, 'node-controller', 'NodeNotReady', 'Node']);
  });

  it('reads an events.k8s.io event through core/v1: series.count and reportingComponent fill the gaps', () => {
    const e = normalizeEvent({ metadata: { uid: 'c' }, involvedObject: { kind: 'Pod', name: 'p' }, count: 0, source: {}, reportingComponent: 'kubelet', eventTime: '2026-01-01T00:00:00.000000Z', series: { count: 4, lastObservedTime: '2026-01-01T00:01:00.000000Z' } }, 'core/v1');
    assert.deepEqual([e.count, e.source, e.lastSeen], [4, 'kubelet', T0 + 60 * S]);
  });

  it('counts a singleton with count 0 as 1, and treats Go zero times as missing', () => {
    const e = normalizeEvent({ metadata: { uid: 'd' }, involvedObject: {}, count: 0, firstTimestamp: null, lastTimestamp: '0001-01-01T00:00:00Z' }, 'core/v1');
    assert.deepEqual([e.count, e.firstSeen, e.lastSeen], [1, undefined, undefined]);
  });

  it('reads every time text to the millisecond however often it repeats, past the parsed-times table filling up', () => {
    // 60,000 distinct seconds (many times what the table keeps), each again later, and times with
    // fractions, offsets and Go's zero time between them.
    const at = (i: number) => new Date(T0 + i * S).toISOString().replace('.000Z', 'Z');
    const read = (first: string | null, last: string | null, eventTime?: string) => {
      const e = normalizeEvent({ metadata: { uid: 'x', creationTimestamp: last ?? undefined }, involvedObject: {}, firstTimestamp: first, lastTimestamp: last, eventTime }, 'core/v1');
      return [e.firstSeen, e.lastSeen, e.created];
    };
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < 60_000; i += pass === 0 ? 1 : 997) assert.deepEqual(read(at(i), at(i + 1)), [T0 + i * S, T0 + (i + 1) * S, T0 + (i + 1) * S], `second ${i}, pass ${pass}`);
      assert.deepEqual(read('0001-01-01T00:00:00Z', '2026-01-01T01:00:00+01:00'), [undefined, T0, T0]);
      assert.deepEqual(read(null, '0001-01-01T00:00:00Z', '2026-01-01T00:00:00.123456Z'), [T0 + 123, undefined, undefined]);
    }
  });
});

describe('normalizeEvent: one reference per object', () => {
  const ref = (o: Record<string, string>) => normalizeEvent({ metadata: { uid: `e-${Math.random()}` }, involvedObject: o }, 'core/v1').involvedObject;

  it('gives events about one object the same reference and key, made from fresh strings each time', () => {
    // Strings built at run time, as JSON.parse makes them: equal text, different strings.
    const fresh = () => ({ kind: 'Pod', namespace: 'shop', name: ['web', '7d9f'].join('-'), uid: ['0a1b', '2c3d'].join('-'), apiVersion: 'v1', fieldPath: 'spec.containers{app}' });
    const a = ref(fresh());
    const b = ref(fresh());
    assert.equal(a, b);
    assert.equal(objectKey(a), objectKey(b));
  });

  it('never shares a reference between objects that differ in any field, whatever their text', () => {
    const base = { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u1', apiVersion: 'v1', fieldPath: '' };
    const variants = [
      base,
      { ...base, fieldPath: 'spec.containers{a}' },
      { ...base, fieldPath: 'spec.containers{b}' },
      { ...base, apiVersion: 'v2' },
      { ...base, kind: 'Job' },
      { ...base, namespace: 'other' },
      { ...base, name: 'q' },
      { ...base, uid: 'u2' },
      // Text that would collide if the parts were only joined with a separator.
      { ...base, uid: '', name: 'a\u0000b', namespace: '' },
      { ...base, uid: '', name: 'a', namespace: 'b\u0000' },
    ];
    const refs = variants.map(ref);
    refs.forEach((r, i) => assert.deepEqual({ ...r }, variants[i], `variant ${i} read back as it was written`));
    assert.equal(new Set(refs).size, variants.length, 'every variant its own reference');
    assert.deepEqual(variants.map(ref), refs, 'and the same one again the next time');
  });

  it('keeps a bounded number of field paths for one object: the rest are read right, just not shared', () => {
    const paths = Array.from({ length: 200 }, (_, i) => ({ kind: 'Pod', namespace: 'ns', name: 'busy', uid: 'u-busy', apiVersion: 'v1', fieldPath: `spec.containers{c${i}}` }));
    const refs = paths.map(ref);
    refs.forEach((r, i) => assert.deepEqual({ ...r }, paths[i]));
    assert.equal(ref(paths[0]), refs[0], 'the first ones are shared');
    assert.equal(objectKey(refs[199]), objectKey(refs[0]), 'every one in the same group');
  });
});

describe('objectKey', () => {
  it('keeps a key with its object only: a copy with another name, an export or a frozen object get the right one', () => {
    const pod = { kind: 'Pod', namespace: 'ns', name: 'web/1', uid: 'u1', apiVersion: 'v1', fieldPath: '' };
    const key = objectKey(pod);
    assert.equal(key, 'Pod/ns/web%2F1/u1');
    assert.equal(objectKey(pod), key);
    // What the tree, export and the history log do with a reference: copy it, write it out.
    assert.equal(objectKey({ ...pod, name: 'web-2' }), 'Pod/ns/web-2/u1');
    assert.deepEqual(JSON.parse(JSON.stringify(pod)), { kind: 'Pod', namespace: 'ns', name: 'web/1', uid: 'u1', apiVersion: 'v1', fieldPath: '' });
    assert.deepStrictEqual({ ...pod }, { kind: 'Pod', namespace: 'ns', name: 'web/1', uid: 'u1', apiVersion: 'v1', fieldPath: '' });
    assert.equal(objectKey(Object.freeze({ ...pod, uid: 'u2' })), 'Pod/ns/web%2F1/u2');
  });
});

describe('kubectl formatting', () => {
  it('prints intervals as kubectl events and describe do', () => {
    const now = T0 + 302 * S;
    const repeated = coreEvent({ uid: 'a', count: 3, first: T0, last: now - 45 * S });
    assert.equal(eventInterval(repeated, now), '45s (x3 over 5m2s)');
    assert.equal(eventInterval(coreEvent({ uid: 'b', first: T0 }), now), '5m2s');
    assert.deepEqual(describeRow(repeated, now), ['Normal', 'Started', '45s (x3 over 5m2s)', 'kubelet', 'Started container']);
    assert.deepEqual(kubectlEventsRow(repeated, now), ['45s (x3 over 5m2s)', 'Normal', 'Started', 'Pod/web-1', 'Started container']);
  });
  it('tolerates up to 2 s of clock skew and marks the rest invalid', () => {
    assert.equal(humanDuration(-1999), '0s');
    assert.equal(humanDuration(-2000), '<invalid>');
  });
});

describe('filters', () => {
  const warning = coreEvent({ uid: 'w', type: 'Warning', reason: 'BackOff', message: 'Back-off restarting failed container', object: 'api-7', kind: 'Pod', ns: 'shop', source: 'kubelet' });
  it('match on type, namespace, kind, reason, source and text', () => {
    assert.equal(matchesFilter(warning, { types: ['Warning'] }), true);
    assert.equal(matchesFilter(warning, { types: ['Normal'] }), false);
    assert.equal(matchesFilter(warning, { namespaces: ['shop'], kinds: ['Pod'], reasons: ['BackOff'], sources: ['kubelet'] }), true);
    assert.equal(matchesFilter(warning, { namespaces: ['default'] }), false);
    assert.equal(matchesFilter(warning, { text: 'RESTARTING' }), true, 'text is case-insensitive, in the message');
    assert.equal(matchesFilter(warning, { text: 'api-7' }), true, 'and in the object name');
    assert.equal(matchesFilter(warning, { text: 'nothing' }), false);
  });
  it('describe themselves for the view', () => {
    assert.equal(isFilterActive({}), false);
    assert.equal(describeFilter({ types: ['Warning'], namespaces: ['shop'], text: 'oom' }), 'Warning · ns: shop · "oom"');
  });
});

describe('EventStore', () => {
  it('keys events by UID and updates one entry in place on MODIFIED', () => {
    const store = new EventStore();
    store.upsert(coreEvent({ uid: 'a', count: 1 }));
    store.upsert(coreEvent({ uid: 'a', count: 2, last: T0 + S }));
    assert.equal(store.size, 1);
    assert.equal(store.view()[0].events[0].count, 2);
  });

  it('groups by involved object and sorts groups and events newest first, by time not text', () => {
    const store = new EventStore();
    store.upsert(coreEvent({ uid: 'z', object: 'aaa', first: T0 + 10 * S }));
    store.upsert(coreEvent({ uid: 'y', object: 'zzz', first: T0 + 20 * S }));
    store.upsert(coreEvent({ uid: 'x', object: 'aaa', first: T0 + 5 * S, reason: 'Pulled' }));
    const view = store.view();
    assert.deepEqual(view.map((g) => g.object.name), ['zzz', 'aaa']);
    assert.deepEqual(view[1].events.map((e) => e.uid), ['z', 'x']);
  });

  it('keys objects one-to-one whatever their text, lone surrogates included', () => {
    const store = new EventStore();
    const names = ['web', 'a/b', 'a%2Fb', '\ud800', '%uD800', '\udc00\ud800', '\ud83d\ude80', '\u0000'];
    names.forEach((object, i) => store.upsert(coreEvent({ uid: `e${i}`, object, objectUid: 'same' })));
    assert.equal(store.groupCount, names.length);
    assert.deepEqual(new Set(store.view().map((g) => g.object.name)), new Set(names));
  });

  it('keeps objects with the same name but another uid (a recreated pod) apart', () => {
    const store = new EventStore();
    store.upsert(coreEvent({ uid: 'a', object: 'web', objectUid: 'old' }));
    store.upsert(coreEvent({ uid: 'b', object: 'web', objectUid: 'new' }));
    assert.equal(store.groupCount, 2);
  });

  it('keeps a deleted event as expired history, and prunes it after the window', async () => {
    let now = T0;
    const store = new EventStore({ historyWindowMs: 60 * S, now: () => now });
    store.upsert(coreEvent({ uid: 'a' }));
    store.expire('a');
    assert.equal(store.get('a')?.expiredAt, T0);
    now += 30 * S;
    assert.equal(await store.pruneHistory(), 0);
    now += 31 * S;
    assert.equal(await store.pruneHistory(), 1);
    assert.equal(store.size, 0);
  });

  it('marks what a relist no longer has as expired, only in the namespace listed', async () => {
    const store = new EventStore();
    store.upsert(coreEvent({ uid: 'a', ns: 'one' }));
    store.upsert(coreEvent({ uid: 'b', ns: 'one' }));
    store.upsert(coreEvent({ uid: 'c', ns: 'two' }));
    // A relist of namespace one: it stores only a, again.
    const listStart = store.sequence;
    store.upsert(coreEvent({ uid: 'a', ns: 'one' }));
    assert.equal(await store.reconcile('core/v1', listStart, 'one'), 1);
    assert.equal(store.get('a')?.expiredAt, undefined);
    assert.ok(store.get('b')?.expiredAt);
    assert.equal(store.get('c')?.expiredAt, undefined);
  });

  it('expires what a relist no longer has in slices, letting the event loop run, and never an event stored again meanwhile', async function () {
    this.timeout(60_000);
    const N = 200_000;
    const store = new EventStore({ maxEvents: N * 2 });
    store.batch(() => {
      for (let i = 0; i < N; i++) store.upsert(coreEvent({ uid: `e${i}`, object: `pod-${i % 5000}` }));
    });
    // A relist that stored none of them: every one is gone from the server...
    const listStart = store.sequence;
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const reconciled = store.reconcile('core/v1', listStart);
    // After its first slice the walk is part way: some expired, the rest not yet reached.
    const notYet: string[] = [];
    for (let i = 0; i < N; i++) if (store.get(`e${i}`)?.expiredAt === undefined) notYet.push(`e${i}`);
    assert.ok(notYet.length > 0 && notYet.length < N, `part way after the first slice: ${N - notYet.length} of ${N} expired`);
    // One not yet reached comes back on another write while the walk is under way.
    const back = notYet[notYet.length - 1];
    store.upsert(coreEvent({ uid: back, object: 'pod-back', message: 'stored again' }));
    const expired = await reconciled;
    clearInterval(ticker);
    assert.equal(expired, N - 1);
    assert.equal(store.get(back)?.expiredAt, undefined, 'the event stored again during the walk stays live');
    assert.equal(notYet.filter((uid) => uid !== back && store.get(uid)?.expiredAt === undefined).length, 0, 'every other one expired');
    assert.ok(turns > 0, 'timers ran while the store was gone through');
  });

  it('replaces a locally recorded event by its copy from the server', () => {
    const store = new EventStore();
    store.upsert({ ...coreEvent({ uid: 'local:default/web.1', name: 'web.1' }), origin: 'local' });
    store.upsert(coreEvent({ uid: 'server-uid', name: 'web.1', count: 2 }));
    assert.equal(store.size, 1);
    assert.equal(store.get('server-uid')?.count, 2);
    store.upsert({ ...coreEvent({ uid: 'local:default/web.1', name: 'web.1', count: 3 }), origin: 'local' });
    assert.equal(store.size, 1, 'a later local copy does not displace the live server event');
  });

  it('filters incrementally: only groups that changed are filtered again', () => {
    const store = new EventStore();
    const warningsOnly = { types: ['Warning'] };
    store.upsert(coreEvent({ uid: 'a', object: 'p1', type: 'Warning' }));
    store.upsert(coreEvent({ uid: 'b', object: 'p2' }));
    const first = store.view(warningsOnly);
    assert.deepEqual(first.map((g) => g.object.name), ['p1']);
    store.upsert(coreEvent({ uid: 'c', object: 'p2', type: 'Warning', first: T0 + S }));
    const second = store.view(warningsOnly);
    assert.deepEqual(second.map((g) => g.object.name), ['p2', 'p1']);
    assert.equal(second[1], first[0], 'the untouched group is the same object: not filtered again');
  });

  it('notifies once per batch with the groups touched', () => {
    const store = new EventStore();
    const changes: number[] = [];
    store.onDidChange((c) => changes.push(c.groups.size));
    store.batch(() => {
      store.upsert(coreEvent({ uid: 'a', object: 'p1' }));
      store.upsert(coreEvent({ uid: 'b', object: 'p2' }));
    });
    assert.deepEqual(changes, [2]);
  });

  it('makes the writes of one turn of the event loop one change (a burst of recorded events), the views current after it', async () => {
    const store = new EventStore();
    const view = store.liveView();
    const changes: number[] = [];
    store.onDidChange((c) => changes.push(c.groups.size));
    // Each write on its own, as the recorder's sink makes them: one after another in microtasks.
    for (let i = 0; i < 300; i++) {
      await Promise.resolve();
      store.batchUntilNextTurn();
      store.upsert(coreEvent({ uid: `r${i}`, object: `cm-${i % 30}` }));
    }
    assert.deepEqual(changes, [], 'nothing sent within the turn');
    assert.equal(store.size, 300, 'every event stored at once');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(changes, [30], 'one change with the 30 groups touched');
    assert.equal(view.groupCount, 30);
    store.batchUntilNextTurn();
    store.upsert(coreEvent({ uid: 'later', object: 'cm-x' }));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(changes, [30, 1], 'the next turn opens its own');
    view.dispose();
  });

  it('keeps its history across a restart in the folder it is given, one log per cluster identity', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-history-'));
    try {
      const store = new EventStore({ historyFolder: folder });
      await store.loadHistory('cluster-a');
      store.upsert(coreEvent({ uid: 'a' }));
      store.upsert(coreEvent({ uid: 'b' }));
      store.expire('b');
      await store.saveHistory();
      const reloaded = new EventStore({ historyFolder: folder });
      assert.equal(await reloaded.loadHistory('cluster-a'), 2);
      assert.ok(reloaded.get('b')?.expiredAt, 'expired stays expired');
      assert.equal(reloaded.get('a')?.expiredAt, undefined);
      assert.equal(await new EventStore({ historyFolder: folder }).loadHistory('cluster-b'), 0, 'each cluster has its own history');
      const file = store.historyLog?.file as string;
      fs.writeFileSync(file, '{broken');
      assert.equal(await new EventStore({ historyFolder: folder }).loadHistory('cluster-a'), 0, 'a damaged file is ignored');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
