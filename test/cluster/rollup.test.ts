// The workload roll-up against the real control plane: owners read with metadata-only
// watches, real controller and scheduler events rolled up Pod → ReplicaSet → Deployment and
// Pod → Job → CronJob, a deleted pod's events still under its Deployment (also from saved
// owners), and a user who may not list pods falling back to the flat grouping.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppsV1Api, BatchV1Api, CoreV1Api, RbacAuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { ApiClient } from '../../src/cluster/apiRequest';
import { EventObserver } from '../../src/cluster/eventObserver';
import { OwnerWatch } from '../../src/cluster/ownerWatch';
import { EventStore } from '../../src/model/eventStore';
import { OwnerIndex } from '../../src/model/ownerIndex';
import { buildRollup, type RollupNode } from '../../src/model/rollup';
import type { Logger } from '../../src/record/logger';
import { ConnectionService } from '../../src/services/connectionService';
import { OwnerService } from '../../src/services/ownerService';
import { pollUntil } from '../support/wait';
import { findNode, ownerChain } from './rollupTrees';
import { controlPlaneDir, createNamespace, kubeConfigFor, restConfigOf } from './support';

const NEVER = { nodeSelector: { 'kubernetes-events.test/never': 'true' } };

describe('workload roll-up against the real control plane', function () {
  this.timeout(180_000);
  let kc: KubeConfig;
  let namespace: string;
  const stops: (() => Promise<void>)[] = [];

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    namespace = await createNamespace(kc, 'rollup');
    const labels = { app: 'web' };
    await kc.makeApiClient(AppsV1Api).createNamespacedDeployment({
      namespace,
      body: { metadata: { name: 'web' }, spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { ...NEVER, containers: [{ name: 'web', image: 'registry.example/web:1' }] } } } },
    });
    // Run now, as `kubectl create job nightly-manual --from=cronjob/nightly` runs it: a Job
    // the CronJob controls, made from its template. Its schedule would make the test wait for
    // the next minute; the roll-up follows the same ownerReference either way.
    const batch = kc.makeApiClient(BatchV1Api);
    const cronJob = await batch.createNamespacedCronJob({
      namespace,
      body: { metadata: { name: 'nightly' }, spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: { spec: { ...NEVER, restartPolicy: 'Never', containers: [{ name: 'job', image: 'registry.example/job:1' }] } } } } } },
    });
    await batch.createNamespacedJob({
      namespace,
      body: {
        metadata: {
          name: 'nightly-manual',
          annotations: { 'cronjob.kubernetes.io/instantiate': 'manual' },
          ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'nightly', uid: cronJob.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true }],
        },
        spec: cronJob.spec?.jobTemplate.spec as NonNullable<NonNullable<typeof cronJob.spec>['jobTemplate']['spec']>,
      },
    });
  });
  after(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  function observe(): { store: EventStore; owners: OwnerIndex } {
    const client = new ApiClient(restConfigOf('admin.kubeconfig'));
    const store = new EventStore();
    const observer = new EventObserver(client, store, { namespaces: [namespace] });
    const owners = new OwnerIndex();
    const watch = new OwnerWatch(client, owners, [namespace]);
    observer.start();
    watch.start();
    stops.push(async () => {
      await watch.stop();
      await observer.stop();
    });
    return { store, owners };
  }

  it('rolls real events up: pods under their ReplicaSet under their Deployment, the Job\'s pod under the CronJob', async () => {
    const { store, owners } = observe();
    const roll = () => buildRollup(store.view(), owners, 'lastSeen');
    const pod = await pollUntil('a web pod under its ReplicaSet under the Deployment', async () => {
      const p = findNode(roll(), 'Pod', /^web-/);
      return p && ownerChain(p).startsWith('Deployment/web > ReplicaSet/web-') ? p : undefined;
    }, 90_000);
    assert.ok(pod.events > 0 && pod.warnings > 0, 'FailedScheduling warnings on the pod');
    const deployment = findNode(roll(), 'Deployment', 'web') as RollupNode;
    const rs = deployment.children.find((c) => c.object.kind === 'ReplicaSet') as RollupNode;
    assert.equal(deployment.events, (deployment.group?.events.length ?? 0) + rs.events, 'sums per level');
    assert.equal(deployment.warnings, rs.children.reduce((n, c) => n + c.warnings, 0) + (rs.group?.warnings ?? 0));
    const jobPod = await pollUntil('the cron job\'s pod under its Job under the CronJob', async () => {
      const p = findNode(roll(), 'Pod', /^nightly-/);
      return p && /^CronJob\/nightly > Job\/nightly-manual > Pod\/nightly-manual-/.test(ownerChain(p)) ? p : undefined;
    }, 120_000);
    assert.ok(jobPod.warnings > 0);
  });

  it('keeps a deleted pod\'s events under its Deployment, also from the owners saved and loaded again', async () => {
    const { store, owners } = observe();
    const pod = await pollUntil('a web pod rolled up', async () => {
      const p = findNode(buildRollup(store.view(), owners, 'lastSeen'), 'Pod', /^web-/);
      return p && ownerChain(p).startsWith('Deployment/web > ReplicaSet/') ? p : undefined;
    }, 90_000);
    await kc.makeApiClient(CoreV1Api).deleteNamespacedPod({ name: pod.object.name, namespace, gracePeriodSeconds: 0 });
    await pollUntil('the pod marked deleted', () => owners.get(pod.object.uid)?.deletedAt !== undefined);
    const after = findNode(buildRollup(store.view(), owners, 'lastSeen'), 'Pod', pod.object.name);
    assert.match(ownerChain(after), /^Deployment\/web > ReplicaSet\/web-\S+ > Pod\//, 'still under its Deployment');
    const reloaded = new OwnerIndex();
    reloaded.load(JSON.parse(JSON.stringify(owners.toJSON())) as ReturnType<OwnerIndex['toJSON']>);
    assert.equal(ownerChain(findNode(buildRollup(store.view(), reloaded, 'lastSeen'), 'Pod', pod.object.name)), ownerChain(after), 'the same after a restart');
  });

  it('lists the owners when several parts want them as the connection comes up (none cleared after the list)', async () => {
    // As at start: the manifests and the roll-up setting each say what they want, then the
    // connection comes up and its status changes several times in a row. (Two reconciles at
    // once used to clear the index after the first one's watch had listed into it; the UI
    // test of manifests caught that, where saving the owners took longer than the list. Here
    // the timing rarely lines up: this checks the start-up path, not that race.)
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-owners-'));
    const store = new EventStore();
    const quiet: Logger = { info: () => undefined, error: () => undefined };
    const connection = new ConnectionService(store, quiet, () => ({ kubeconfig: path.join(controlPlaneDir(), 'admin.kubeconfig'), context: '', namespaces: [namespace] }));
    const service = new OwnerService(connection, store, folder, quiet);
    stops.push(async () => {
      await service.shutdown();
      service.dispose();
      await connection.stop();
      connection.dispose();
    });
    void service.setWanted(true, 'manifests');
    void service.setWanted(false);
    await connection.refresh();
    const pods = (await kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace })).items.filter((p) => p.metadata?.labels?.app === 'web');
    assert.ok(pods.length >= 2);
    await pollUntil("every web pod in the owner index, with its ReplicaSet", () => pods.every((p) => service.index.get(p.metadata?.uid ?? '')?.owner?.kind === 'ReplicaSet'), 30_000);
  });

  it('falls back to the flat grouping for a user who may read events but not pods', async () => {
    // kev-limited may read events in this namespace only: pods stay ungrouped, nothing fails.
    const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({ namespace, body: { metadata: { name: 'events-reader' }, rules: [{ apiGroups: [''], resources: ['events'], verbs: ['get', 'list', 'watch'] }] } });
    await rbac.createNamespacedRoleBinding({ namespace, body: { metadata: { name: 'events-reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'events-reader' }, subjects: [{ kind: 'User', name: 'kev-limited', apiGroup: 'rbac.authorization.k8s.io' }] } });
    const client = new ApiClient(restConfigOf('limited.kubeconfig'));
    const store = new EventStore();
    const observer = new EventObserver(client, store, { namespaces: [namespace] });
    const owners = new OwnerIndex();
    const watch = new OwnerWatch(client, owners, [namespace]);
    stops.push(async () => {
      await watch.stop();
      await observer.stop();
    });
    observer.start();
    watch.start();
    await pollUntil('pods\' events', () => store.view().some((g) => g.object.kind === 'Pod'), 90_000);
    await pollUntil('the owner watches forbidden', () => [...watch.state.values()].filter((s) => s.phase === 'forbidden').length === 3);
    const roots = buildRollup(store.view(), owners, 'lastSeen');
    assert.ok(roots.some((r) => r.object.kind === 'Pod'), 'pods at the top, as in the flat grouping');
    assert.equal(owners.size, 0);
  });
});
