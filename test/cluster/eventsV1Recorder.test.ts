// The events.k8s.io/v1 recorder (src/events, the tools/events port) against the real
// apiserver: a series we record reads in `kubectl events` as kube-scheduler's own series do
// (the seeded cluster's unschedulable pod has them), with the same fields on the object; its
// later occurrences reach the apiserver when the series is refreshed or finished; a series
// whose event was deleted is created again with its count.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { ApiClient } from '../../src/cluster/apiRequest';
import { EventsV1Sink } from '../../src/cluster/eventsV1Sink';
import { EventBroadcaster } from '../../src/events/eventBroadcaster';
import type { EventSink } from '../../src/events/recordEvent';
import { ControlPlane } from '../env/controlPlane';
import { pollUntil } from '../support/wait';
import { controlPlaneDir, createNamespace, kubeConfigFor, restConfigOf } from './support';

interface V1Event {
  metadata: { name: string; namespace: string; uid: string };
  series?: { count: number; lastObservedTime: string };
  reportingController?: string;
  reason?: string;
  regarding: { kind: string; name: string };
  [field: string]: unknown;
}

function kubectl(...args: string[]): string {
  const plane = ControlPlane.attach(controlPlaneDir());
  return execFileSync(path.join(plane.info.binDir, 'kubectl'), ['--kubeconfig', plane.info.adminKubeconfig, ...args]).toString();
}

const v1Events = (namespace: string): V1Event[] => (JSON.parse(kubectl('get', 'events.v1.events.k8s.io', '-n', namespace, '-o', 'json')) as { items: V1Event[] }).items;

/** kubectl events' LAST SEEN of a series: "<age> (x<count> over <age>)". */
const SERIES_LAST_SEEN = /^\S+ \(x(\d+) over \S+\)$/;

/** kubectl events' rows, columns split on two or more spaces. */
function kubectlEventsRows(namespace: string, forObject: string): string[][] {
  return kubectl('events', '-n', namespace, '--for', forObject)
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(/ {2,}/));
}

/** Occurrences of the one key in the cache so far: 1, then the series' count. */
function seen(caster: EventBroadcaster): number {
  const e = [...caster.eventCache.values()][0];
  return e ? (e.series?.count ?? 1) : 0;
}

function counting(sink: EventSink): EventSink & { calls: string[] } {
  const calls: string[] = [];
  return { calls, create: (e) => (calls.push('create'), sink.create(e)), update: (e) => sink.update(e), patch: (e, p) => (calls.push('patch'), sink.patch(e, p)) };
}

