// The three groupings, in keys, over a real store and a real owner index: what sits at the
// top and under each row, which changes need the whole tree drawn again, and which rows a
// whole redraw drops (gone, or moved under another parent).
import * as assert from 'node:assert/strict';
import { Emitter } from '../../../../src/common/emitter';
import { EventStore } from '../../../../src/model/eventStore';
import { OwnerIndex } from '../../../../src/model/ownerIndex';
import { ShownEvents } from '../../../../src/services/shownEvents';
import { isObjectRow, type Row, type RowCache } from '../../../../src/views/tree/groupings/grouping';
import { NamespaceGrouping } from '../../../../src/views/tree/groupings/namespaceGrouping';
import { ObjectGrouping } from '../../../../src/views/tree/groupings/objectGrouping';
import { WorkloadGrouping } from '../../../../src/views/tree/groupings/workloadGrouping';
import { coreEvent, T0 } from '../../model/fixtures';

const label = (r: Row) => (isObjectRow(r) ? `${r.object.kind}/${r.object.name}` : `ns:${r.namespace}`);

/** The rows a tree made: object keys with their parent's key, and namespaces. */
class Rows implements RowCache {
  readonly objects = new Map<string, string | undefined>();
  readonly ns = new Set<string>();
  readonly dropped: string[] = [];
  objectKeys() {
    return this.objects.keys();
  }
  parentKeyOf(key: string) {
    return this.objects.get(key);
  }
  namespaces() {
    return this.ns.values();
  }
  dropObject(key: string, gone: boolean) {
    this.objects.delete(key);
    this.dropped.push(`${gone ? 'gone' : 'moved'}:${key}`);
  }
  dropNamespace(ns: string) {
    this.ns.delete(ns);
    this.dropped.push(`ns:${ns}`);
  }
}

function storeWith() {
  const store = new EventStore({ maxEvents: 1000 });
  const shown = new ShownEvents(store, 'lastSeen');
  store.upsert(coreEvent({ uid: 'p1', kind: 'Pod', object: 'web-7c9c-abcde', objectUid: 'pod-1', ns: 'shop', first: T0 + 2000 }));
  store.upsert(coreEvent({ uid: 'd1', kind: 'Deployment', object: 'web', objectUid: 'dep-1', ns: 'shop', first: T0 + 1000 }));
  store.upsert(coreEvent({ uid: 'n1', kind: 'Node', object: 'node-a', objectUid: 'node-1', ns: '', first: T0 }));
  return { store, shown };
}

describe('groupings', () => {
  it('object: every object at the top in the view\'s order, nothing beneath, whole redraws only when the order changes', () => {
    const { store, shown } = storeWith();
    const g = new ObjectGrouping(shown);
    assert.deepEqual(g.roots().map(label), ['Pod/web-7c9c-abcde', 'Deployment/web', 'Node/node-a']);
    const changes: boolean[] = [];
    shown.onDidChange((c) => changes.push(g.take(c)));
    store.upsert(coreEvent({ uid: 'p2', kind: 'Pod', object: 'web-7c9c-abcde', objectUid: 'pod-1', ns: 'shop', first: T0 + 3000 }));
    store.upsert(coreEvent({ uid: 'n2', kind: 'Node', object: 'node-a', objectUid: 'node-1', ns: '', first: T0 + 4000 }));
    assert.deepEqual(changes, [false, true], 'the newest object again: its rows alone; one that moved to the top: all');
    const rows = new Rows();
    for (const r of g.roots()) if (isObjectRow(r)) rows.objects.set(r.key, undefined);
    rows.objects.set('Pod/shop/gone', undefined);
    g.prune(rows);
    assert.deepEqual(rows.dropped, ['gone:Pod/shop/gone']);
  });

  it('namespace: namespaces at the top, their objects beneath, an empty namespace row dropped', () => {
    const { shown } = storeWith();
    const g = new NamespaceGrouping(shown);
    assert.deepEqual(g.roots().map(label), ['ns:shop', 'ns:']);
    assert.deepEqual(g.children({ namespace: 'shop' }).map(label), ['Pod/web-7c9c-abcde', 'Deployment/web']);
    const pod = g.children({ namespace: 'shop' })[0];
    assert.deepEqual(g.parentOf(pod), { namespace: 'shop' });
    const rows = new Rows();
    rows.ns.add('shop').add('gone-ns');
    g.prune(rows);
    assert.deepEqual(rows.dropped, ['ns:gone-ns']);
  });

  it('workload: pods under their ReplicaSet under their Deployment, a row that moved made anew, the tree told when owners change', async () => {
    const { shown } = storeWith();
    const index = new OwnerIndex();
    const ownersChanged = new Emitter();
    const g = new WorkloadGrouping(shown, { index, onDidChange: ownersChanged.event });
    let redraws = 0;
    g.onDidChange(() => redraws++);
    assert.deepEqual(g.roots().map(label), ['Pod/web-7c9c-abcde', 'Deployment/web', 'Node/node-a'], 'no owners known: each on its own');
    const podKey = (g.roots()[0] as { key: string }).key;
    const rows = new Rows();
    for (const r of g.roots()) if (isObjectRow(r)) rows.objects.set(r.key, undefined);
    g.prune(rows);
    rows.dropped.length = 0;
    index.set({ kind: 'ReplicaSet', namespace: 'shop', name: 'web-7c9c', uid: 'rs-1', apiVersion: 'apps/v1', owner: { kind: 'Deployment', name: 'web', uid: 'dep-1', apiVersion: 'apps/v1' } });
    index.set({ kind: 'Pod', namespace: 'shop', name: 'web-7c9c-abcde', uid: 'pod-1', apiVersion: 'v1', owner: { kind: 'ReplicaSet', name: 'web-7c9c', uid: 'rs-1', apiVersion: 'apps/v1' } });
    ownersChanged.fire();
    assert.equal(redraws, 1, 'an owner change asks for a whole redraw');
    assert.deepEqual(g.roots().map(label), ['Deployment/web', 'Node/node-a']);
    const dep = g.roots()[0];
    const rs = g.children(dep);
    assert.deepEqual(rs.map(label), ['ReplicaSet/web-7c9c']);
    assert.deepEqual(g.children(rs[0]).map(label), ['Pod/web-7c9c-abcde']);
    assert.equal(g.rollup((dep as { key: string }).key)?.events, 2, 'the Deployment sums its own event and its pod\'s');
    g.prune(rows);
    assert.ok(rows.dropped.includes(`moved:${podKey}`), `the pod's row moved under its ReplicaSet: ${rows.dropped.join(', ')}`);
    g.dispose();
  });

  it('workload: a pause holds the roll-up, and resume builds it again', () => {
    const { store, shown } = storeWith();
    const g = new WorkloadGrouping(shown, { index: new OwnerIndex(), onDidChange: new Emitter().event });
    shown.onDidChange((c) => g.take(c));
    assert.equal(g.roots().length, 3);
    shown.pause(() => false);
    store.upsert(coreEvent({ uid: 'x', kind: 'Pod', object: 'new-pod', objectUid: 'pod-9', ns: 'shop', first: T0 + 9000 }));
    assert.equal(g.roots().length, 3, 'paused: as it was');
    shown.resume();
    assert.equal(g.roots().length, 4);
    g.dispose();
  });
});
