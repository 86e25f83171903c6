import * as assert from 'node:assert/strict';
import { createdBy, followCreations } from '../../../src/model/createdBy';
import { EventStore } from '../../../src/model/eventStore';
import { OwnerIndex } from '../../../src/model/ownerIndex';
import { buildRollup, Rollup, type RollupNode } from '../../../src/model/rollup';
import { coreEvent, T0 } from './fixtures';

/** An event a controller writes about `kind/object` (uid `<object>-uid`) in namespace batch. */
function byController(uid: string, kind: string, object: string, source: string, reason: string, message: string, at = T0) {
  return coreEvent({ uid, ns: 'batch', kind, object, objectUid: `${object}-uid`, source, reason, message, first: at });
}

function shape(nodes: readonly RollupNode[]): unknown[] {
  return nodes.map((n) => [`${n.object.kind}/${n.object.name}`, n.events, ...(n.children.length ? [shape(n.children)] : [])]);
}

describe('owners named by the controllers\' create events', () => {
  it('reads the object each controller says it created, in the text of every release from 1.31 to 1.37', () => {
    const cases: [string, string, string, string, string, string | undefined][] = [
      ['ReplicaSet', 'web-7d9f', 'replicaset-controller', 'SuccessfulCreate', 'Created pod: web-7d9f-x2k4q', 'Pod/web-7d9f-x2k4q'],
      ['Job', 'report-29101', 'job-controller', 'SuccessfulCreate', 'Created pod: report-29101-8xk2p', 'Pod/report-29101-8xk2p'],
      ['DaemonSet', 'node-exporter', 'daemonset-controller', 'SuccessfulCreate', 'Created pod: node-exporter-4qk9z', 'Pod/node-exporter-4qk9z'],
      ['ReplicationController', 'legacy', 'replication-controller', 'SuccessfulCreate', 'Created pod: legacy-abcde', 'Pod/legacy-abcde'],
      ['CronJob', 'report', 'cronjob-controller', 'SuccessfulCreate', 'Created job report-29101', 'Job/report-29101'],
      // client-go's aggregate of a 10th create within 10 minutes: the newest one's message.
      ['CronJob', 'report', 'cronjob-controller', 'SuccessfulCreate', '(combined from similar events): Created job report-29111', 'Job/report-29111'],
      ['StatefulSet', 'db', 'statefulset-controller', 'SuccessfulCreate', 'create Pod db-0 in StatefulSet db successful', 'Pod/db-0'],
      ['StatefulSet', 'db', 'statefulset-controller', 'SuccessfulCreate', 'Create Pod db-1 in StatefulSet db successful', 'Pod/db-1'],
      ['Deployment', 'web', 'deployment-controller', 'ScalingReplicaSet', 'Scaled up replica set web-7d9f from 0 to 3', 'ReplicaSet/web-7d9f'],
      ['Deployment', 'web', 'deployment-controller', 'ScalingReplicaSet', 'Scaled up replica set web-7d9f to 3', 'ReplicaSet/web-7d9f'],
      ['Deployment', 'web', 'deployment-controller', 'ScalingReplicaSet', 'Scaled down replica set web-6c4b to 0 from 1', 'ReplicaSet/web-6c4b'],
      // Not creations: other reasons, other texts, other writers, other kinds.
      ['ReplicaSet', 'web-7d9f', 'replicaset-controller', 'SuccessfulDelete', 'Deleted pod: web-7d9f-x2k4q', undefined],
      ['CronJob', 'report', 'cronjob-controller', 'SawCompletedJob', 'Saw completed job: report-29101, condition: Complete', undefined],
      ['ReplicaSet', 'web-7d9f', 'my-operator', 'SuccessfulCreate', 'Created pod: kube-apiserver', undefined],
      ['ConfigMap', 'settings', 'replicaset-controller', 'SuccessfulCreate', 'Created pod: web-1', undefined],
      ['ReplicaSet', 'web-7d9f', 'replicaset-controller', 'SuccessfulCreate', 'Created pod: web-1 and more', undefined],
    ];
    for (const [kind, object, source, reason, message, expected] of cases) {
      const c = createdBy(byController('e', kind, object, source, reason, message));
      assert.equal(c && `${c.kind}/${c.name}`, expected, `${kind} ${source} ${reason} "${message}"`);
      if (c) assert.deepEqual([c.namespace, c.owner], ['batch', { kind, name: object, uid: `${object}-uid`, apiVersion: 'v1' }]);
    }
  });

  it('rolls up a CronJob\'s runs deleted before anyone watched them, whichever event comes first, kept current as afresh', () => {
    const store = new EventStore();
    const owners = new OwnerIndex();
    const follow = followCreations(store, owners);
    const view = store.liveView();
    const changed = new Set<string>();
    view.onDidChange((c) => c.groups.forEach((k) => changed.add(k)));
    const rollup = new Rollup(owners, 'name', view.groups());
    const step = (...events: ReturnType<typeof coreEvent>[]) => {
      store.batch(() => events.forEach((e) => store.upsert(e)));
      rollup.update(changed, (key) => view.group(key));
      changed.clear();
      assert.deepEqual(shape(rollup.roots), shape(buildRollup(view.groups(), owners, 'name')), 'kept current, it equals a roll-up built afresh');
      return shape(rollup.roots);
    };
    // A list gives them in name order: the run's pod, then its Job, then the CronJob.
    assert.deepEqual(step(byController('p1', 'Pod', 'report-1-abcde', 'kubelet', 'Started', 'Started container report')), [['Pod/report-1-abcde', 1]]);
    assert.deepEqual(step(byController('j1', 'Job', 'report-1', 'job-controller', 'SuccessfulCreate', 'Created pod: report-1-abcde')), [['Job/report-1', 2, [['Pod/report-1-abcde', 1]]]]);
    assert.deepEqual(step(byController('c1', 'CronJob', 'report', 'cronjob-controller', 'SuccessfulCreate', 'Created job report-1')), [['CronJob/report', 3, [['Job/report-1', 2, [['Pod/report-1-abcde', 1]]]]]]);
    // The next run as it happens: the owners' events first.
    step(byController('c2', 'CronJob', 'report', 'cronjob-controller', 'SuccessfulCreate', 'Created job report-2', T0 + 60_000), byController('j2', 'Job', 'report-2', 'job-controller', 'SuccessfulCreate', 'Created pod: report-2-fghij', T0 + 60_000));
    assert.deepEqual(step(byController('p2', 'Pod', 'report-2-fghij', 'kubelet', 'Started', 'Started container report', T0 + 61_000)), [
      ['CronJob/report', 6, [['Job/report-1', 2, [['Pod/report-1-abcde', 1]]], ['Job/report-2', 2, [['Pod/report-2-fghij', 1]]]]],
    ]);
    follow.dispose();
  });

  it('never overrides what the cluster says: a pod the owner watch knows keeps its own owner, or none', () => {
    const store = new EventStore();
    const owners = new OwnerIndex();
    owners.set({ kind: 'Pod', namespace: 'batch', name: 'adopted', uid: 'adopted-uid', apiVersion: 'v1', owner: { kind: 'Job', name: 'other', uid: 'other-uid', apiVersion: 'batch/v1' } });
    owners.set({ kind: 'Pod', namespace: 'batch', name: 'orphaned', uid: 'orphaned-uid', apiVersion: 'v1' });
    const follow = followCreations(store, owners);
    for (const e of [
      byController('a', 'Pod', 'adopted', 'kubelet', 'Started', 'Started'),
      byController('o', 'Pod', 'orphaned', 'kubelet', 'Started', 'Started'),
      byController('j', 'Job', 'first', 'job-controller', 'SuccessfulCreate', 'Created pod: adopted'),
      byController('k', 'Job', 'first', 'job-controller', 'SuccessfulCreate', 'Created pod: orphaned'),
    ]) store.upsert(e);
    assert.deepEqual(shape(buildRollup(store.view(), owners, 'name')), [['Job/first', 2], ['Pod/orphaned', 1], ['Job/other', 1, [['Pod/adopted', 1]]]]);
    follow.dispose();
  });

  it('learns from what the store held before it followed, and forgets on a context switch', () => {
    const store = new EventStore();
    store.upsert(byController('p', 'Pod', 'web-1-abcde', 'kubelet', 'Started', 'Started'));
    store.upsert(byController('r', 'ReplicaSet', 'web-1', 'replicaset-controller', 'SuccessfulCreate', 'Created pod: web-1-abcde'));
    const owners = new OwnerIndex();
    const follow = followCreations(store, owners);
    assert.deepEqual(shape(buildRollup(store.view(), owners, 'name')), [['ReplicaSet/web-1', 2, [['Pod/web-1-abcde', 1]]]]);
    owners.clear();
    assert.deepEqual(shape(buildRollup(store.view(), owners, 'name')), [['ReplicaSet/web-1', 1], ['Pod/web-1-abcde', 1]]);
    follow.dispose();
  });
});
