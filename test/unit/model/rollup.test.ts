import * as assert from 'node:assert/strict';
import { normalizeEvent } from '../../../src/cluster/normalize';
import type { ClusterEvent } from '../../../src/model/clusterEvent';
import { EventStore } from '../../../src/model/eventStore';
import { OwnerIndex, type OwnedObject } from '../../../src/model/ownerIndex';
import { buildRollup, Rollup, RollupBuild, type RollupNode } from '../../../src/model/rollup';
import { Slice } from '../../../src/model/slices';
import { T0 } from './fixtures';

function event(uid: string, kind: string, name: string, objectUid: string, o: { type?: string; at?: number; ns?: string } = {}): ClusterEvent {
  const at = new Date(o.at ?? T0).toISOString();
  return normalizeEvent({ metadata: { uid, name: `${name}.${uid}`, namespace: o.ns ?? 'shop' }, involvedObject: { kind, name, namespace: o.ns ?? 'shop', uid: objectUid, apiVersion: 'v1' }, type: o.type ?? 'Normal', reason: 'R', message: uid, count: 1, firstTimestamp: at, lastTimestamp: at }, 'core/v1');
}

function owned(kind: string, name: string, uid: string, owner?: [string, string, string]): OwnedObject {
  return { kind, namespace: 'shop', name, uid, apiVersion: 'v1', owner: owner && { kind: owner[0], name: owner[1], uid: owner[2], apiVersion: 'apps/v1' } };
}

function shape(nodes: RollupNode[]): unknown[] {
  return nodes.map((n) => [`${n.object.kind}/${n.object.name}`, n.events, n.warnings, ...(n.children.length ? [shape(n.children)] : [])]);
}

