// The event store: events by UID grouped by object, newest first; history kept after a
// delete or a relist that no longer has them; one change per batch or turn of the event
// loop. Then the memory cap: the events seen longest ago go first, the newest always stay,
// the store is never emptied, and one burst is one change notification that counts what
// was dropped.
import * as assert from 'node:assert/strict';
import { EventStore, type StoreChange } from '../../../src/model/eventStore';
import { prng } from '../../support/prng';
import { coreEvent, T0 } from './fixtures';

const S = 1000;

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
});

function shuffled<T>(xs: T[], rnd: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const uids = (store: EventStore) => new Set([...store.all()].map((e) => e.uid));

describe('EventStore memory cap', () => {
  it('one object with more events than the cap keeps its newest events, not nothing', () => {
    const store = new EventStore({ maxEvents: 100, now: () => T0 });
    for (let i = 0; i < 250; i++) store.upsert(coreEvent({ uid: `e${i}`, object: 'web-1', first: T0 + i * S }));
    assert.equal(store.size, 100);
    assert.equal(store.groupCount, 1);
    assert.equal(store.evictions, 150);
    const events = store.view()[0].events;
    assert.equal(events.length, 100);
    assert.deepEqual(
      events.map((e) => e.uid),
      Array.from({ length: 100 }, (_, k) => `e${249 - k}`),
      'the 100 newest, newest first',
    );
  });

  it('many objects, events arriving in any time order: exactly the newest survive', () => {
    const rnd = prng(8);
    const cap = 500;
    const n = 3000;
    // Distinct times in a shuffled order of arrival; 50 objects.
    const times = shuffled(Array.from({ length: n }, (_, i) => T0 + i * S), rnd);
    const store = new EventStore({ maxEvents: cap, now: () => T0 });
    let notified = 0;
    let evictedNotified = 0;
    store.onDidChange((c) => {
      notified++;
      evictedNotified += c.evicted;
    });
    times.forEach((t, i) => {
      store.upsert(coreEvent({ uid: `e${i}`, object: `obj-${Math.floor(rnd() * 50)}`, first: t }));
      assert.equal(store.size, Math.min(i + 1, cap));
    });
    const expected = times
      .map((t, i) => ({ t, uid: `e${i}` }))
      .sort((a, b) => b.t - a.t)
      .slice(0, cap)
      .map((x) => x.uid);
    assert.deepEqual(uids(store), new Set(expected));
    assert.equal(store.evictions, n - cap);
    assert.equal(evictedNotified, n - cap, 'every eviction is in a change notification');
    assert.equal(notified, n, 'one notification per upsert outside a batch, evictions included in it');
  });

  it('every event its own object: the newest objects stay, in order', () => {
    const store = new EventStore({ maxEvents: 100, now: () => T0 });
    for (let i = 0; i < 1000; i++) store.upsert(coreEvent({ uid: `e${i}`, object: `pod-${i}`, first: T0 + i * S }));
    assert.equal(store.groupCount, 100);
    assert.deepEqual(
      store.view().map((g) => g.object.name),
      Array.from({ length: 100 }, (_, k) => `pod-${999 - k}`),
    );
  });

  it('equal timestamps: the ones received last stay, and a newer time outranks arrival', () => {
    const store = new EventStore({ maxEvents: 10, now: () => T0 });
    store.upsert(coreEvent({ uid: 'newer', object: 'a', first: T0 + S }));
    for (let i = 0; i < 30; i++) store.upsert(coreEvent({ uid: `same${i}`, object: `o${i % 3}`, first: T0 }));
    assert.equal(store.size, 10);
    assert.deepEqual(uids(store), new Set(['newer', ...Array.from({ length: 9 }, (_, k) => `same${21 + k}`)]));
  });

  it('an update that makes an event newer moves it away from eviction', () => {
    const store = new EventStore({ maxEvents: 3, now: () => T0 });
    store.upsert(coreEvent({ uid: 'a', first: T0 }));
    store.upsert(coreEvent({ uid: 'b', first: T0 + S }));
    store.upsert(coreEvent({ uid: 'c', first: T0 + 2 * S }));
    store.upsert(coreEvent({ uid: 'a', first: T0, last: T0 + 10 * S, count: 2 }));
    store.upsert(coreEvent({ uid: 'd', first: T0 + 3 * S }));
    assert.deepEqual(uids(store), new Set(['a', 'c', 'd']));
  });

  it('an event older than everything held, arriving at the cap, is the one dropped', () => {
    const store = new EventStore({ maxEvents: 2, now: () => T0 });
    store.upsert(coreEvent({ uid: 'b', first: T0 + S }));
    store.upsert(coreEvent({ uid: 'c', first: T0 + 2 * S }));
    store.upsert(coreEvent({ uid: 'old', first: T0 }));
    assert.deepEqual(uids(store), new Set(['b', 'c']));
    assert.equal(store.evictions, 1);
  });

  it('a burst is one change notification, with the evicted groups and the count', () => {
    const store = new EventStore({ maxEvents: 100, now: () => T0 });
    const changes: StoreChange[] = [];
    store.onDidChange((c) => changes.push(c));
    store.batch(() => {
      for (let i = 0; i < 300; i++) store.upsert(coreEvent({ uid: `e${i}`, object: `obj-${i}`, first: T0 + i * S }));
    });
    assert.equal(changes.length, 1);
    assert.equal(changes[0].evicted, 200);
    assert.equal(store.evictions, 200);
    assert.ok(changes[0].groups.has(store.view()[0].key) && changes[0].groups.size === 300, 'every group touched, the evicted ones too');
    assert.equal(store.groupCount, 100);
  });

  it('a cap of one keeps one event', () => {
    const store = new EventStore({ maxEvents: 1, now: () => T0 });
    for (let i = 0; i < 5; i++) store.upsert(coreEvent({ uid: `e${i}`, first: T0 + i * S }));
    assert.deepEqual(uids(store), new Set(['e4']));
  });

  describe('a cap changed while the store is full (the storeCap setting)', () => {
    /** `n` events, one a second, on 1,000 objects, arriving in a shuffled order. */
    function filled(n: number, cap: number): { store: EventStore; times: number[] } {
      const times = shuffled(Array.from({ length: n }, (_, i) => T0 + i * S), prng(21));
      const store = new EventStore({ maxEvents: cap, now: () => T0 });
      store.batch(() => times.forEach((t, i) => store.upsert(coreEvent({ uid: `e${i}`, object: `obj-${i % 1000}`, first: t }))));
      return { store, times };
    }
    const newest = (times: number[], k: number) => new Set(times.map((t, i) => ({ t, uid: `e${i}` })).sort((a, b) => b.t - a.t).slice(0, k).map((x) => x.uid));

    it('lowered: exactly the newest stay, dropped in slices that let the event loop run, every drop in a notification', async () => {
      const { store, times } = filled(100_000, 100_000);
      const changes: StoreChange[] = [];
      store.onDidChange((c) => changes.push(c));
      let turns = 0;
      const ticking = setInterval(() => turns++, 0);
      const dropped = await store.setMaxEvents(10_000);
      clearInterval(ticking);
      assert.equal(dropped, 90_000);
      assert.equal(store.size, 10_000);
      assert.deepEqual(uids(store), newest(times, 10_000));
      assert.equal(store.evictions, 90_000);
      assert.equal(changes.reduce((n, c) => n + c.evicted, 0), 90_000);
      assert.ok(changes.length > 1 && turns > 0, `dropped in ${changes.length} slices, ${turns} timer turns between them: not in one block`);
      // Written after: the new cap holds.
      store.upsert(coreEvent({ uid: 'later', object: 'obj-1', first: T0 + 200_000 * S }));
      assert.equal(store.size, 10_000);
      assert.ok(uids(store).has('later'));
    });

    it('lowered while events keep arriving: each write drops at most what it adds, the newest always stay', async () => {
      const { store } = filled(60_000, 60_000);
      const sizes: number[] = [];
      let k = 0;
      const writing = setInterval(() => {
        const before = store.size;
        store.upsert(coreEvent({ uid: `new${k}`, object: 'busy', first: T0 + (100_000 + k++) * S }));
        sizes.push(before - store.size);
      }, 0);
      await store.setMaxEvents(1_000);
      clearInterval(writing);
      assert.ok(k > 0, 'writes arrived while the cap was being reached');
      assert.ok(sizes.every((d) => d <= 0), `a write never shrank the store (the slices do): ${sizes.filter((d) => d > 0).length} did`);
      assert.equal(store.size, 1_000);
      for (let i = Math.max(0, k - 1_000); i < k; i++) assert.ok(store.get(`new${i}`), `new${i}, among the newest, is kept`);
    });

    it('raised: nothing dropped, and later events are kept up to the new cap', async () => {
      const { store } = filled(3_000, 1_000);
      assert.equal(store.size, 1_000);
      assert.equal(await store.setMaxEvents(5_000), 0);
      store.batch(() => {
        for (let i = 0; i < 6_000; i++) store.upsert(coreEvent({ uid: `more${i}`, object: `obj-${i % 10}`, first: T0 + (10_000 + i) * S }));
      });
      assert.equal(store.size, 5_000);
    });

    it('raised again while a lowered cap is being reached: the dropping stops there', async () => {
      const { store } = filled(100_000, 100_000);
      const lowering = store.setMaxEvents(1_000);
      await new Promise((r) => setImmediate(r));
      const midway = store.size;
      assert.ok(midway > 1_000 && midway < 100_000, `midway: ${midway}`);
      await store.setMaxEvents(200_000);
      const dropped = await lowering;
      assert.equal(store.size, midway);
      assert.equal(dropped, 100_000 - midway);
    });
  });

  it('a shorter history window drops the history now older than it, and nothing live', async () => {
    let now = T0;
    const store = new EventStore({ now: () => now, historyWindowMs: 24 * 3_600_000 });
    for (let i = 0; i < 10; i++) store.upsert(coreEvent({ uid: `e${i}`, first: T0 + i * S }));
    for (let i = 0; i < 6; i++) {
      now = T0 + i * 3_600_000;
      store.expire(`e${i}`);
    }
    now = T0 + 6 * 3_600_000;
    assert.equal(await store.setHistoryWindow(24 * 3_600_000), 0);
    // Expired 6, 5, 4, 3, 2 and 1 hours ago: a 2.5-hour window keeps the last two.
    assert.equal(await store.setHistoryWindow(2.5 * 3_600_000), 4);
    assert.deepEqual(uids(store), new Set(['e4', 'e5', 'e6', 'e7', 'e8', 'e9']));
  });

  it('history that aged out together is pruned in slices; an event written again meanwhile stays', async () => {
    let now = T0;
    const store = new EventStore({ now: () => now, maxEvents: 200_000, historyWindowMs: 3_600_000 });
    store.batch(() => {
      for (let i = 0; i < 100_000; i++) store.upsert(coreEvent({ uid: `e${i}`, object: `obj-${i % 1000}`, first: T0 + i }));
    });
    store.batch(() => {
      for (let i = 0; i < 90_000; i++) store.expire(`e${i}`);
    });
    now += 2 * 3_600_000;
    const changes: StoreChange[] = [];
    store.onDidChange((c) => changes.push(c));
    let turns = 0;
    // Each turn between slices, an expired event comes back (a relist stores it again).
    const writing = setInterval(() => {
      turns++;
      store.upsert(coreEvent({ uid: `e${89_999 - turns}`, object: 'back', first: now }));
    }, 0);
    const pruned = await store.pruneHistory();
    clearInterval(writing);
    assert.ok(turns > 0 && changes.length > 1, `pruned in ${changes.length} notifications, ${turns} timer turns between them: not in one block`);
    // One written again before the prune reached it is skipped; after, it is back as new.
    assert.ok(pruned <= 90_000 && pruned >= 90_000 - turns, `${pruned} pruned`);
    assert.equal(store.size, 10_000 + turns, 'the live ones, and every one written again');
    assert.deepEqual([...store.all()].filter((e) => e.expiredAt !== undefined).map((e) => e.uid), [], 'no aged-out history left');
    for (let k = 1; k <= turns; k++) assert.equal(store.get(`e${89_999 - k}`)?.expiredAt, undefined, 'written again: live, kept');
  });
});
