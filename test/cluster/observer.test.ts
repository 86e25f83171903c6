// Cluster observation against the real control plane: real controller and scheduler events,
// counts, an apiserver restart, 410 Gone, a forbidden user, and a context switch.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AppsV1Api, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { ApiClient } from '../../src/cluster/apiRequest';
import { ClusterConnection } from '../../src/cluster/clusterConnection';
import { EventObserver } from '../../src/cluster/eventObserver';
import { ApiserverEventSink } from '../../src/cluster/eventSink';
import { ListWatch, type ListWatchState } from '../../src/cluster/listWatch';
import { EventStore } from '../../src/model/eventStore';
import { EventBroadcaster } from '../../src/record/event';
import { ControlPlane } from '../env/controlPlane';
import { kubeRelease } from '../env/versions';
import type { RestConfig } from '../../src/cluster/restConfig';
import { pollUntil } from '../support/wait';
import { controlPlaneDir, createNamespace, kubeConfigFor, restConfigOf } from './support';

function groupOf(store: EventStore, kind: string, name: string) {
  return store.view().find((g) => g.object.kind === kind && g.object.name === name);
}

async function createDeployment(kc: KubeConfig, namespace: string, name: string, replicas: number): Promise<void> {
  const labels = { app: name };
  await kc.makeApiClient(AppsV1Api).createNamespacedDeployment({
    namespace,
    body: { metadata: { name }, spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name, image: 'example.invalid/app:1' }] } } } },
  });
}

