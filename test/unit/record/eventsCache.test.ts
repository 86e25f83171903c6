// Ports of client-go tools/record/events_cache_test.go (v0.34), and the exact patch vectors
// of the spec.
import * as assert from 'node:assert/strict';
import { formatTime, NANOS_PER_SECOND } from '../../../src/record/clock';
import {
  DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS,
  DEFAULT_AGGREGATE_MAX_EVENTS,
  DEFAULT_SPAM_BURST,
  EventCorrelator,
  eventAggregatorByReasonFunc,
  eventAggregatorByReasonMessageFunc,
  repeatPatch,
  type EventSpamKeyFunc,
} from '../../../src/record/eventsCache';
import type { Event, ObjectReference } from '../../../src/record/types';
import { SimpleIntervalClock } from '../../support/clocks';

const NOW = BigInt(Date.now()) * 1_000_000n;

function makeObjectReference(kind: string, name: string, namespace: string): ObjectReference {
  return { kind, name, namespace, uid: 'C934D34AFB20242', apiVersion: 'version', fieldPath: 'spec.containers{mycontainer}' };
}

function makeEvent(reason: string, message: string, involvedObject: ObjectReference): Event {
  const at = formatTime(NOW);
  return { metadata: {}, reason, message, involvedObject, source: { component: 'kubelet', host: 'kublet.node1' }, count: 1, firstTimestamp: at, lastTimestamp: at, type: 'Normal' };
}

function clone(e: Event): Event {
  return JSON.parse(JSON.stringify(e)) as Event;
}

function makeEvents(n: number, template: Event): Event[] {
  return Array.from({ length: n }, () => clone(template));
}

function makeUniqueEvents(n: number): Event[] {
  return Array.from({ length: n }, (_, i) => makeEvent(`reason-${i}`, `message-${i}`, makeObjectReference('Pod', `pod-${i}`, `ns-${i}`)));
}

function makeSimilarEvents(n: number, template: Event, prefix: string): Event[] {
  return makeEvents(n, template).map((e, i) => ({ ...e, message: [prefix, String(i), e.message].join('-') }));
}

function setCount(e: Event, count: number): Event {
  return { ...clone(e), count };
}

/** Drops undefined fields, so a deep comparison is Go's reflect.DeepEqual of the wire form. */
function normal(e: Event): Event {
  return JSON.parse(JSON.stringify(e)) as Event;
}

/** validateEvent of events_cache_test.go. */
function validateEvent(scenario: string, actual: Event, expected: Event): void {
  assert.ok(actual.firstTimestamp && actual.lastTimestamp, `${scenario}: timestamps are set`);
  const compressed = (expected.count ?? 0) > 1;
  if (actual.firstTimestamp === actual.lastTimestamp) assert.ok(!compressed, `${scenario}: first and last must differ after compression`);
  else assert.notEqual(expected.count, 1, `${scenario}: first and last must be equal for one occurrence`);
  assert.ok((actual.metadata.name ?? '').startsWith(expected.metadata.name ?? ''), `${scenario}: name prefix`);
  const received = normal({ ...actual, firstTimestamp: expected.firstTimestamp, lastTimestamp: expected.lastTimestamp, reportingComponent: expected.reportingComponent, metadata: { ...actual.metadata, name: expected.metadata.name } });
  assert.deepEqual(received, normal(expected), scenario);
}

