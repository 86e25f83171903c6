// The recorder, the correlator and the client-node sink against the real apiserver.
import * as assert from 'node:assert/strict';
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { ApiClient } from '../../src/cluster/apiRequest';
import { ApiserverEventSink } from '../../src/cluster/eventSink';
import { EventBroadcaster } from '../../src/record/event';
import { EventCorrelator } from '../../src/record/eventsCache';
import { recordToSink, type EventSink } from '../../src/record/recordToSink';
import type { Event } from '../../src/record/types';
import { ControlPlane } from '../env/controlPlane';
import { MemoryLogger } from '../support/memoryLogger';
import { pollUntil } from '../support/wait';
import { controlPlaneDir, createNamespace, kubeConfigFor, restConfigOf } from './support';

/** How long the apiserver stays down in the outage test. */
const OUTAGE_MS = 30_000;

/** A sink that counts the calls it passes on. */
function counting(sink: EventSink): EventSink & { calls: { create: number; patch: number } } {
  const calls = { create: 0, patch: 0 };
  return {
    calls,
    create: (e) => (calls.create++, sink.create(e)),
    update: (e) => sink.update(e),
    patch: (e, p) => (calls.patch++, sink.patch(e, p)),
  };
}

describe('recording to the real apiserver', function () {
  let kc: KubeConfig;
  let core: CoreV1Api;
  let client: ApiClient;
  let namespace: string;

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    core = kc.makeApiClient(CoreV1Api);
    client = new ApiClient(restConfigOf('admin.kubeconfig'));
    namespace = await createNamespace(kc, 'sink');
  });
  after(() => client.dispose());

  const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, uid: `uid-${name}` } });
  const eventsAbout = async (name: string) => (await core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.name=${name}` })).items;

  it('turns 20 repeats of an event into one object whose count is 20', async () => {
    const caster = new EventBroadcaster();
    const sink = counting(new ApiserverEventSink(client));
    const watch = await caster.startRecordingToSink(sink);
    const recorder = caster.newRecorder({ component: 'kubernetes-events-test', host: 'test-host' });
    for (let i = 0; i < 20; i++) await recorder.event(configMap('repeated'), 'Warning', 'Repeated', 'the same thing again');
    await caster.shutdown();
    assert.deepEqual(watch.stats, { created: 1, patched: 19, skipped: 0, failed: 0, droppedQueueFull: 0 });
    const events = await eventsAbout('repeated');
    assert.equal(events.length, 1, 'one event object');
    assert.equal(events[0].count, 20);
    assert.equal(events[0].reportingComponent, 'kubernetes-events-test');
    assert.equal(events[0].reportingInstance, 'test-host');
    assert.equal(sink.calls.create, 1);
    assert.equal(sink.calls.patch, 19);
  });

  it('creates a deleted event again on its next repeat, under the same name', async () => {
    const caster = new EventBroadcaster();
    const watch = await caster.startRecordingToSink(new ApiserverEventSink(client));
    const recorder = caster.newRecorder({ component: 'kubernetes-events-test' });
    await recorder.event(configMap('deleted'), 'Normal', 'Again', 'first');
    const created = await pollUntil('the first event', async () => (await eventsAbout('deleted'))[0]);
    await core.deleteNamespacedEvent({ namespace, name: created.metadata.name as string });
    await recorder.event(configMap('deleted'), 'Normal', 'Again', 'first');
    await caster.shutdown();
    const events = await eventsAbout('deleted');
    assert.equal(events.length, 1);
    assert.equal(events[0].metadata.name, created.metadata.name, 'the cached name is kept');
    assert.equal(events[0].count, 2);
    assert.notEqual(events[0].metadata.uid, created.metadata.uid, 'a new object');
    assert.deepEqual({ created: watch.stats.created, patched: watch.stats.patched }, { created: 1, patched: 1 });
  });

  it('tries an event the apiserver rejects (422) exactly once, and logs it', async () => {
    const logger = new MemoryLogger();
    const sink = counting(new ApiserverEventSink(client));
    // Legacy validation: the event's namespace must be its object's.
    const invalid: Event = {
      metadata: { name: `invalid.${Date.now().toString(16)}`, namespace },
      involvedObject: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x', namespace: 'another-namespace' },
      reason: 'Invalid',
      message: 'namespaces differ',
      type: 'Normal',
      count: 1,
      firstTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      source: { component: 'kubernetes-events-test' },
    };
    const outcome = await recordToSink(sink, invalid, new EventCorrelator(), { sleepDurationMs: 10, signal: new AbortController().signal, logger, random: Math.random });
    assert.equal(outcome, 'failed');
    assert.equal(sink.calls.create, 1, 'tried exactly once');
    const line = logger.lines.find((l) => l.startsWith('ERROR Server rejected event (will not retry!)'));
    assert.ok(line, logger.lines.join('\n'));
    assert.match(line, /does not match event\.namespace|namespace/);
  });

  it('gives up on an event in a namespace being deleted quietly, as client-go does (its NamespaceTerminating cause read from the Status)', async () => {
    const doomed = await createNamespace(kc, 'terminating');
    // A finalizer on an object inside keeps the namespace Terminating until the test lets it go.
    await core.createNamespacedConfigMap({ namespace: doomed, body: { metadata: { name: 'held', finalizers: ['kubernetes-events.test/hold'] } } });
    await core.deleteNamespace({ name: doomed });
    const event = (): Event => ({
      metadata: { name: `late.${Date.now().toString(16)}`, namespace: doomed },
      involvedObject: { kind: 'ConfigMap', apiVersion: 'v1', name: 'held', namespace: doomed },
      reason: 'Late',
      message: 'written while the namespace is deleted',
      type: 'Normal',
      count: 1,
      firstTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      source: { component: 'kubernetes-events-test' },
    });
    try {
      let logger = new MemoryLogger();
      // The apiserver's admission learns of the deletion through its informer: a create may pass first.
      await pollUntil('a create refused as the namespace terminates', async () => {
        logger = new MemoryLogger();
        return (await recordToSink(new ApiserverEventSink(client), event(), new EventCorrelator(), { sleepDurationMs: 10, signal: new AbortController().signal, logger, random: Math.random })) === 'failed';
      }, 30_000, 200);
      assert.ok(!logger.lines.some((l) => l.startsWith('ERROR')), `no error logged:\n${logger.lines.join('\n')}`);
      const line = logger.lines.find((l) => l.startsWith('INFO Server rejected event (will not retry!)'));
      assert.ok(line, logger.lines.join('\n'));
      assert.match(line, /because it is being terminated/);
    } finally {
      await core.patchNamespacedConfigMap({ name: 'held', namespace: doomed, body: [{ op: 'remove', path: '/metadata/finalizers' }] }, setHeaderOptions('Content-Type', PatchStrategy.JsonPatch));
    }
  });

  it('survives the apiserver stopped for 30 s mid-stream: every event arrives once, none twice', async function () {
    this.timeout(180_000);
    const plane = ControlPlane.attach(controlPlaneDir());
    const logger = new MemoryLogger();
    // client-go's own retry budget: 12 tries 10 s apart covers a 30 s outage.
    const caster = new EventBroadcaster({ logger });
    const watch = await caster.startRecordingToSink(new ApiserverEventSink(client));
    const recorder = caster.newRecorder({ component: 'kubernetes-events-test' });
    const expected = new Map<string, number>();
    const record = async (object: string, message: string) => {
      await recorder.event(configMap(object), 'Normal', 'Outage', message);
      expected.set(object, (expected.get(object) ?? 0) + 1);
    };
    // Before: five objects, two events each.
    for (let i = 0; i < 10; i++) await record(`outage-${i % 5}`, 'steady');
    await pollUntil('the first events to land', () => watch.stats.created + watch.stats.patched === 10);
    await plane.stopComponent('kube-apiserver');
    const outageStart = Date.now();
    // During: repeats of old objects (patches) and new objects (creates), one a second.
    for (let i = 0; Date.now() - outageStart < OUTAGE_MS; i++) {
      await record(i % 2 === 0 ? `outage-${i % 5}` : `outage-new-${i}`, 'steady');
      await new Promise((r) => setTimeout(r, 1000));
    }
    await plane.startComponent('kube-apiserver');
    await plane.restartControllers();
    // After: the queued events land as their retries come round.
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    await pollUntil('every event to be written', () => watch.stats.created + watch.stats.patched + watch.stats.failed >= total, 120_000, 500);
    await caster.shutdown();
    const retries = logger.lines.filter((l) => l.startsWith('ERROR Unable to write event (may retry after sleeping)')).length;
    console.log(`      ${total} events on ${expected.size} objects, ${watch.stats.created} created, ${watch.stats.patched} patched, ${retries} failed attempts retried`);
    assert.equal(watch.stats.failed, 0, `nothing given up: ${logger.lines.filter((l) => l.includes('will not retry') || l.includes('exceeded')).join('\n')}`);
    assert.ok(logger.lines.some((l) => l.startsWith('ERROR Unable to write event (may retry after sleeping)')), 'writes failed during the outage and were retried');
    const stored = (await core.listNamespacedEvent({ namespace, fieldSelector: 'reason=Outage' })).items;
    const byObject = new Map<string, number>();
    for (const e of stored) {
      assert.ok(!byObject.has(e.involvedObject.name as string), `one event object for ${e.involvedObject.name}`);
      byObject.set(e.involvedObject.name as string, e.count ?? 0);
    }
    assert.deepEqual(Object.fromEntries([...byObject].sort()), Object.fromEntries([...expected].sort()), 'each object has one event whose count is the number recorded');
  });
});