describe('cluster observation against the real control plane', function () {
  this.timeout(120_000);
  let kc: KubeConfig;
  let admin: RestConfig;
  let namespace: string;
  const observers: EventObserver[] = [];

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    admin = restConfigOf('admin.kubeconfig');
    namespace = await createNamespace(kc, 'observe');
  });
  afterEach(async () => {
    for (const o of observers.splice(0)) await o.stop();
  });

  function observe(options: ConstructorParameters<typeof EventObserver>[2] = {}, config = admin, store = new EventStore()): EventObserver {
    const o = new EventObserver(new ApiClient(config), store, options);
    observers.push(o);
    o.start();
    return o;
  }

  it('groups real controller-manager and scheduler events under the right objects', async () => {
    const { store } = observe({ namespaces: [namespace] });
    await createDeployment(kc, namespace, 'web', 2);
    // Generous waits: an earlier test may have restarted the apiserver, and the controllers'
    // own reflectors back off for up to 30 s before they watch again.
    const deployment = await pollUntil('the deployment group', async () => groupOf(store, 'Deployment', 'web')?.events.find((e) => e.reason === 'ScalingReplicaSet') && groupOf(store, 'Deployment', 'web'), 90_000);
    assert.equal(deployment.events[0].source, 'deployment-controller');
    const replicaSet = await pollUntil('the replica set group', async () => store.view().find((g) => g.object.kind === 'ReplicaSet' && g.object.name.startsWith('web-') && g.events.filter((e) => e.reason === 'SuccessfulCreate').length === 2), 90_000);
    assert.equal(replicaSet.events.filter((e) => e.reason === 'SuccessfulCreate').length, 2, 'one SuccessfulCreate per pod');
    const pods = await pollUntil('FailedScheduling on both pods', async () => {
      const groups = store.view().filter((g) => g.object.kind === 'Pod' && g.events.some((e) => e.reason === 'FailedScheduling'));
      return groups.length === 2 ? groups : undefined;
    }, 90_000);
    for (const g of pods) {
      assert.equal(g.warnings, g.events.filter((e) => e.type === 'Warning').length);
      assert.equal(g.events[0].source, 'default-scheduler');
      assert.ok(g.object.uid, 'grouped by the pod uid');
    }
  });

  it('updates one entry in place when an event repeats (its count goes up)', async () => {
    const observer = observe({ namespaces: [namespace] });
    const { store } = observer;
    await pollUntil('the first list', () => observer.listsCompleted > 0);
    const caster = new EventBroadcaster();
    await caster.startRecordingToSink(new ApiserverEventSink(new ApiClient(admin)));
    const recorder = caster.newRecorder({ component: 'kubernetes-events-test' });
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'counted', namespace, uid: 'uid-counted' } };
    for (let i = 0; i < 5; i++) await recorder.event(cm, 'Normal', 'Counted', 'again');
    await caster.shutdown();
    const group = await pollUntil('count 5', async () => {
      const g = groupOf(store, 'ConfigMap', 'counted');
      return g?.events[0].count === 5 ? g : undefined;
    });
    assert.equal(group.events.length, 1, 'one entry, not five');
  });

  it('catches up after kube-apiserver is killed and restarted: every event once, no duplicates', async () => {
    const plane = ControlPlane.attach(controlPlaneDir());
    const observer = observe({ namespaces: [namespace] });
    const { store } = observer;
    await pollUntil('watching', () => observer.state.get(namespace)?.phase === 'watching');
    const phases: string[] = [];
    observer.onDidChangeState((s) => phases.push((s.get(namespace) as ListWatchState).phase));

    // Events recorded while the apiserver is down reach it through the sink's retries.
    const caster = new EventBroadcaster({ sleepDurationMs: 1000 });
    await caster.startRecordingToSink(new ApiserverEventSink(new ApiClient(admin)));
    const recorder = caster.newRecorder({ component: 'kubernetes-events-test' });
    await plane.stopComponent('kube-apiserver', 'SIGKILL');
    const expected = new Map<string, number>();
    for (let i = 0; i < 12; i++) {
      const name = `restart-${i % 4}`;
      await recorder.event({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, uid: `uid-${name}` } }, 'Warning', 'WhileDown', 'recorded while the apiserver was down');
      expected.set(name, (expected.get(name) ?? 0) + 1);
    }
    await new Promise((r) => setTimeout(r, 3000));
    await plane.startComponent('kube-apiserver');
    await plane.restartControllers();
    // And events created right after the restart, while the watch is still reconnecting.
    const core = kc.makeApiClient(CoreV1Api);
    const now = new Date();
    for (let i = 0; i < 3; i++) {
      await core.createNamespacedEvent({ namespace, body: { metadata: { name: `after-restart-${i}` }, involvedObject: { kind: 'ConfigMap', name: `after-${i}`, namespace, apiVersion: 'v1' }, reason: 'AfterRestart', message: 'm', type: 'Normal', firstTimestamp: now, lastTimestamp: now, count: 1, source: { component: 'test' } } });
    }
    await caster.shutdown();
    await pollUntil('every event in the store', async () => {
      const done = [...expected].every(([name, count]) => groupOf(store, 'ConfigMap', name)?.events[0]?.count === count) && [0, 1, 2].every((i) => groupOf(store, 'ConfigMap', `after-${i}`));
      return done;
    }, 90_000, 250);
    for (const [name] of expected) assert.equal(groupOf(store, 'ConfigMap', name)?.events.length, 1, `one entry for ${name}`);
    const uids = [...store.all()].map((e) => e.uid);
    assert.equal(new Set(uids).size, uids.length);
    assert.ok(phases.includes('backoff'), `the watch backed off while the apiserver was down: ${phases.join(' → ')}`);
    assert.equal(observer.state.get(namespace)?.phase, 'watching');
  });

  it('relists after 410 Gone (etcd compacted past the resumed resourceVersion) and misses nothing', async () => {
    const plane = ControlPlane.attach(controlPlaneDir());
    const first = observe({ namespaces: [namespace] });
    await pollUntil('watching', () => first.state.get(namespace)?.phase === 'watching');
    const saved = first.resourceVersions;
    const store = first.store;
    await first.stop();

    const core = kc.makeApiClient(CoreV1Api);
    const now = new Date();
    for (let i = 0; i < 5; i++) {
      await core.createNamespacedEvent({ namespace, body: { metadata: { name: `gone-${i}` }, involvedObject: { kind: 'ConfigMap', name: `gone-${i}`, namespace, apiVersion: 'v1' }, reason: 'WhileAway', message: 'm', type: 'Normal', firstTimestamp: now, lastTimestamp: now, count: 1, source: { component: 'test' } } });
    }
    await plane.compactEtcd();

    const resumed = new EventObserver(new ApiClient(admin), store, { namespaces: [namespace] });
    observers.push(resumed);
    resumed.start(saved);
    await pollUntil('all five events', () => [0, 1, 2, 3, 4].every((i) => groupOf(store, 'ConfigMap', `gone-${i}`)), 30_000);
    for (let i = 0; i < 5; i++) assert.equal(groupOf(store, 'ConfigMap', `gone-${i}`)?.events.length, 1, `gone-${i} once`);
    // From 1.34 the apiserver compacts its watch cache as etcd compacts (kubernetes#132876), so
    // the resumed watch is refused. Before, the cache answers from its own window while it
    // still holds the resourceVersion, and the events come by the watch.
    if (kubeRelease().minor >= 34) assert.equal(resumed.listsCompleted, 1, 'the resumed watch was refused with 410 and the loop listed again');
    else assert.ok(resumed.listsCompleted <= 1, `listed ${resumed.listsCompleted} times`);
  });

  it('stops without leaving a socket or a timer behind, and starts again', async () => {
    const resources = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'TCPSocketWrap' || r === 'TLSSocketWrap').sort().join(',');
    await new Promise((r) => setTimeout(r, 200));
    const before = resources();
    const store = new EventStore();
    const observer = new EventObserver(new ApiClient(admin), store, { namespaces: [namespace] });
    for (let round = 0; round < 3; round++) {
      observer.start();
      await pollUntil('watching', () => observer.state.get(namespace)?.phase === 'watching');
      await observer.stop();
    }
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(resources(), before, 'the same timers and sockets as before it started');
    assert.ok(store.size > 0);
  });

  it('stopped while a list page is handled (a context switch mid-list), it opens no watch: nothing reaches it afterwards', async () => {
    const resources = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'TCPSocketWrap' || r === 'TLSSocketWrap').sort().join(',');
    await new Promise((r) => setTimeout(r, 200));
    const before = resources();
    const client = new ApiClient(admin);
    let afterStop = 0;
    let stopped: Promise<void> | undefined;
    const watch: ListWatch = new ListWatch(client, { api: 'core/v1', namespace }, {
      onListPage: () => {
        stopped ??= watch.stop();
      },
      onListDone: () => {
        afterStop++;
      },
      onEvent: () => afterStop++,
    });
    watch.start();
    await pollUntil('the first page', () => stopped !== undefined);
    const stopping = performance.now();
    // An event while it stops, and after: a watch opened after stop() would see them.
    const create = (n: number) => kc.makeApiClient(CoreV1Api).createNamespacedEvent({ namespace, body: { metadata: { name: `after-stop-${n}-${Date.now()}` }, involvedObject: { kind: 'Pod', name: 'p', namespace }, reason: 'AfterStop', message: 'must not be seen', type: 'Normal' } });
    await create(1);
    await stopped;
    const stopMs = performance.now() - stopping;
    await create(2);
    await new Promise((r) => setTimeout(r, 1_500));
    assert.ok(stopMs < 5_000, `stop() took ${Math.round(stopMs)} ms`);
    client.dispose();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(afterStop, 0, 'no list end and no watch event after stop()');
    assert.equal(watch.state.phase, 'stopped');
    assert.equal(resources(), before, 'the same timers and sockets as before it started');
  });

  it('reads events.k8s.io/v1 too, with the same model', async () => {
    const { store } = observe({ namespaces: [namespace], api: 'events.k8s.io/v1' });
    const g = await pollUntil('the deployment seen through events.k8s.io', async () => groupOf(store, 'Deployment', 'web'));
    assert.equal(g.events[0].origin, 'events.k8s.io/v1');
    assert.equal(g.events[0].reason, 'ScalingReplicaSet');
    assert.equal(g.events[0].source, 'deployment-controller');
  });

  it('asks the apiserver for warnings only with a field selector', async () => {
    const { store } = observe({ namespaces: [namespace], warningsOnly: true });
    await pollUntil('warnings', () => store.size > 0);
    assert.ok([...store.all()].every((e) => e.type === 'Warning'));
  });

  it('gives the limited user a clear forbidden state, not a crash or an endless retry', async () => {
    const observer = observe({ namespaces: [namespace] }, restConfigOf('limited.kubeconfig'));
    const state = await pollUntil('the forbidden state', async () => {
      const s = observer.state.get(namespace);
      return s?.phase === 'forbidden' ? s : undefined;
    });
    assert.match(state.message, new RegExp(`^Cannot list events in namespace ${namespace} as user kev-limited: `));
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(observer.state.get(namespace)?.phase, 'forbidden', 'it stays there: no retry loop');
  });

  describe('a second context', () => {
    let second: ControlPlane;
    let kubeconfigFile: string;

    before(async function () {
      this.timeout(120_000);
      const primary = ControlPlane.attach(controlPlaneDir());
      second = await ControlPlane.start(path.join(controlPlaneDir(), 'second'), primary.info.binDir, ['etcd', 'kube-apiserver']);
      // One kubeconfig, two contexts, two servers.
      const a = fs.readFileSync(primary.info.adminKubeconfig, 'utf8').replace(/kubernetes-events-test/g, 'first').replace(/kev-admin/g, 'first-admin').replace(/kev-limited/g, 'first-limited');
      const b = fs.readFileSync(second.info.adminKubeconfig, 'utf8').replace(/kubernetes-events-test/g, 'second').replace(/kev-admin/g, 'second-admin').replace(/kev-limited/g, 'second-limited');
      kubeconfigFile = path.join(controlPlaneDir(), 'two-contexts.kubeconfig');
      fs.writeFileSync(path.join(controlPlaneDir(), 'first.kubeconfig'), a);
      fs.writeFileSync(path.join(controlPlaneDir(), 'second.kubeconfig'), b);
      kubeconfigFile = [path.join(controlPlaneDir(), 'first.kubeconfig'), path.join(controlPlaneDir(), 'second.kubeconfig')].join(path.delimiter);
      const now = new Date();
      const secondKc = new (await import('@kubernetes/client-node')).KubeConfig();
      secondKc.loadFromFile(second.info.adminKubeconfig);
      await secondKc.makeApiClient(CoreV1Api).createNamespacedEvent({ namespace: 'default', body: { metadata: { name: 'only-on-second' }, involvedObject: { kind: 'Node', name: 'second-node', apiVersion: 'v1' }, reason: 'OnSecond', message: 'from the second apiserver', type: 'Normal', firstTimestamp: now, lastTimestamp: now, count: 1, source: { component: 'test' } } });
    });
    after(async () => {
      await second?.stop();
    });

    it('switches context: every watch of the first stops and the store refills from the second server', async () => {
      const store = new EventStore({ historyFolder: path.join(controlPlaneDir(), 'history') });
      const connection = new ClusterConnection(store, { env: { ...process.env, KUBECONFIG: kubeconfigFile } });
      try {
        await connection.connect();
        assert.equal(connection.context, 'first-admin', 'the first file\'s current-context');
        assert.deepEqual(connection.kubeconfig?.contexts.map((c) => c.name), ['first-admin', 'first-limited', 'second-admin', 'second-limited']);
        await pollUntil('events of the first server', () => groupOf(store, 'Deployment', 'web'));
        const firstObserver = connection.activeObserver;
        await connection.connect('second-admin');
        assert.equal(firstObserver?.state.get('')?.phase, 'stopped', 'the first context\'s watch is stopped');
        const g = await pollUntil('the second server\'s event', async () => groupOf(store, 'Node', 'second-node'));
        assert.equal(g.events[0].message, 'from the second apiserver');
        assert.equal(groupOf(store, 'Deployment', 'web'), undefined, 'nothing of the first server is left');
        await connection.connect('first-admin');
        await pollUntil('the first server again', () => groupOf(store, 'Deployment', 'web'));
        assert.equal(groupOf(store, 'Node', 'second-node'), undefined);
      } finally {
        await connection.disconnect();
      }
    });
  });
});
