// Live views against the plain answer: after every change, a view kept up incrementally
// must equal the store filtered, grouped and sorted from scratch, and its change reports
// must name every group that changed and say exactly when the top-level order did.
import * as assert from 'node:assert/strict';
import { objectKey, sortTime, type ClusterEvent } from '../../../src/model/clusterEvent';
import { EventStore, type LiveView, type ViewChange, type SortOrder } from '../../../src/model/eventStore';
import { matchesFilter, NO_FILTER, type EventFilter } from '../../../src/model/filters';
import { prng } from '../../support/prng';
import { coreEvent, T0 } from './fixtures';

const S = 1000;

interface PlainGroup {
  key: string;
  uids: string[];
  lastSeen: number;
  warnings: number;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The view worked out from scratch, the obvious way. */
function plainView(store: EventStore, filter: EventFilter, order: SortOrder): PlainGroup[] {
  const groups = new Map<string, ClusterEvent[]>();
  for (const e of store.all()) {
    if (!matchesFilter(e, filter)) continue;
    const key = objectKey(e.involvedObject);
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const out = [...groups].map(([key, events]) => {
    events.sort((a, b) => sortTime(b) - sortTime(a) || Number(b.resourceVersion || 0) - Number(a.resourceVersion || 0) || cmp(a.name, b.name) || cmp(a.uid, b.uid));
    return { key, uids: events.map((e) => e.uid), lastSeen: sortTime(events[0]), warnings: events.filter((e) => e.type === 'Warning' && e.expiredAt === undefined).length, object: events[0].involvedObject };
  });
  const byLast = (a: (typeof out)[0], b: (typeof out)[0]) => b.lastSeen - a.lastSeen || cmp(a.key, b.key);
  out.sort(
    order === 'lastSeen'
      ? byLast
      : order === 'warnings'
        ? (a, b) => b.warnings - a.warnings || byLast(a, b)
        : (a, b) => a.object.name.localeCompare(b.object.name) || a.object.kind.localeCompare(b.object.kind) || a.object.namespace.localeCompare(b.object.namespace) || cmp(a.key, b.key),
  );
  return out.map(({ key, uids, lastSeen, warnings }) => ({ key, uids, lastSeen, warnings }));
}

function viewState(view: LiveView): PlainGroup[] {
  return view.groups().map((g) => ({ key: g.key, uids: g.events.map((e) => e.uid), lastSeen: g.lastSeen, warnings: g.warnings }));
}

const FILTERS: EventFilter[] = [NO_FILTER, { types: ['Warning'] }, { namespaces: ['shop'] }, { text: 'oom' }, { kinds: ['Node'], types: ['Normal'] }];
const ORDERS: SortOrder[] = ['lastSeen', 'warnings', 'name'];

describe('LiveView', () => {
  it('equals the view worked out from scratch after every change, for each filter and order, and reports exactly what changed', async function () {
    this.timeout(60_000);
    const rnd = prng(12);
    let now = T0;
    const store = new EventStore({ maxEvents: 150, historyWindowMs: 300 * S, now: () => now });
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const watched = FILTERS.flatMap((filter) =>
      ORDERS.map((order) => {
        const view = store.liveView(filter, order);
        const w = { filter, order, view, changes: [] as ViewChange[], before: plainView(store, filter, order) };
        view.onDidChange((c) => w.changes.push(c));
        return w;
      }),
    );
    let next = 0;
    const newEvent = () =>
      coreEvent({
        uid: `e${next++}`,
        object: `obj-${Math.floor(rnd() * 40)}`,
        kind: pick(['Pod', 'Pod', 'Node']),
        ns: pick(['default', 'shop', 'kube-system']),
        type: rnd() < 0.3 ? 'Warning' : 'Normal',
        reason: pick(['Started', 'BackOff', 'OOMKilling']),
        message: pick(['container OOM killed', 'pulled image', 'back-off restarting']),
        first: now - Math.floor(rnd() * 600) * S,
        rv: String(Math.floor(rnd() * 5)),
      });
    for (let step = 0; step < 1500; step++) {
      now += S;
      const r = rnd();
      const existing = [...store.all()];
      if (r < 0.45 || existing.length === 0) store.upsert(newEvent());
      else if (r < 0.65) {
        const e = pick(existing);
        store.upsert({ ...e, count: e.count + 1, lastSeen: now, type: rnd() < 0.1 ? 'Warning' : e.type });
      } else if (r < 0.75) store.expire(pick(existing).uid);
      else if (r < 0.8) {
        now += 120 * S;
        await store.pruneHistory();
      } else if (r < 0.9) store.batch(() => {
        for (let k = 0; k < 1 + Math.floor(rnd() * 30); k++) store.upsert(newEvent());
      });
      else if (r < 0.95) {
        // A relist that stores again some of what is there (each a little changed), not the rest.
        const listStart = store.sequence;
        store.batch(() => {
          for (const e of existing) if (rnd() < 0.8 && e.expiredAt === undefined) store.upsert({ ...e, lastSeen: now });
        });
        await store.reconcile('core/v1', listStart, pick(['shop', undefined]));
      }
      else if (r < 0.96) store.clear();
      else store.upsert({ ...pick(existing), message: 'now an oom message', lastSeen: now });

      for (const w of watched) {
        const after = plainView(store, w.filter, w.order);
        assert.deepEqual(viewState(w.view), after, `step ${step}: ${JSON.stringify(w.filter)} by ${w.order}`);
        const reported = new Set<string>();
        let orderChanged = false;
        let all = false;
        for (const c of w.changes) {
          for (const k of c.groups) reported.add(k);
          orderChanged ||= c.orderChanged;
          all ||= c.all;
        }
        const beforeByKey = new Map(w.before.map((g) => [g.key, JSON.stringify(g)]));
        const afterByKey = new Map(after.map((g) => [g.key, JSON.stringify(g)]));
        for (const key of new Set([...beforeByKey.keys(), ...afterByKey.keys()])) {
          if (beforeByKey.get(key) !== afterByKey.get(key)) assert.ok(all || reported.has(key), `step ${step}: group ${key} changed unreported`);
        }
        const orderNow = after.map((g) => g.key).join('\n') !== w.before.map((g) => g.key).join('\n');
        if (!all) assert.equal(orderChanged, orderNow, `step ${step}: orderChanged for ${JSON.stringify(w.filter)} by ${w.order}`);
        w.changes.length = 0;
        w.before = after;
      }
    }
    assert.ok(store.evictions > 0, 'the cap was reached along the way');
  });

  it('gives the newest events of a group and its counts without building the whole list', async () => {
    const store = new EventStore();
    for (let i = 0; i < 600; i++) store.upsert(coreEvent({ uid: `e${i}`, object: 'web', type: i % 3 === 0 ? 'Warning' : 'Normal', first: T0 + i * S }));
    const view = store.liveView();
    // Its build's slices are 5 ms of work each: on a busy machine the first holds fewer events.
    while (view.building) await new Promise((r) => setImmediate(r));
    const g = view.groups()[0];
    assert.equal(g.count, 600);
    assert.equal(g.warnings, 200);
    assert.equal(g.lastSeen, T0 + 599 * S);
    assert.deepEqual(g.newest(3).map((e) => e.uid), ['e599', 'e598', 'e597']);
    assert.equal(view.size, 600);
    assert.equal(view.indexOf(g.key), 0);
  });

  it('is built in slices over a large store, shows what it has while building, and takes in changes made meanwhile', async function () {
    this.timeout(60_000);
    let now = T0;
    const store = new EventStore({ maxEvents: 100_000, now: () => now });
    store.batch(() => {
      for (let i = 0; i < 80_000; i++) store.upsert(coreEvent({ uid: `e${i}`, object: `obj-${i % 2000}`, type: i % 4 === 0 ? 'Warning' : 'Normal', message: i % 7 === 0 ? 'OOM killed' : 'pulled', first: T0 + i }));
    });
    const filter: EventFilter = { text: 'oom' };
    const view = store.liveView(filter, 'warnings');
    assert.ok(view.building, 'still building after its first slice');
    let changesWhileBuilding = 0;
    view.onDidChange(() => changesWhileBuilding++);
    let i = 80_000;
    while (view.building) {
      await new Promise((r) => setImmediate(r));
      now += S;
      store.upsert(coreEvent({ uid: `e${i}`, object: `obj-${i % 2000}`, message: 'OOM again', first: now }));
      store.expire(`e${(i * 7) % 80_000}`);
      i++;
    }
    await view.ready;
    assert.ok(changesWhileBuilding > 1, `the view reported progress (${changesWhileBuilding} changes)`);
    assert.deepEqual(viewState(view), plainView(store, filter, 'warnings'));
  });

  it('stops building when the store is cleared, and is empty', async () => {
    const store = new EventStore();
    store.batch(() => {
      for (let i = 0; i < 50_000; i++) store.upsert(coreEvent({ uid: `e${i}`, object: `obj-${i % 100}`, first: T0 + i }));
    });
    const view = store.liveView({ text: 'container' });
    store.clear();
    await view.ready;
    assert.equal(view.groupCount, 0);
    store.upsert(coreEvent({ uid: 'after' }));
    assert.equal(view.groupCount, 1);
  });

  it('once disposed, is no longer kept up to date', () => {
    const store = new EventStore();
    const view = store.liveView();
    store.upsert(coreEvent({ uid: 'a' }));
    view.dispose();
    store.upsert(coreEvent({ uid: 'b', object: 'other' }));
    assert.equal(view.groupCount, 1);
  });
});