describe('EventCorrelator (events_cache_test.go)', () => {
  it('TestEventAggregatorByReasonFunc: only the message tells similar events apart', () => {
    const e1 = makeEvent('end-of-world', 'it was fun', makeObjectReference('Pod', 'pod1', 'other'));
    const e2 = makeEvent('end-of-world', 'it was awful', makeObjectReference('Pod', 'pod1', 'other'));
    const e3 = makeEvent('nevermind', 'it was a bug', makeObjectReference('Pod', 'pod1', 'other'));
    const [agg1, local1] = eventAggregatorByReasonFunc(e1);
    const [agg2, local2] = eventAggregatorByReasonFunc(e2);
    const [agg3] = eventAggregatorByReasonFunc(e3);
    assert.equal(agg1, agg2);
    assert.notEqual(local1, local2);
    assert.notEqual(agg1, agg3);
  });

  it('TestEventAggregatorByReasonMessageFunc: the aggregate message starts with "(combined from similar events): "', () => {
    const e = makeEvent('end-of-world', 'it was fun', makeObjectReference('Pod', 'pod1', 'other'));
    assert.ok(eventAggregatorByReasonMessageFunc(e).startsWith('(combined from similar events): '));
  });

  describe('TestEventCorrelator', () => {
    const firstEvent = makeEvent('first', 'i am first', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const duplicateEvent = makeEvent('duplicate', 'me again', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const uniqueEvent = makeEvent('unique', 'snowflake', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const similarEvent = makeEvent('similar', 'similar message', { ...makeObjectReference('Pod', 'my-pod', 'my-ns'), fieldPath: 'spec.containers{container1}' });
    const aggregateEvent = makeEvent(similarEvent.reason as string, eventAggregatorByReasonMessageFunc(similarEvent), similarEvent.involvedObject);
    const similarButDifferentContainerEvent = { ...clone(similarEvent), involvedObject: { ...similarEvent.involvedObject, fieldPath: 'spec.containers{container2}' } };

    const scenarios: Record<string, { previousEvents: Event[]; newEvent: Event; expectedEvent?: Event; intervalSeconds: number; expectedSkip?: boolean }> = {
      'create-a-single-event': { previousEvents: [], newEvent: firstEvent, expectedEvent: setCount(firstEvent, 1), intervalSeconds: 5 },
      'the-same-event-should-just-count': { previousEvents: makeEvents(1, duplicateEvent), newEvent: duplicateEvent, expectedEvent: setCount(duplicateEvent, 2), intervalSeconds: 5 },
      'the-same-event-should-just-count-even-if-more-than-aggregate': {
        previousEvents: makeEvents(DEFAULT_AGGREGATE_MAX_EVENTS, duplicateEvent),
        newEvent: duplicateEvent,
        expectedEvent: setCount(duplicateEvent, DEFAULT_AGGREGATE_MAX_EVENTS + 1),
        intervalSeconds: 30,
      },
      'the-same-event-is-spam-if-happens-too-frequently': { previousEvents: makeEvents(DEFAULT_SPAM_BURST + 1, duplicateEvent), newEvent: duplicateEvent, expectedSkip: true, intervalSeconds: 1 },
      'create-many-unique-events': { previousEvents: makeUniqueEvents(30), newEvent: uniqueEvent, expectedEvent: setCount(uniqueEvent, 1), intervalSeconds: 5 },
      'similar-events-should-aggregate-event': {
        previousEvents: makeSimilarEvents(DEFAULT_AGGREGATE_MAX_EVENTS - 1, similarEvent, similarEvent.message as string),
        newEvent: similarEvent,
        expectedEvent: setCount(aggregateEvent, 1),
        intervalSeconds: 5,
      },
      'similar-events-many-times-should-count-the-aggregate': {
        previousEvents: makeSimilarEvents(DEFAULT_AGGREGATE_MAX_EVENTS, similarEvent, similarEvent.message as string),
        newEvent: similarEvent,
        expectedEvent: setCount(aggregateEvent, 2),
        intervalSeconds: 5,
      },
      'events-from-different-containers-do-not-aggregate': { previousEvents: makeEvents(1, similarButDifferentContainerEvent), newEvent: similarEvent, expectedEvent: setCount(similarEvent, 1), intervalSeconds: 5 },
      'similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate': {
        previousEvents: makeSimilarEvents(DEFAULT_AGGREGATE_MAX_EVENTS - 1, similarEvent, similarEvent.message as string),
        newEvent: similarEvent,
        expectedEvent: setCount(similarEvent, 1),
        intervalSeconds: DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS,
      },
    };

    for (const [scenario, input] of Object.entries(scenarios)) {
      it(scenario, () => {
        const clock = new SimpleIntervalClock(NOW, BigInt(input.intervalSeconds) * NANOS_PER_SECOND);
        const correlator = new EventCorrelator({ clock });
        for (const previous of input.previousEvents) {
          const at = formatTime(clock.now());
          const result = correlator.eventCorrelate({ ...clone(previous), firstTimestamp: at, lastTimestamp: at });
          if (!result.skip) correlator.updateState(result.event);
        }
        const at = formatTime(clock.now());
        const result = correlator.eventCorrelate({ ...clone(input.newEvent), firstTimestamp: at, lastTimestamp: at });
        assert.equal(result.skip, input.expectedSkip ?? false, 'skip');
        if (!result.skip) validateEvent(scenario, result.event, input.expectedEvent as Event);
      });
    }
  });

  describe('TestEventSpamFilter', () => {
    const spamKeyFuncBasedOnObjectsAndReason: EventSpamKeyFunc = (e) =>
      [e.source?.component, e.source?.host, e.involvedObject.kind, e.involvedObject.namespace, e.involvedObject.name, e.involvedObject.uid, e.involvedObject.apiVersion, e.reason].map((s) => s ?? '').join('');
    const originalEvent = makeEvent('original', 'i am first', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const differentReasonEvent = makeEvent('duplicate', 'me again', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const spamEvent = makeEvent('original', 'me again', makeObjectReference('Pod', 'my-pod', 'my-ns'));
    const cases: Record<string, { newEvent: Event; expectedEvent?: Event; expectedSkip: boolean; spamKeyFunc?: EventSpamKeyFunc }> = {
      'event should be reported as spam if object reference is the same for default spam filter': { newEvent: differentReasonEvent, expectedSkip: true },
      'event should not be reported as spam if object reference is the same, but reason is different for custom spam filter': {
        newEvent: differentReasonEvent,
        expectedEvent: differentReasonEvent,
        expectedSkip: false,
        spamKeyFunc: spamKeyFuncBasedOnObjectsAndReason,
      },
      'event should  be reported as spam if object reference and reason is the same, but message is different for custom spam filter': { newEvent: spamEvent, expectedSkip: true, spamKeyFunc: spamKeyFuncBasedOnObjectsAndReason },
    };
    for (const [description, input] of Object.entries(cases)) {
      it(description, () => {
        const correlator = new EventCorrelator({ clock: new SimpleIntervalClock(NOW, NANOS_PER_SECOND), spamKeyFunc: input.spamKeyFunc, burstSize: 1 });
        const first = correlator.eventCorrelate(clone(originalEvent));
        if (!first.skip) correlator.updateState(first.event);
        const result = correlator.eventCorrelate(clone(input.newEvent));
        assert.equal(result.skip, input.expectedSkip);
        if (!result.skip) validateEvent(description, result.event, input.expectedEvent as Event);
      });
    }
  });
});

describe('the repeat patch (CreateTwoWayMergePatch of count, lastTimestamp, message)', () => {
  it('holds count, lastTimestamp and message, keys sorted', () => {
    const e: Event = { metadata: { name: 'foo.1' }, involvedObject: {}, count: 2, lastTimestamp: '2023-01-01T12:00:01Z', message: 'some verbose message: 1' };
    assert.equal(repeatPatch(e), '{"count":2,"lastTimestamp":"2023-01-01T12:00:01Z","message":"some verbose message: 1"}');
  });

  it('omits an empty message and escapes as Go does', () => {
    assert.equal(repeatPatch({ metadata: {}, involvedObject: {}, count: 3, lastTimestamp: '2023-01-01T12:00:01Z' }), '{"count":3,"lastTimestamp":"2023-01-01T12:00:01Z"}');
    assert.equal(repeatPatch({ metadata: {}, involvedObject: {}, count: 3, lastTimestamp: null, message: '<b>&\u2028' }), '{"count":3,"lastTimestamp":null,"message":"\\u003cb\\u003e\\u0026\\u2028"}');
  });
});