describe('workload roll-up', () => {
  const owners = new OwnerIndex();
  owners.set(owned('Pod', 'web-1', 'p1', ['ReplicaSet', 'web-7f', 'rs1']));
  owners.set(owned('Pod', 'web-2', 'p2', ['ReplicaSet', 'web-7f', 'rs1']));
  owners.set(owned('ReplicaSet', 'web-7f', 'rs1', ['Deployment', 'web', 'd1']));
  owners.set(owned('Pod', 'nightly-1-x', 'p3', ['Job', 'nightly-1', 'j1']));
  owners.set(owned('Job', 'nightly-1', 'j1', ['CronJob', 'nightly', 'cj1']));
  owners.set(owned('Pod', 'db-0', 'p4', ['StatefulSet', 'db', 'ss1']));

  it('puts pods under their ReplicaSet under their Deployment, jobs under their CronJob, and sums each level', () => {
    const store = new EventStore();
    store.batch(() => {
      store.upsert(event('e1', 'Pod', 'web-1', 'p1', { type: 'Warning', at: T0 + 3000 }));
      store.upsert(event('e2', 'Pod', 'web-2', 'p2'));
      store.upsert(event('e3', 'ReplicaSet', 'web-7f', 'rs1'));
      store.upsert(event('e4', 'Deployment', 'web', 'd1', { at: T0 + 1000 }));
      store.upsert(event('e5', 'Pod', 'nightly-1-x', 'p3', { type: 'Warning', at: T0 + 2000 }));
      store.upsert(event('e6', 'Job', 'nightly-1', 'j1', { type: 'Warning' }));
      store.upsert(event('e7', 'Pod', 'db-0', 'p4'));
      store.upsert(event('e8', 'ConfigMap', 'settings', 'cm1'));
    });
    const roots = buildRollup(store.view(), owners, 'lastSeen');
    // Newest first; ConfigMap and StatefulSet tie on time and go by key.
    assert.deepEqual(shape(roots), [
      ['Deployment/web', 4, 1, [['ReplicaSet/web-7f', 3, 1, [['Pod/web-1', 1, 1], ['Pod/web-2', 1, 0]]]]],
      ['CronJob/nightly', 2, 2, [['Job/nightly-1', 2, 2, [['Pod/nightly-1-x', 1, 1]]]]],
      ['ConfigMap/settings', 1, 0],
      ['StatefulSet/db', 1, 0, [['Pod/db-0', 1, 0]]],
    ]);
    assert.equal(roots[0].lastSeen, T0 + 3000, 'a workload is as recent as its newest event beneath');
    assert.equal(roots[1].key.startsWith('owner:'), true, 'a CronJob without events of its own still heads its jobs');
  });

  it('remembers deleted pods, so their history still rolls up; forgets what nothing needs', () => {
    const index = new OwnerIndex();
    index.load(owners.toJSON());
    index.markDeleted('p1', T0);
    const store = new EventStore();
    store.upsert(event('e1', 'Pod', 'web-1', 'p1'));
    assert.deepEqual(shape(buildRollup(store.view(), index, 'lastSeen')), [['Deployment/web', 1, 0, [['ReplicaSet/web-7f', 1, 0, [['Pod/web-1', 1, 0]]]]]]);
    index.markDeleted('p2', T0);
    index.prune((uid) => uid === 'p1');
    assert.equal(index.get('p2'), undefined, 'a deleted pod with no events kept is forgotten');
    assert.ok(index.get('p1') && index.get('rs1') && index.get('p3'), 'what history needs, and live objects, stay');
  });

  it('degrades to the object itself when no owner is known, and finds owners by name when an event has no uid', () => {
    const store = new EventStore();
    store.upsert(event('e1', 'Pod', 'stray', 'p-unknown'));
    store.upsert(event('e2', 'Pod', 'db-0', ''));
    assert.deepEqual(shape(buildRollup(store.view(), owners, 'name')), [['StatefulSet/db', 1, 0, [['Pod/db-0', 1, 0]]], ['Pod/stray', 1, 0]]);
  });

  it('survives an ownership loop', () => {
    const loop = new OwnerIndex();
    loop.set(owned('A', 'a', 'a1', ['B', 'b', 'b1']));
    loop.set(owned('B', 'b', 'b1', ['A', 'a', 'a1']));
    const store = new EventStore();
    store.upsert(event('e', 'A', 'a', 'a1'));
    assert.ok(buildRollup(store.view(), loop, 'lastSeen').length <= 1);
  });

  it('kept current change by change, it equals a roll-up built afresh: events come and are evicted, owners are found late, change and are forgotten', async () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const index = new OwnerIndex();
    // A small cap, so evictions take groups away.
    const store = new EventStore({ maxEvents: 60 });
    const view = store.liveView();
    await view.ready;
    const changed = new Set<string>();
    view.onDidChange((c) => {
      for (const k of c.groups) changed.add(k);
    });
    const rollup = new Rollup(index, 'lastSeen', view.groups());
    const full = (n: RollupNode): unknown => [n.key, n.events, n.warnings, n.lastSeen, n.children.map(full)];
    let at = T0;
    for (let step = 0; step < 400; step++) {
      store.batch(() => {
        for (let k = random(6); k >= 0; k--) {
          const pod = random(40);
          store.upsert(event(`e${step}-${k}`, 'Pod', `pod-${pod}`, `p${pod}`, { type: random(4) ? 'Normal' : 'Warning', at: (at += 1000) }));
        }
        const rs = random(8);
        if (random(3) === 0) store.upsert(event(`r${step}`, 'ReplicaSet', `rs-${rs}`, `rs${rs}`, { at: (at += 1000) }));
      });
      const op = random(10);
      if (op < 4) {
        const pod = random(40);
        index.set(owned('Pod', `pod-${pod}`, `p${pod}`, random(5) ? ['ReplicaSet', `rs-${pod % 8}`, `rs${pod % 8}`] : ['Job', `job-${pod % 3}`, `j${pod % 3}`]));
      } else if (op < 6) {
        const rs = random(8);
        index.set(owned('ReplicaSet', `rs-${rs}`, `rs${rs}`, ['Deployment', `d-${rs % 3}`, `d${rs % 3}`]));
      } else if (op === 6) {
        index.set(owned('Job', `job-${random(3)}`, `j${random(3)}`, ['CronJob', 'nightly', 'cj']));
      } else if (op === 7) {
        index.markDeleted(`p${random(40)}`, at);
        if (random(4) === 0) index.prune((uid) => random(2) === 0 || uid.startsWith('rs'));
      }
      rollup.update(changed, (key) => view.group(key));
      changed.clear();
      const afresh = buildRollup(view.groups(), index, 'lastSeen');
      assert.deepEqual(rollup.roots.map(full), afresh.map(full), `step ${step}`);
    }
  });

  it('built in slices, it gives the same roll-up as one built at once; a small store is built in one step; a cancelled build gives nothing', async () => {
    const index = new OwnerIndex();
    const store = new EventStore();
    store.batch(() => {
      for (let p = 0; p < 600; p++) {
        index.set(owned('Pod', `pod-${p}`, `p${p}`, ['ReplicaSet', `rs-${p % 40}`, `rs${p % 40}`]));
        store.upsert(event(`e${p}`, 'Pod', `pod-${p}`, `p${p}`, { type: p % 3 ? 'Normal' : 'Warning', at: T0 + p * 1000 }));
      }
      for (let r = 0; r < 40; r++) index.set(owned('ReplicaSet', `rs-${r}`, `rs${r}`, ['Deployment', `d-${r % 7}`, `d${r % 7}`]));
    });
    const groups = store.view();
    const full = (n: RollupNode): unknown => [n.key, n.events, n.warnings, n.lastSeen, n.children.map(full)];
    const sliced = new RollupBuild(index, 'lastSeen', groups);
    assert.equal(sliced.step(new Slice(0)), undefined, 'a zero-length slice leaves work for later');
    const built = await sliced.finish();
    assert.ok(built);
    assert.deepEqual(built.roots.map(full), buildRollup(groups, index, 'lastSeen').map(full));
    assert.ok(new RollupBuild(index, 'lastSeen', groups.slice(0, 5)).step(), 'five groups: built in the first step');
    const cancelled = new RollupBuild(index, 'lastSeen', groups);
    cancelled.step(new Slice(0));
    cancelled.cancelled = true;
    assert.equal(await cancelled.finish(), undefined);
  });
});
