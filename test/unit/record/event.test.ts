// Ports of client-go tools/record/event_test.go (v0.34).
import * as assert from 'node:assert/strict';
import { FakeClock, NANOS_PER_SECOND, SimpleIntervalClock } from '../../../src/record/clock';
import { RequestConstructionError, StatusError, UnexpectedObjectError } from '../../../src/record/errors';
import { EventBroadcaster, MAX_QUEUED_EVENTS, NAMESPACE_DEFAULT } from '../../../src/record/event';
import { EventCorrelator } from '../../../src/record/eventsCache';
import { MemoryLogger, discardLogger } from '../../../src/record/logger';
import { MAX_TRIES_PER_EVENT, recordToSink, type EventSink } from '../../../src/record/recordToSink';
import { getPartialReference, type KubernetesObject } from '../../../src/record/reference';
import type { Event, ObjectReference } from '../../../src/record/types';
import { Channel } from '../../../src/record/watch/channel';
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
