// Bad input to the recorder: each gets a clear log line and a counter, throws nothing into
// the caller, and loses no other event.
import * as assert from 'node:assert/strict';
import { FakeClock } from '../../../src/record/clock';
import { EventBroadcaster, MAX_QUEUED_EVENTS } from '../../../src/record/event';
import { MemoryLogger } from '../../../src/record/logger';
import { TestEventSink, next } from './support';

const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'shop', uid: 'u1' } };

describe('recorder: bad input', () => {
  let logger: MemoryLogger;
  let caster: EventBroadcaster;
  let sink: TestEventSink;

  beforeEach(async () => {
    logger = new MemoryLogger();
    caster = new EventBroadcaster({ sleepDurationMs: 0, logger });
    sink = new TestEventSink();
    await caster.startRecordingToSink(sink);
  });
  afterEach(() => caster.shutdown());

  it('an invalid event type is refused with a specific log line; the next event still goes out', async () => {
    const recorder = caster.newRecorder({ component: 'kev' }, { clock: new FakeClock(1n) });
    assert.equal(await recorder.event(pod, 'Error', 'Boom', 'x'), false);
    assert.equal(await recorder.event(pod, 'Normal', 'Fine', 'y'), true);
    assert.equal((await next(sink.created, 'the valid event')).reason, 'Fine');
    assert.equal(caster.dropped.invalidType, 1);
    assert.ok(logger.lines.some((l) => l.startsWith('ERROR Unsupported event type err="unsupported event type: \\"Error\\"; use Normal or Warning"')), logger.lines.join('\n'));
  });

  it('an object without a name is refused with a log line naming what is missing', async () => {
    const recorder = caster.newRecorder({ component: 'kev' });
    assert.equal(await recorder.event({ apiVersion: 'v1', kind: 'Pod', metadata: {} }, 'Normal', 'R', 'm'), false);
    assert.equal(caster.dropped.invalidReference, 1);
    assert.ok(logger.lines.some((l) => l.includes('Could not construct reference, will not report event') && l.includes('metadata.name is missing')), logger.lines.join('\n'));
    assert.equal(await recorder.event(pod, 'Warning', 'R', 'm'), true);
    assert.equal((await next(sink.created, 'the valid event')).type, 'Warning');
  });

  it('a call after shutdown logs "will not retry" and resolves false instead of throwing', async () => {
    const recorder = caster.newRecorder({ component: 'kev' });
    await caster.shutdown();
    assert.equal(await recorder.eventf(pod, 'Normal', 'Late', 'after %s', 'shutdown'), false);
    assert.equal(caster.dropped.afterShutdown, 1);
    assert.ok(logger.lines.some((l) => l.startsWith('ERROR Unable to record event (will not retry!) err="broadcaster already stopped"')), logger.lines.join('\n'));
    assert.deepEqual(await caster.startEventWatcher(() => undefined).then((w) => w.dropped), 0, 'a watcher started after shutdown is an empty watch');
  });

  it('events past the queue are dropped, counted and logged; the queued ones all arrive', async () => {
    const slow = new EventBroadcaster({ sleepDurationMs: 0, logger });
    const seen: string[] = [];
    await slow.startEventWatcher((e) => {
      seen.push(e.message ?? '');
    });
    const recorder = slow.newRecorder({ component: 'kev' });
    // Synchronous calls: the distributor cannot run in between. It is waiting on the queue,
    // so it takes the first event straight away (as a Go receiver does), and the queue holds
    // MAX_QUEUED_EVENTS more.
    const accepted = MAX_QUEUED_EVENTS + 1;
    const results = Array.from({ length: accepted + 5 }, (_, i) => recorder.event({ kind: 'Pod', apiVersion: 'v1', name: `p${i}` }, 'Normal', 'R', String(i)));
    assert.equal((await Promise.all(results)).filter((r) => !r).length, 5);
    assert.equal(slow.dropped.queueFull, 5);
    await slow.shutdown();
    assert.equal(seen.length, accepted);
    assert.deepEqual(seen.slice(0, 3), ['0', '1', '2']);
    assert.ok(logger.lines.some((l) => l.startsWith('ERROR Unable to record event: too many queued events, dropped event')));
  });

  it('shutdown flushes: events queued before it each get one write attempt', async () => {
    const recorder = caster.newRecorder({ component: 'kev' });
    for (let i = 0; i < 50; i++) void recorder.event({ kind: 'Pod', apiVersion: 'v1', name: `p${i}`, namespace: 'ns' }, 'Normal', `R${i}`, 'm');
    await caster.shutdown();
    assert.equal(sink.store.size, 50);
  });
});

describe('recorder: annotations and sources', () => {
  it('annotatedEventf puts the annotations on the event; a repeat patches count, time and message only', async () => {
    const caster = new EventBroadcaster({ sleepDurationMs: 0 });
    const sink = new TestEventSink();
    await caster.startRecordingToSink(sink);
    const recorder = caster.newRecorder({ component: 'kev', host: 'laptop' }, { clock: new FakeClock(1_700_000_000_000_000_000n) });
    void recorder.annotatedEventf(pod, { 'example.com/run': '7' }, 'Normal', 'Deployed', 'version %s', 'v2');
    const created = await next(sink.created, 'the create');
    assert.deepEqual(created.metadata.annotations, { 'example.com/run': '7' });
    assert.equal(created.metadata.name, 'web-1.17979cfe362a0000');
    assert.equal(created.metadata.namespace, 'shop');
    assert.deepEqual(created.source, { component: 'kev', host: 'laptop' });
    assert.equal(created.reportingComponent, 'kev');
    assert.equal(created.reportingInstance, 'laptop');
    void recorder.annotatedEventf(pod, { 'example.com/run': '8' }, 'Normal', 'Deployed', 'version %s', 'v2');
    const patched = await next(sink.patched, 'the patch');
    assert.equal(patched.count, 2);
    assert.deepEqual(patched.metadata.annotations, { 'example.com/run': '7' }, 'only the first occurrence’s annotations reach the server, as in client-go');
    await caster.shutdown();
  });
});
