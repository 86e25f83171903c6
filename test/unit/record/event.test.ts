// Ports of client-go tools/record/event_test.go (v0.34), then what the port adds: bad input
// gets a clear log line and a counter, throws nothing into the caller, and loses no other
// event; annotations and sources reach the event as client-go puts them.
import * as assert from 'node:assert/strict';
import { NANOS_PER_SECOND } from '../../../src/record/clock';
import { RequestConstructionError, StatusError, UnexpectedObjectError } from '../../../src/record/errors';
import { EventBroadcaster, MAX_QUEUED_EVENTS, NAMESPACE_DEFAULT } from '../../../src/record/event';
import { EventCorrelator } from '../../../src/record/eventsCache';
import { discardLogger } from '../../../src/record/logger';
import { MAX_TRIES_PER_EVENT, recordToSink, type EventSink } from '../../../src/record/recordToSink';
import { getPartialReference, type KubernetesObject } from '../../../src/record/reference';
import type { Event, ObjectReference } from '../../../src/record/types';
import { Channel } from '../../../src/record/watch/channel';
import { FakeClock, SimpleIntervalClock } from '../../support/clocks';
import { MemoryLogger } from '../../support/memoryLogger';
import { TestEventSink, next, validateEvent } from './support';

const START = BigInt(Date.now()) * 1_000_000n;

const testPod: KubernetesObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', namespace: 'baz', uid: 'bar' } };
const testPod2: KubernetesObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', namespace: 'baz', uid: 'differentUid' } };
const testRef = getPartialReference(testPod, 'spec.containers[2]');
const testRef2 = getPartialReference(testPod2, 'spec.containers[3]');

interface Step {
  obj: KubernetesObject | ObjectReference;
  reason: string;
  messageFmt: string;
  expect: Event;
  expectLog: string;
  expectStructuredLog: string;
  expectUpdate: boolean;
}

function step(obj: KubernetesObject | ObjectReference, ref: ObjectReference, reason: string, messageFmt: string, count: number, expectUpdate: boolean): Step {
  const message = messageFmt.replace('%v', '1');
  return {
    obj,
    reason,
    messageFmt,
    expect: { metadata: { name: 'foo', namespace: 'baz' }, involvedObject: ref, reason, message, source: { component: 'eventTest' }, reportingComponent: 'eventTest', count, type: 'Normal' },
    expectLog: `Event(v1.ObjectReference{Kind:"Pod", Namespace:"baz", Name:"foo", UID:"${ref.uid}", APIVersion:"v1", ResourceVersion:"", FieldPath:"${ref.fieldPath ?? ''}"}): type: 'Normal' reason: '${reason}' ${message}`,
    expectStructuredLog: `INFO Event occurred object="baz/foo" fieldPath="${ref.fieldPath ?? ''}" kind="Pod" apiVersion="v1" type="Normal" reason="${reason}" message="${message}"`,
    expectUpdate,
  };
}

/** The seven steps of TestEventf and TestMultiSinkCache. */
const table: Step[] = [
  step(testRef, testRef, 'Started', 'some verbose message: %v', 1, false),
  step(testPod, { kind: 'Pod', name: 'foo', namespace: 'baz', uid: 'bar', apiVersion: 'v1' }, 'Killed', 'some other verbose message: %v', 1, false),
  step(testRef, testRef, 'Started', 'some verbose message: %v', 2, true),
  step(testRef2, testRef2, 'Started', 'some verbose message: %v', 1, false),
  step(testRef, testRef, 'Started', 'some verbose message: %v', 3, true),
  step(testRef2, testRef2, 'Stopped', 'some verbose message: %v', 1, false),
  step(testRef2, testRef2, 'Stopped', 'some verbose message: %v', 2, true),
];

/** A broadcaster that retries at once and shuts down after the test (newBroadcasterForTests). */
function newBroadcasterForTests(cleanup: (() => Promise<void>)[], logger = discardLogger): EventBroadcaster {
  const b = new EventBroadcaster({ sleepDurationMs: 0, logger });
  cleanup.push(() => b.shutdown());
  return b;
}