describe('the events.k8s.io/v1 recorder against the real apiserver', function () {
  this.timeout(120_000);
  let kc: KubeConfig;
  let client: ApiClient;
  let namespace: string;

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    client = new ApiClient(restConfigOf('admin.kubeconfig'));
    namespace = await createNamespace(kc, 'series');
  });
  after(() => client.dispose());

  const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, uid: `uid-${name}` } });

  it("records a series that kubectl events shows as it shows kube-scheduler's: one object, its count, the same fields", async () => {
    const sink = counting(new EventsV1Sink(client));
    const caster = new EventBroadcaster(sink);
    const stop = new AbortController();
    await caster.startRecordingToSink(stop.signal);
    const recorder = caster.newRecorder('kubernetes-events-test', { hostname: 'test-host' });
    for (let i = 1; i <= 5; i++) {
      await recorder.eventf(configMap('repeated'), undefined, 'Warning', 'BackupFailed', 'Backup', 'backup %d of the volume failed: 日本語 🚀', 1);
      await pollUntil(`occurrence ${i} in the cache`, () => seen(caster) === i);
      await caster.idle();
    }
    assert.deepEqual(sink.calls, ['create', 'patch'], 'created, patched to a series of 2, then counted in memory');
    let ours = v1Events(namespace).filter((e) => e.regarding.name === 'repeated');
    assert.equal(ours.length, 1, 'one event object');
    assert.equal(ours[0].series?.count, 2);
    // The refresh (every 30 minutes) brings the count the cache holds to the apiserver.
    await caster.refreshExistingEventSeries();
    ours = v1Events(namespace).filter((e) => e.regarding.name === 'repeated');
    assert.equal(ours[0].series?.count, 5);
    assert.equal(ours[0].reportingController, 'kubernetes-events-test');
    assert.equal(ours[0].reportingInstance, 'kubernetes-events-test-test-host');
    assert.equal(ours[0].note, 'backup 1 of the volume failed: 日本語 🚀');
    assert.equal(ours[0].action, 'Backup');
    stop.abort();
    await caster.shutdown();

    // kube-scheduler's own series, on the seeded cluster's pod that cannot be scheduled.
    const scheduler = await pollUntil('a series kube-scheduler wrote', async () => {
      const all = (JSON.parse(kubectl('get', 'events.v1.events.k8s.io', '-A', '--field-selector', 'reason=FailedScheduling', '-o', 'json')) as { items: V1Event[] }).items;
      return all.find((e) => e.series && e.reportingController === 'default-scheduler');
    }, 90_000, 1000);
    const fields = (e: V1Event) => Object.keys(e).sort().join(',');
    assert.equal(fields(ours[0]), fields(scheduler), 'the same fields as kube-scheduler writes');
    assert.deepEqual(Object.keys(ours[0].series ?? {}).sort(), Object.keys(scheduler.series ?? {}).sort());

    const schedulerRow = kubectlEventsRows(scheduler.metadata.namespace, `pod/${scheduler.regarding.name}`).find((r) => SERIES_LAST_SEEN.test(r[0]));
    assert.ok(schedulerRow, "kubectl events shows kube-scheduler's series as (xN over ...)");
    const ourRows = kubectlEventsRows(namespace, 'configmap/repeated');
    assert.equal(ourRows.length, 1);
    const [lastSeen, type, reason, object, message] = ourRows[0];
    assert.equal(SERIES_LAST_SEEN.exec(lastSeen)?.[1], '5', `LAST SEEN ${lastSeen}`);
    assert.deepEqual([type, reason, object, message], ['Warning', 'BackupFailed', 'ConfigMap/repeated', 'backup 1 of the volume failed: 日本語 🚀']);
    assert.equal(schedulerRow.length, ourRows[0].length, 'the same columns');
  });

  it('creates a series whose event was deleted again, with its series, under the same name; a lone event about a cluster-scoped object goes to default', async () => {
    const sink = counting(new EventsV1Sink(client));
    const caster = new EventBroadcaster(sink);
    const stop = new AbortController();
    await caster.startRecordingToSink(stop.signal);
    const recorder = caster.newRecorder('kubernetes-events-test', { hostname: 'test-host' });
    await recorder.eventf(configMap('deleted'), undefined, 'Normal', 'Again', 'Check', 'first');
    await pollUntil('the first create', () => sink.calls.length === 1);
    await caster.idle();
    const first = await pollUntil('the first event', async () => v1Events(namespace).find((e) => e.regarding.name === 'deleted'));
    kubectl('delete', 'events.v1.events.k8s.io', '-n', namespace, first.metadata.name);
    await recorder.eventf(configMap('deleted'), undefined, 'Normal', 'Again', 'Check', 'second');
    await pollUntil('the patch and the create after it', () => sink.calls.length === 3);
    await caster.idle();
    assert.deepEqual(sink.calls, ['create', 'patch', 'create'], 'the patch found it gone (404): created again');
    const again = v1Events(namespace).find((e) => e.regarding.name === 'deleted');
    assert.equal(again?.metadata.name, first.metadata.name);
    assert.notEqual(again?.metadata.uid, first.metadata.uid, 'a new object');
    assert.equal(again?.series?.count, 2);
    assert.equal(again?.note, 'first', "the series keeps its first event's note");

    const clusterScoped = `kev-series-${Date.now().toString(36)}`;
    await recorder.eventf({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: clusterScoped } }, undefined, 'Normal', 'Checked', 'Check', 'a cluster-scoped object');
    await pollUntil('its create', () => sink.calls.length === 4);
    await caster.idle();
    assert.ok(v1Events('default').some((e) => e.regarding.name === clusterScoped), 'in namespace default');
    stop.abort();
    await caster.shutdown();
  });
});
