// The lively cluster (seedCluster.ts, seeded by the runner) read through the extension's own
// EventObserver and EventStore: KWOK's kubelet-like events from our stages and the real
// controllers' and scheduler's events about the same workloads, each on the right object.
import * as assert from 'node:assert/strict';
import { AppsV1Api, BatchV1Api, CoordinationV1Api, CoreV1Api, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { ApiClient } from '../../src/cluster/apiRequest';
import { EventObserver } from '../../src/cluster/eventObserver';
import { OwnerWatch } from '../../src/cluster/ownerWatch';
import type { ClusterEvent } from '../../src/model/clusterEvent';
import { EventStore, type EventGroup } from '../../src/model/eventStore';
import { followCreations } from '../../src/model/createdBy';
import { OwnerIndex } from '../../src/model/ownerIndex';
import { buildRollup, type RollupNode } from '../../src/model/rollup';
import { NODE_LEASE_SECONDS } from '../env/kwok';
import { SEEDED } from '../env/seedCluster';
import { scalingMessage, statefulSetVerb } from '../support/releaseText';
import { pollUntil } from '../support/wait';
import { findNode, ownerChain } from './rollupTrees';
import { kubeConfigFor, restConfigOf } from './support';

/** Generous: the seed runs just before the cluster layer, and a CronJob fires on the minute. */
const SETTLE_MS = 90_000;

/** A Go time.Duration as it prints, milliseconds and up: 850ms, 1.2s, 1m11.358s. */
const GO_DURATION = '(?:\\d+h)?(?:\\d+m)?\\d+(?:\\.\\d+)?(?:ms|s)';

const KUBELET_MESSAGES: Record<string, (container: string, image: string) => RegExp> = {
  Pulling: (_, image) => new RegExp(`^Pulling image "${escape(image)}"$`),
  Pulled: (_, image) => new RegExp(`^Successfully pulled image "${escape(image)}" in ${GO_DURATION} \\(${GO_DURATION} including waiting\\)\\. Image size: \\d+ bytes\\.$`),
  Created: (container) => new RegExp(`^Created container: ${container}$`),
  Started: (container) => new RegExp(`^Started container ${container}$`),
};

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the KWOK cluster: kubelet-like and controller events read by the extension', function () {
  this.timeout(180_000);
  let kc: KubeConfig;
  let core: CoreV1Api;
  let observer: EventObserver;
  let store: EventStore;

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    core = kc.makeApiClient(CoreV1Api);
    store = new EventStore();
    observer = new EventObserver(new ApiClient(restConfigOf('admin.kubeconfig')), store);
    observer.start();
    await pollUntil('the first list', () => observer.listsCompleted > 0);
  });
  after(async () => {
    await observer?.stop();
  });

  const groupsOf = (kind: string, namespace: string, name: (n: string) => boolean): EventGroup[] =>
    store.view().filter((g) => g.object.kind === kind && g.object.namespace === namespace && name(g.object.name));
  const eventsOf = (g: EventGroup, reason: string): ClusterEvent[] => g.events.filter((e) => e.reason === reason);
  async function podsOf(namespace: string, app: string): Promise<V1Pod[]> {
    return (await core.listNamespacedPod({ namespace, labelSelector: `app.kubernetes.io/name=${app}` })).items;
  }

  it('tells a pod\'s start the way a kubelet does: Scheduled, then Pulling, Pulled, Created, Started for each container in turn', async () => {
    const { namespace, api } = SEEDED.shop;
    const pods = await pollUntil('two running api pods', async () => {
      const list = await podsOf(namespace, api);
      return list.length === 2 && list.every((p) => p.status?.phase === 'Running') ? list : undefined;
    }, SETTLE_MS);
    const START = ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started'];
    const whole = (reasons: (string | undefined)[]) => START.every((r) => reasons.filter((x) => x === r).length === (r === 'Scheduled' ? 1 : 2));
    const onServer = async (pod: V1Pod) => (await core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.uid=${pod.metadata?.uid}` })).items.map((e) => e.reason);
    // KWOK's kubelet emits each start event once: one it failed to write (a loaded machine)
    // would never come. The claim is about us showing what the apiserver has, so a pod whose
    // start the apiserver never got whole is left out, and one of the two must be whole.
    const started: V1Pod[] = [];
    const deadline = Date.now() + SETTLE_MS;
    while (started.length < pods.length && Date.now() < deadline) {
      started.length = 0;
      for (const pod of pods) if (whole(await onServer(pod))) started.push(pod);
      if (started.length < pods.length) await new Promise((r) => setTimeout(r, 500));
    }
    if (started.length === 0) assert.fail(`no api pod's start is whole on the apiserver: ${JSON.stringify(await Promise.all(pods.map(onServer)))}`);
    for (const pod of started) {
      const name = pod.metadata?.name as string;
      const group = await pollUntil(`every start event of ${name}, as the apiserver has them`, async () => {
        const gs = groupsOf('Pod', namespace, (n) => n === name);
        const g = gs.find((x) => x.object.uid === pod.metadata?.uid);
        if (g && whole(g.events.map((e) => e.reason))) return g;
        // Thrown to be named if this times out: what the store and the apiserver hold.
        const held = gs.map((x) => `${x.object.uid}: ${x.events.map((e) => `${e.reason}×${e.count}`).join(' ')}`).join('; ') || 'no group';
        throw new Error(`the store holds ${held} (observer ${JSON.stringify([...observer.state])}); the apiserver: ${(await onServer(pod)).join(' ')}`);
      }, SETTLE_MS);
      assert.equal(group.object.uid, pod.metadata?.uid, 'grouped under the pod\'s uid');
      const scheduled = eventsOf(group, 'Scheduled')[0];
      assert.equal(scheduled.source, 'default-scheduler');
      assert.equal(scheduled.message, `Successfully assigned ${namespace}/${name} to ${pod.spec?.nodeName}`);
      assert.equal(scheduled.involvedObject.fieldPath, '', 'Scheduled is about the whole pod');

      // In time order: the first container's four events, then the second's.
      const sequence: ClusterEvent[] = [];
      for (const c of pod.spec?.containers ?? []) {
        for (const reason of ['Pulling', 'Pulled', 'Created', 'Started']) {
          const [e, ...more] = group.events.filter((x) => x.reason === reason && x.involvedObject.fieldPath === `spec.containers{${c.name}}`);
          assert.ok(e, `${reason} for container ${c.name} of ${name}`);
          assert.equal(more.length, 0, `one ${reason} event for ${c.name}`);
          assert.match(e.message, KUBELET_MESSAGES[reason](c.name, c.image as string));
          assert.equal(e.type, 'Normal');
          assert.equal(e.count, 1);
          assert.equal(e.source, 'kubelet');
          assert.equal(e.sourceHost, pod.spec?.nodeName, 'recorded by the kubelet of the pod\'s node');
          assert.deepEqual({ kind: e.involvedObject.kind, apiVersion: e.involvedObject.apiVersion, uid: e.involvedObject.uid }, { kind: 'Pod', apiVersion: 'v1', uid: pod.metadata?.uid });
          sequence.push(e);
        }
      }
      // Kubelet events carry whole seconds, the scheduler's microseconds: compare seconds.
      const times = [scheduled, ...sequence].map((e) => Math.floor((e.firstSeen as number) / 1000));
      assert.deepEqual(times, [...times].sort((a, b) => a - b), `in order: ${[scheduled, ...sequence].map((e) => `${e.reason}@${new Date(e.firstSeen as number).toISOString()}`).join(' ')}`);
    }
  });

  it('shows a crash loop: BackOff warnings on the container whose count rises, restarts that raise Created and Started', async () => {
    const { namespace, crashLoop } = SEEDED.payments;
    const backOff = (name: string) => groupsOf('Pod', namespace, (n) => n === name)[0]?.events.find((e) => e.reason === 'BackOff');
    const pod = (await pollUntil('a checkout pod in back-off', async () => (await podsOf(namespace, crashLoop)).find((p) => backOff(p.metadata?.name as string)), SETTLE_MS));
    const name = pod.metadata?.name as string;
    const first = backOff(name) as ClusterEvent;
    assert.equal(first.type, 'Warning');
    assert.equal(first.message, `Back-off restarting failed container checkout in pod ${name}_${namespace}(${pod.metadata?.uid})`);
    assert.equal(first.involvedObject.fieldPath, 'spec.containers{checkout}');
    assert.equal(first.source, 'kubelet');

    // The same event again, its count higher: updated in place by the watch, not a new entry.
    const later = await pollUntil(`BackOff of ${name} above ${first.count}`, async () => {
      const e = backOff(name);
      return e && e.count > first.count ? e : undefined;
    }, 60_000);
    assert.equal(later.uid, first.uid, 'the same Event object');
    assert.ok((later.lastSeen as number) >= (first.lastSeen as number));
    const group = groupsOf('Pod', namespace, (n) => n === name)[0];
    assert.equal(eventsOf(group, 'BackOff').length, 1, 'one entry per repeated event');

    // The kubelet's restart count and its Created/Started counts agree (the first start plus each restart).
    const restarted = await pollUntil(`${name} restarted at least twice`, async () => {
      const p = await core.readNamespacedPod({ namespace, name });
      const restarts = p.status?.containerStatuses?.[0]?.restartCount ?? 0;
      const g = groupsOf('Pod', namespace, (n) => n === name)[0];
      const started = g && eventsOf(g, 'Started')[0];
      const created = g && eventsOf(g, 'Created')[0];
      // Read together: the next restart's Created can come between reading the pod and its events.
      return restarts >= 2 && started?.count === restarts + 1 && created?.count === restarts + 1 ? { p, g, restarts } : undefined;
    }, 90_000);
    const status = restarted.p.status?.containerStatuses?.[0];
    assert.equal(status?.lastState?.terminated?.exitCode, 2);
    assert.equal(status?.lastState?.terminated?.reason, 'Error');
    assert.equal(eventsOf(restarted.g, 'Created')[0].count, restarted.restarts + 1);
    const present = restarted.g.events.find((e) => e.reason === 'Pulled' && e.message.endsWith('already present on machine'));
    assert.equal(present?.message, 'Container image "ghcr.io/acme-shop/checkout:2.3.0" already present on machine');
    assert.ok(present && present.count >= 1);
    assert.ok(restarted.g.warnings >= 1);
  });

  it('fails a Job: the real job controller gives up with BackoffLimitExceeded after its pods fail', async () => {
    const { namespace, failingJob } = SEEDED.batch;
    const job = await pollUntil('BackoffLimitExceeded on the Job', async () => groupsOf('Job', namespace, (n) => n === failingJob).find((g) => eventsOf(g, 'BackoffLimitExceeded').length > 0), SETTLE_MS);
    const exceeded = eventsOf(job, 'BackoffLimitExceeded')[0];
    assert.equal(exceeded.type, 'Warning');
    assert.equal(exceeded.source, 'job-controller');
    assert.equal(exceeded.message, 'Job has reached the specified backoff limit');
    const created = eventsOf(job, 'SuccessfulCreate');
    assert.equal(created.length, 2, 'a first attempt and one retry (backoffLimit 1)');
    const pods = (await core.listNamespacedPod({ namespace, labelSelector: `job-name=${failingJob}` })).items;
    assert.equal(pods.length, 2);
    for (const p of pods) {
      assert.equal(p.status?.phase, 'Failed');
      assert.equal(p.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, 2);
      assert.ok(created.some((e) => e.message === `Created pod: ${p.metadata?.name}`));
      // The pod's Started (KWOK's recorder, sent in the background) and the Job's
      // BackoffLimitExceeded (the job controller) come from two processes: the apiserver may
      // have the second first, so the first is waited for.
      const g = await pollUntil(`${p.metadata?.name}'s Started event`, async () => groupsOf('Pod', namespace, (n) => n === p.metadata?.name).find((x) => eventsOf(x, 'Started').length > 0), 30_000);
      assert.equal(eventsOf(g, 'Started').length, 1, `${p.metadata?.name} started once before it failed`);
    }
  });

  it('runs a CronJob: the cronjob controller creates a Job every minute, the Job a pod that completes', async () => {
    const { namespace, cronJob } = SEEDED.batch;
    // A run's SuccessfulCreate can be lost when an earlier test restarts the controller manager
    // (its recorder's queue goes with it), as in any cluster: wait for one that arrived.
    const cron = await pollUntil('SuccessfulCreate on the CronJob', async () => groupsOf('CronJob', namespace, (n) => n === cronJob).find((g) => eventsOf(g, 'SuccessfulCreate').length > 0), SETTLE_MS);
    const created = eventsOf(cron, 'SuccessfulCreate')[0];
    assert.equal(created.source, 'cronjob-controller');
    const jobName = /^Created job (report-\d+)$/.exec(created.message)?.[1] as string;
    assert.ok(jobName, created.message);
    const job = await kc.makeApiClient(BatchV1Api).readNamespacedJob({ namespace, name: jobName });
    assert.equal(job.metadata?.ownerReferences?.[0]?.kind, 'CronJob', 'the Job is owned by the CronJob');
    const jobGroup = await pollUntil(`Completed on ${jobName}`, async () => groupsOf('Job', namespace, (n) => n === jobName).find((g) => eventsOf(g, 'Completed').length > 0), SETTLE_MS);
    assert.equal(eventsOf(jobGroup, 'Completed')[0].message, 'Job completed');
    assert.match(eventsOf(jobGroup, 'SuccessfulCreate')[0].message, new RegExp(`^Created pod: ${jobName}-[a-z0-9]{5}$`));
    await pollUntil(`SawCompletedJob for ${jobName}`, async () => groupsOf('CronJob', namespace, (n) => n === cronJob).find((g) => g.events.some((e) => e.message === `Saw completed job: ${jobName}, condition: Complete`)), SETTLE_MS);
  });

  it('rolls out web: pods of the old ReplicaSet are stopped (Killing) and deleted, and their events stay', async () => {
    const { namespace, web } = SEEDED.shop;
    const apps = kc.makeApiClient(AppsV1Api);
    const old = await pollUntil('the old ReplicaSet scaled to 0', async () => (await apps.listNamespacedReplicaSet({ namespace, labelSelector: `app.kubernetes.io/name=${web}` })).items.find((rs) => rs.spec?.template?.spec?.containers[0].image === SEEDED.webImages[0] && rs.status?.replicas === 0), SETTLE_MS);
    const oldName = old.metadata?.name as string;
    const rsGroup = await pollUntil('three SuccessfulDelete on the old ReplicaSet', async () => groupsOf('ReplicaSet', namespace, (n) => n === oldName).find((g) => eventsOf(g, 'SuccessfulDelete').length === 3), SETTLE_MS);
    const deletedPods = eventsOf(rsGroup, 'SuccessfulDelete').map((e) => /^Deleted pod: (\S+)$/.exec(e.message)?.[1] as string);
    for (const name of deletedPods) {
      await assert.rejects(core.readNamespacedPod({ namespace, name }), (e: { code?: number }) => e.code === 404, `${name} is gone`);
      const g = await pollUntil(`Killing for ${name}`, async () => groupsOf('Pod', namespace, (n) => n === name).find((x) => eventsOf(x, 'Killing').length > 0), SETTLE_MS);
      const killing = eventsOf(g, 'Killing')[0];
      assert.equal(killing.message, 'Stopping container nginx');
      assert.equal(killing.involvedObject.fieldPath, 'spec.containers{nginx}');
      assert.ok(eventsOf(g, 'Started').length === 1 && eventsOf(g, 'Scheduled').length === 1, 'the deleted pod\'s whole history is still there');
    }
    const scaled = groupsOf('Deployment', namespace, (n) => n === web)[0];
    assert.ok(eventsOf(scaled, 'ScalingReplicaSet').some((e) => e.message === scalingMessage('down', oldName, 1, 0)));
  });

  it('has pods of every workload kind, each owned as a controller owns it', async () => {
    const owners = async (namespace: string, app: string) => (await podsOf(namespace, app)).map((p) => p.metadata?.ownerReferences?.[0]?.kind);
    const { shop, monitoring, batch } = SEEDED;
    await pollUntil('every kind running', async () => {
      const ds = await podsOf(monitoring.namespace, monitoring.daemonSet);
      const db = await podsOf(shop.namespace, shop.db);
      const web = await podsOf(shop.namespace, shop.web);
      const report = await podsOf(batch.namespace, batch.cronJob);
      return ds.length === SEEDED.nodes.length && db.length === 2 && web.length === 3 && report.length > 0 && [...ds, ...db, ...web].every((p) => p.status?.phase === 'Running');
    }, SETTLE_MS);
    assert.deepEqual(await owners(shop.namespace, shop.web), ['ReplicaSet', 'ReplicaSet', 'ReplicaSet']);
    assert.deepEqual(await owners(shop.namespace, shop.db), ['StatefulSet', 'StatefulSet']);
    assert.deepEqual(await owners(monitoring.namespace, monitoring.daemonSet), ['DaemonSet', 'DaemonSet', 'DaemonSet']);
    assert.ok((await owners(batch.namespace, batch.cronJob)).every((k) => k === 'Job'));
    const nodes = new Set((await podsOf(monitoring.namespace, monitoring.daemonSet)).map((p) => p.spec?.nodeName));
    assert.deepEqual([...nodes].sort(), [...SEEDED.nodes], 'one node-exporter pod per node');
    const statefulSet = groupsOf('StatefulSet', shop.namespace, (n) => n === shop.db)[0];
    assert.deepEqual(eventsOf(statefulSet, 'SuccessfulCreate').map((e) => e.message).sort(), ['db-0', 'db-1'].map((pod) => `${statefulSetVerb('create')} Pod ${pod} in StatefulSet db successful`));
  });

  it('keeps an unschedulable workload: FailedScheduling for a GPU no node has', async () => {
    const { namespace, unschedulable } = SEEDED.payments;
    const g = await pollUntil('FailedScheduling for fraud-model', async () => groupsOf('Pod', namespace, (n) => n.startsWith(`${unschedulable}-`)).find((x) => eventsOf(x, 'FailedScheduling').length > 0), SETTLE_MS);
    const failed = eventsOf(g, 'FailedScheduling')[0];
    assert.equal(failed.type, 'Warning');
    assert.match(failed.message, /^0\/3 nodes are available: 3 Insufficient nvidia\.com\/gpu\./);
  });

  it('registers the nodes like kubelets and keeps them Ready through their leases', async () => {
    for (const node of SEEDED.nodes) {
      const uid = (await core.readNode({ name: node })).metadata?.uid;
      // As a real kubelet does, KWOK's stages give the node's name as its uid; the node controller gives the real one.
      const byKubelet = groupsOf('Node', '', (n) => n === node).find((g) => g.object.uid === node);
      const byController = groupsOf('Node', '', (n) => n === node).find((g) => g.object.uid === uid);
      assert.ok(byKubelet && byController, `events about ${node} from its kubelet and from the node controller`);
      assert.deepEqual(byKubelet.events.map((e) => e.reason).sort(), ['NodeAllocatableEnforced', 'NodeHasNoDiskPressure', 'NodeHasSufficientMemory', 'NodeHasSufficientPID', 'NodeReady', 'Starting']);
      assert.ok(byKubelet.events.every((e) => e.source === 'kubelet' && e.sourceHost === node && e.namespace === 'default'));
      assert.ok(eventsOf(byController, 'RegisteredNode').some((e) => e.source === 'node-controller'), 'the real node lifecycle controller saw it');
      assert.ok(![...byKubelet.events, ...byController.events].some((e) => e.reason === 'NodeNotReady'), 'never NotReady');
      const lease = await kc.makeApiClient(CoordinationV1Api).readNamespacedLease({ namespace: 'kube-node-lease', name: node });
      const age = Date.now() - new Date(lease.spec?.renewTime as Date).getTime();
      assert.ok(age < NODE_LEASE_SECONDS * 1000, `${node}'s lease renewed ${age} ms ago`);
      const status = await core.readNode({ name: node });
      assert.equal(status.status?.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
    }
  });

  it('rolls the kubelet-like events up to their workloads, and a pod deleted while watched stays under its Deployment', async () => {
    const { shop, payments, batch, monitoring } = SEEDED;
    const owners = new OwnerIndex();
    const watch = new OwnerWatch(new ApiClient(restConfigOf('admin.kubeconfig')), owners, [shop.namespace, payments.namespace, batch.namespace, monitoring.namespace]);
    watch.start();
    try {
      const roll = () => buildRollup(store.view(), owners, 'lastSeen');
      const checkout = await pollUntil('both crash-looping pods under Deployment/checkout', async () => {
        const d = findNode(roll(), 'Deployment', payments.crashLoop, payments.namespace);
        const pods = d?.children.flatMap((rs) => rs.children.filter((p) => p.object.kind === 'Pod' && p.group?.events.some((e) => e.reason === 'BackOff')));
        return d && pods?.length === 2 ? { d, pods } : undefined;
      }, SETTLE_MS);
      for (const pod of checkout.pods) assert.match(ownerChain(pod), /^Deployment\/checkout > ReplicaSet\/checkout-[a-z0-9]+ > Pod\/checkout-[a-z0-9]+-[a-z0-9]{5}$/);
      const podWarnings = checkout.pods.reduce((n, p) => n + p.warnings, 0);
      assert.ok(checkout.d.warnings >= podWarnings && podWarnings >= 2, `the BackOff warnings summed on the Deployment (${checkout.d.warnings})`);

      // A run that exists now, through the owner watch. (Runs past the CronJob's history limit
      // are gone, their events kept: the watch never saw them.)
      const runChain = /^CronJob\/report > Job\/report-\d+ > Pod\/report-\d+-[a-z0-9]{5}$/;
      const live = await pollUntil('a CronJob run\'s pod that exists, started by its kubelet, known to the owner watch', async () => {
        const pod = (await podsOf(batch.namespace, batch.cronJob)).find((p) => owners.get(p.metadata?.uid as string));
        const p = pod && findNode(roll(), 'Pod', pod.metadata?.name as string, batch.namespace);
        return p?.group?.events.some((e) => e.reason === 'Started') ? p : undefined;
      }, SETTLE_MS);
      assert.match(ownerChain(live), runChain);
      // Every run's pod in the store, deleted or not, through the controllers' create events
      // alone. Those events may be missing (client-go's spam filter drops a busy CronJob's
      // after 25), never wrong: each link found is the run's own Job and the CronJob.
      const learnt = new OwnerIndex();
      const following = followCreations(store, learnt);
      try {
        const runs = () => buildRollup(store.view().filter((g) => g.object.namespace === batch.namespace && g.object.name.startsWith(`${batch.cronJob}-`)), learnt, 'name');
        const pods = (nodes: RollupNode[]): RollupNode[] => nodes.flatMap((n) => (n.object.kind === 'Pod' ? [n] : pods(n.children)));
        const ownRun = (chain: string) => {
          const run = /^Pod\/report-(\d+)-/.exec(chain.split(' > ').at(-1) ?? '')?.[1];
          return run !== undefined && new RegExp(`^(?:(?:CronJob/report > )?Job/report-${run} > )?Pod/report-${run}-[a-z0-9]{5}$`).test(chain);
        };
        const chains = await pollUntil('a run\'s pod rolled up by the Job\'s and the CronJob\'s events', () => {
          const all = pods(runs()).map(ownerChain);
          if (all.some((c) => runChain.test(c))) return all;
          throw new Error(all.join('; '));
        }, SETTLE_MS);
        assert.ok(chains.every(ownRun), `each pod under its own run's Job and the CronJob, or as far as events name them: ${chains.join('; ')}`);
      } finally {
        following.dispose();
      }
      const db0 = findNode(roll(), 'Pod', 'db-0', shop.namespace);
      assert.equal(ownerChain(db0), 'StatefulSet/db > Pod/db-0');
      const exporter = findNode(roll(), 'DaemonSet', monitoring.daemonSet, monitoring.namespace);
      assert.equal(exporter?.children.filter((c) => c.object.kind === 'Pod').length, SEEDED.nodes.length);

      // `kubectl delete pod` on a running web pod: its kubelet stops the container, the pod goes, the ReplicaSet replaces it.
      const victim = (await podsOf(shop.namespace, shop.web)).find((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp) as V1Pod;
      const name = victim.metadata?.name as string;
      await pollUntil(`${name} known to the owner index`, () => owners.get(victim.metadata?.uid as string));
      await core.deleteNamespacedPod({ namespace: shop.namespace, name });
      await pollUntil(`${name} gone`, () => core.readNamespacedPod({ namespace: shop.namespace, name }).then(() => false, (e: { code?: number }) => e.code === 404), 60_000);
      const deleted = await pollUntil(`Killing for ${name}, rolled up`, async () => {
        const p = findNode(roll(), 'Pod', name, shop.namespace);
        return p?.group?.events.some((e) => e.reason === 'Killing') && owners.get(victim.metadata?.uid as string)?.deletedAt !== undefined ? p : undefined;
      }, 60_000);
      assert.match(ownerChain(deleted), /^Deployment\/web > ReplicaSet\/web-[a-z0-9]+ > Pod\//, 'the deleted pod stays under its Deployment');
      assert.deepEqual(deleted.group?.events.map((e) => e.reason).sort(), ['Created', 'Killing', 'Pulled', 'Pulling', 'Scheduled', 'Started'], 'its whole history');
    } finally {
      await watch.stop();
    }
  });
});