describe('EventBroadcaster and EventRecorder (event_test.go)', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });

  it('TestBroadcasterShutdown: aborting the context stops the loop and every watcher', async () => {
    const controller = new AbortController();
    const caster = new EventBroadcaster({ signal: controller.signal });
    const watch = await caster.startStructuredLogging(0);
    controller.abort(new Error('time to stop'));
    // Nothing but the abort stops it: the watcher ends and the broadcaster is shut down.
    await watch.done;
    assert.equal(caster.isShutDown, true);
    const late = await caster.startStructuredLogging(0);
    await late.done;
  });

  it('TestStartEventWatcherExitsOnDirectShutdown: shutdown without a context ends the watcher', async () => {
    const caster = new EventBroadcaster();
    const watch = await caster.startStructuredLogging(0);
    await caster.shutdown();
    await watch.done;
  });

  it('TestNonRacyShutdown: 100 concurrent eventf calls then shutdown, nothing throws', async () => {
    const caster = newBroadcasterForTests(cleanup);
    const recorder = caster.newRecorder({ component: 'eventTest' }, { clock: new FakeClock(START) });
    const calls = Array.from({ length: 100 }, () => recorder.eventf({}, 'Normal', 'Started', 'blah'));
    await caster.shutdown();
    assert.deepEqual(await Promise.all(calls), Array(100).fill(true));
  });

  it('TestEventf: creates, patches and counts, and logs each event in both formats', async () => {
    const sink = new TestEventSink();
    const logger = new MemoryLogger();
    const caster = new EventBroadcaster({ sleepDurationMs: 0, logger });
    cleanup.push(() => caster.shutdown());
    const sinkWatcher = await caster.startRecordingToSink(sink);
    const clock = new FakeClock(START);
    const recorder = caster.newRecorder({ component: 'eventTest' }, { clock });
    for (const [index, item] of table.entries()) {
      clock.step(NANOS_PER_SECOND);
      const logged = new Channel<string>(1);
      const logWatcher = await caster.startLogging((line) => logged.trySend(line));
      const oldEnd = logger.lines.length;
      const structuredLogWatcher = await caster.startStructuredLogging(0);
      void recorder.eventf(item.obj, 'Normal', item.reason, item.messageFmt, 1);
      assert.equal(await next(logged, 'the log line'), item.expectLog);
      const actual = await next(item.expectUpdate ? sink.patched : sink.created, item.expectUpdate ? 'a patch' : 'a create');
      validateEvent(String(index), actual, item.expect);
      await logWatcher.stop();
      await structuredLogWatcher.stop();
      await structuredLogWatcher.done;
      assert.deepEqual(logger.lines.slice(oldEnd), [item.expectStructuredLog], 'new structured log output');
    }
    await sinkWatcher.stop();
  });

  describe('TestWriteEventError', () => {
    const cases: Record<string, { timesToSendError: number; attemptsWanted: number; err: Error }> = {
      giveUp1: { timesToSendError: 1000, attemptsWanted: 1, err: new RequestConstructionError('') },
      giveUp2: { timesToSendError: 1000, attemptsWanted: 1, err: new StatusError(0, '', '') },
      retry1: { timesToSendError: 1000, attemptsWanted: MAX_TRIES_PER_EVENT, err: new UnexpectedObjectError('') },
      retry2: { timesToSendError: 1000, attemptsWanted: MAX_TRIES_PER_EVENT, err: new Error('A weird error') },
      succeedEventually: { timesToSendError: 2, attemptsWanted: 2, err: new Error('A weird error') },
    };
    // One correlator for every case, as in Go.
    const correlator = new EventCorrelator({ clock: new SimpleIntervalClock(START, NANOS_PER_SECOND) });
    for (const [name, c] of Object.entries(cases)) {
      it(name, async () => {
        let attempts = 0;
        const sink: EventSink = {
          create: async (e) => {
            attempts++;
            if (attempts < c.timesToSendError) throw c.err;
            return e;
          },
          update: async (e) => e,
          patch: async (e) => e,
        };
        await recordToSink(sink, { metadata: {}, involvedObject: {} }, correlator, { sleepDurationMs: 0, signal: new AbortController().signal, logger: discardLogger, random: Math.random });
        assert.equal(attempts, c.attemptsWanted);
      });
    }
  });

  it('TestUpdateExpiredEvent: a patch answered 404 becomes a create without resourceVersion', async () => {
    let createdEvent: Event | undefined;
    const sink: EventSink = {
      patch: async () => {
        throw new StatusError(404, 'NotFound', 'not found');
      },
      create: async (e) => (createdEvent = e),
      update: async (e) => e,
    };
    const correlator = new EventCorrelator({ clock: new SimpleIntervalClock(START, NANOS_PER_SECOND) });
    const ev: Event = { metadata: { resourceVersion: 'updated-resource-version' }, involvedObject: {}, count: 2 };
    await recordToSink(sink, ev, correlator, { sleepDurationMs: 0, signal: new AbortController().signal, logger: discardLogger, random: Math.random });
    assert.ok(createdEvent, 'the event was created after the patch failed');
    assert.equal(createdEvent.metadata.resourceVersion ?? '', '');
  });

  it('TestCancelEvent: with the context already cancelled, one attempt and no retry', async () => {
    let attempts = 0;
    const sink: EventSink = {
      create: async () => {
        attempts++;
        throw new UnexpectedObjectError('');
      },
      update: async (e) => e,
      patch: async (e) => e,
    };
    const controller = new AbortController();
    controller.abort();
    const correlator = new EventCorrelator({ clock: new SimpleIntervalClock(START, NANOS_PER_SECOND) });
    const outcome = await recordToSink(sink, { metadata: {}, involvedObject: {} }, correlator, { sleepDurationMs: 1000, signal: controller.signal, logger: discardLogger, random: Math.random });
    assert.equal(attempts, 1);
    assert.equal(outcome, 'failed');
  });

  it('TestLotsOfEvents: 1000 events, each failing 4 times, all reach the sink and the logger', async function () {
    this.timeout(30_000);
    const counts = new Array<number>(MAX_QUEUED_EVENTS).fill(0);
    let recorded = 0;
    let allRecorded!: () => void;
    const everyEventRecorded = new Promise<void>((resolve) => (allRecorded = resolve));
    const sink: EventSink = {
      create: async (e) => {
        const num = Number(e.message);
        counts[num]++;
        if (counts[num] < 5) throw new Error('fake error');
        if (++recorded === MAX_QUEUED_EVENTS) allRecorded();
        return e;
      },
      update: async (e) => e,
      patch: async (e) => e,
    };
    const caster = newBroadcasterForTests(cleanup);
    const sinkWatcher = await caster.startRecordingToSink(sink);
    let logged = 0;
    const logWatcher = await caster.startLogging(() => logged++);
    const recorder = caster.newRecorder({ component: 'eventTest' });
    const sends = Array.from({ length: MAX_QUEUED_EVENTS }, (_, i) =>
      // A unique object stops spam filtering; a unique reason stops aggregation.
      recorder.eventf({ kind: 'Pod', name: `foo-${i}`, namespace: 'baz', uid: 'bar', apiVersion: 'version' }, 'Normal', `Reason-${i}`, String(i)),
    );
    assert.deepEqual(new Set(await Promise.all(sends)), new Set([true]), 'none dropped by the recorder');
    await everyEventRecorded;
    await sinkWatcher.stop();
    await logWatcher.stop();
    await sinkWatcher.done;
    await logWatcher.done;
    assert.equal(recorded, MAX_QUEUED_EVENTS, 'every event reached the sink');
    assert.equal(logged, MAX_QUEUED_EVENTS, 'every event reached the logger');
    counts.forEach((c, i) => assert.ok(c >= 5, `event ${i} attempted ${c} times`));
    assert.equal(sinkWatcher.dropped + logWatcher.dropped, 0);
  });

  it('TestEventfNoNamespace: an object without a namespace gets its event in "default"', async () => {
    const sink = new TestEventSink();
    const caster = newBroadcasterForTests(cleanup);
    const sinkWatcher = await caster.startRecordingToSink(sink);
    const clock = new FakeClock(START);
    const recorder = caster.newRecorder({ component: 'eventTest' }, { clock });
    const ref = getPartialReference({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', uid: 'bar' } }, 'spec.containers[2]');
    clock.step(NANOS_PER_SECOND);
    const logged = new Channel<string>(1);
    const logWatcher = await caster.startLogging((line) => logged.trySend(line));
    void recorder.eventf(ref, 'Normal', 'Started', 'some verbose message: %v', 1);
    assert.equal(await next(logged, 'the log line'), `Event(v1.ObjectReference{Kind:"Pod", Namespace:"", Name:"foo", UID:"bar", APIVersion:"v1", ResourceVersion:"", FieldPath:"spec.containers[2]"}): type: 'Normal' reason: 'Started' some verbose message: 1`);
    const actual = await next(sink.created, 'a create');
    validateEvent('0', actual, {
      metadata: { name: 'foo', namespace: NAMESPACE_DEFAULT },
      involvedObject: { kind: 'Pod', name: 'foo', namespace: '', uid: 'bar', apiVersion: 'v1', fieldPath: 'spec.containers[2]' },
      reason: 'Started',
      message: 'some verbose message: 1',
      source: { component: 'eventTest' },
      count: 1,
      type: 'Normal',
    });
    await logWatcher.stop();
    await sinkWatcher.stop();
  });

  it('TestMultiSinkCache: a second sink starts with a clean cache', async () => {
    const sink = new TestEventSink();
    const sink2 = new TestEventSink();
    const caster = newBroadcasterForTests(cleanup);
    const clock = new FakeClock(START);
    const recorder = caster.newRecorder({ component: 'eventTest' }, { clock });
    const sinkWatcher = await caster.startRecordingToSink(sink);
    for (const [index, item] of table.entries()) {
      clock.step(NANOS_PER_SECOND);
      void recorder.eventf(item.obj, 'Normal', item.reason, item.messageFmt, 1);
      validateEvent(String(index), await next(item.expectUpdate ? sink.patched : sink.created, 'sink 1'), item.expect);
    }
    await sinkWatcher.stop();
    const sinkWatcher2 = await caster.startRecordingToSink(sink2);
    for (const [index, item] of table.entries()) {
      clock.step(NANOS_PER_SECOND);
      void recorder.eventf(item.obj, 'Normal', item.reason, item.messageFmt, 1);
      validateEvent(String(index), await next(item.expectUpdate ? sink2.patched : sink2.created, 'sink 2'), item.expect);
    }
    await sinkWatcher2.stop();
  });
});

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
