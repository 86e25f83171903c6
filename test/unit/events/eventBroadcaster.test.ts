// Ports of client-go tools/events' tests (v0.37.2: eventseries_test.go, event_recorder_test.go,
// helper_test.go), then what they leave unsaid and the port must still do as Go does: the
// error matrix of recordEvent, the third occurrence counted in memory alone, the refresh and
// finish loops driven by an injected clock and sleeper, the jittered waits between attempts.
import * as assert from 'node:assert/strict';
import { formatMicroTime, NANOS_PER_SECOND } from '../../../src/record/clock';
import { RequestConstructionError, StatusError } from '../../../src/record/errors';
import { getPartialReference, type KubernetesObject } from '../../../src/record/reference';
import { isDNS1123Subdomain } from '../../../src/record/util';
import { EventBroadcaster, FINISH_TIME_MS, REFRESH_TIME_MS } from '../../../src/events/eventBroadcaster';
import { getKey } from '../../../src/events/eventKey';
import { getFieldSelector } from '../../../src/events/helper';
import { createPatchBytesForSeries, MAX_TRIES_PER_EVENT, type EventSink } from '../../../src/events/recordEvent';
import type { Event, WireEvent } from '../../../src/events/types';
import { FakeClock } from '../../support/clocks';
import { MemoryLogger } from '../../support/memoryLogger';

const MINUTE = 60n * NANOS_PER_SECOND;
/** 2023-01-01T12:00:00Z, as TestEventf's fake clock. */
const T0 = 1672574400n * NANOS_PER_SECOND;

const testPod: KubernetesObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'foo', namespace: 'baz', uid: 'bar' } };
const regarding = getPartialReference(testPod, '.spec.containers[1]');
const related = getPartialReference(testPod, '.spec.containers[0]');

type Call = { op: 'create' | 'update' | 'patch'; event: WireEvent; patch?: string };

/** testEventSeriesSink: each call noted; answers what `answer` says (the event itself by default). */
class TestSink implements EventSink {
  readonly calls: Call[] = [];
  constructor(private readonly answer: (c: Call) => WireEvent | Error = (c) => c.event) {}
  private reply(c: Call): Promise<WireEvent> {
    this.calls.push(c);
    const a = this.answer(c);
    return a instanceof Error ? Promise.reject(a) : Promise.resolve(JSON.parse(JSON.stringify(a)) as WireEvent);
  }
  create(event: WireEvent) {
    return this.reply({ op: 'create', event });
  }
  update(event: WireEvent) {
    return this.reply({ op: 'update', event });
  }
  patch(event: WireEvent, patch: string) {
    return this.reply({ op: 'patch', event, patch });
  }
  ops(): string {
    return this.calls.map((c) => c.op).join(',');
  }
}

/** Waits the port asks for, kept until released: the retries' and the loops'. */
class ManualSleeper {
  readonly waits: { ms: number; resolve: (ok: boolean) => void }[] = [];
  readonly sleep = (ms: number, signal: AbortSignal): Promise<boolean> =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve(false);
      this.waits.push({ ms, resolve });
      signal.addEventListener('abort', () => resolve(false), { once: true });
    });
  /** Ends the oldest wait of `ms`. */
  release(ms: number): void {
    const i = this.waits.findIndex((w) => w.ms === ms);
    assert.ok(i >= 0, `a wait of ${ms} ms (waiting: ${this.waits.map((w) => w.ms).join(', ')})`);
    this.waits.splice(i, 1)[0].resolve(true);
  }
}

const settle = () => new Promise((r) => setImmediate(r));

function setup(sink: EventSink, clock = new FakeClock(T0), sleepDurationMs = 0) {
  const sleeper = new ManualSleeper();
  const logger = new MemoryLogger();
  const b = new EventBroadcaster(sink, { clock, sleepDurationMs, logger, random: () => 0.5, sleep: sleepDurationMs === 0 ? undefined : sleeper.sleep });
  const recorder = b.newRecorder('eventTest', { clock, hostname: 'host' });
  return { b, recorder, sleeper, logger, clock };
}

/** startRecordingEvents alone (no loops), as the Go tests do: the sink's watcher. */
async function startWatcher(b: EventBroadcaster, signal = new AbortController().signal) {
  const options = { sleepDurationMs: 0, signal, logger: new MemoryLogger(), random: () => 0, sleep: async () => true };
  return b.startEventWatcher((e) => b.recordToSink(e, options));
}

async function recorded(b: EventBroadcaster): Promise<void> {
  for (let i = 0; i < 5; i++) await settle();
  await b.idle();
}

describe('events/EventBroadcaster (tools/events v0.37.2)', () => {
  it('TestEventSeriesf: the first occurrence is created, an isomorphic one patches it into a series of 2, another action is created apart', async () => {
    const sink = new TestSink();
    const { b, recorder } = setup(sink);
    await startWatcher(b);
    await recorder.eventf(regarding, related, 'Normal', 'test', 'started', 'some verbose message: %d', 1);
    await recorded(b);
    await recorder.eventf(regarding, related, 'Normal', 'test', 'started', 'some verbose message: %d', 1);
    await recorded(b);
    await recorder.eventf(regarding, related, 'Normal', 'test', 'stopped', 'some verbose message: %d', 1);
    await recorded(b);
    assert.equal(sink.ops(), 'create,patch,create');
    const [first, patched, other] = sink.calls;
    assert.equal(first.event.series, undefined);
    assert.equal(patched.event.series?.count, 2);
    assert.ok(patched.event.metadata.name?.startsWith('foo.'), 'the series keeps the first event\'s name');
    assert.equal(patched.event.metadata.name, first.event.metadata.name);
    assert.notEqual(patched.event.eventTime, null);
    assert.equal(patched.patch, `{"series":{"count":2,"lastObservedTime":"${formatMicroTime(T0)}"}}`);
    assert.equal(other.event.series, undefined);
    assert.equal(other.event.action, 'stopped');
    assert.equal(first.event.note, 'some verbose message: 1');
    assert.deepEqual(first.event.related, related);
    assert.equal(first.event.reportingInstance, 'eventTest-host');
  });

  it('a third and later occurrence only counts in memory: no call to the apiserver', async () => {
    const sink = new TestSink();
    const { b, recorder, clock } = setup(sink);
    await startWatcher(b);
    for (let i = 0; i < 5; i++) {
      clock.step(NANOS_PER_SECOND);
      await recorder.eventf(regarding, undefined, 'Warning', 'BackOff', 'restarting', 'note %d', i);
      await recorded(b);
    }
    assert.equal(sink.ops(), 'create,patch');
    const cached = [...b.eventCache.values()];
    assert.equal(cached.length, 1);
    assert.equal(cached[0].series?.count, 5);
    assert.equal(cached[0].series?.lastObservedTime, T0 + 5n * NANOS_PER_SECOND);
    assert.equal(cached[0].note, 'note 0', 'the first note stays: the note is not in the key');
  });

  it('TestFinishSeries: a series last seen 9 minutes ago is patched once and forgotten; a fresh lone event is kept', async () => {
    const sink = new TestSink();
    const { b, recorder, clock } = setup(sink);
    await startWatcher(b);
    await recorder.eventf(regarding, related, 'Normal', 'test', 'started', 'x');
    await recorded(b);
    await recorder.eventf(regarding, related, 'Normal', 'test', 'started', 'x');
    await recorded(b);
    const lastObserved = T0 - 9n * MINUTE;
    [...b.eventCache.values()][0].series = { count: 10, lastObservedTime: lastObserved };
    const other = b.newRecorder('k8s.io/kube-foo', { clock, hostname: 'host' });
    await other.eventf(regarding, related, 'Normal', 'test', 'started', 'x');
    await recorded(b);
    sink.calls.length = 0;
    await b.finishSeries();
    assert.equal(sink.ops(), 'patch');
    assert.equal(sink.calls[0].patch, `{"series":{"count":10,"lastObservedTime":"${formatMicroTime(lastObserved)}"}}`);
    assert.equal(b.eventCache.size, 1);
    assert.equal([...b.eventCache.values()][0].reportingController, 'k8s.io/kube-foo');
  });

  it('finishSeries: exactly 6 minutes is not finished (strictly before); a lone event older than 6 minutes is forgotten without a call', async () => {
    const sink = new TestSink();
    const { b, clock } = setup(sink);
    const at = (minutesAgo: bigint, series: boolean, reason: string): Event => ({
      metadata: { name: reason, namespace: 'baz' },
      eventTime: clock.now() - minutesAgo * MINUTE,
      regarding,
      reason,
      type: 'Normal',
      ...(series ? { series: { count: 3, lastObservedTime: clock.now() - minutesAgo * MINUTE } } : {}),
    });
    for (const e of [at(6n, true, 'exactly6'), at(7n, false, 'lone7'), at(5n, false, 'lone5')]) b.eventCache.set(getKey(e), e);
    await b.finishSeries();
    assert.equal(sink.ops(), '');
    assert.deepEqual([...b.eventCache.values()].map((e) => e.reason).sort(), ['exactly6', 'lone5']);
  });

  it('finishSeries forgets a series even when the apiserver refuses its last patch, and keeps it when the write is to be retried', async () => {
    let refuse = true;
    const sink = new TestSink((c) => (refuse ? new StatusError(500, 'InternalError', 'no') : c.op === 'patch' ? new Error('connection reset') : c.event));
    const { b, clock } = setup(sink);
    const e: Event = { metadata: { name: 'a', namespace: 'baz' }, eventTime: clock.now(), regarding, reason: 'R', type: 'Normal', series: { count: 4, lastObservedTime: clock.now() - 10n * MINUTE } };
    b.eventCache.set(getKey(e), e);
    await b.finishSeries();
    assert.equal(b.eventCache.size, 0, 'refused (no retry): forgotten, its count lost as in Go');
    refuse = false;
    b.eventCache.set(getKey(e), e);
    await b.finishSeries();
    assert.equal(b.eventCache.size, 1, 'a transport failure: kept for the next pass');
  });

  it('TestRefreshExistingEventSeries: each series is patched once and the answer cached under the same key; a RequestConstructionError keeps the entry', async () => {
    for (const fail of [false, true]) {
      const sink = new TestSink((c) => (fail ? new RequestConstructionError('bad') : { ...c.event, metadata: { ...c.event.metadata, resourceVersion: '42' } }));
      const { b, clock } = setup(sink);
      const e: Event = { metadata: { name: 'a', namespace: 'baz' }, eventTime: clock.now(), regarding, reason: 'R', type: 'Normal', series: { count: 4, lastObservedTime: clock.now() } };
      const lone: Event = { ...e, reason: 'lone', series: undefined };
      delete lone.series;
      b.eventCache.set(getKey(e), e);
      b.eventCache.set(getKey(lone), lone);
      await b.refreshExistingEventSeries();
      assert.equal(sink.ops(), 'patch', 'the series alone');
      assert.equal(b.eventCache.size, 2);
      assert.equal(b.eventCache.get(getKey(e))?.metadata.resourceVersion, fail ? undefined : '42');
    }
  });

  describe('recordEvent: what each answer does (sink calls in all, retries included)', () => {
    const notFound = () => new StatusError(404, 'NotFound', 'not found');
    const exists = () => new StatusError(409, 'AlreadyExists', 'exists');
    const cases: { name: string; patch?: () => Error; create?: () => Error; series: boolean; ops: string }[] = [
      { name: 'a new event, written', series: false, ops: 'create' },
      { name: 'a new event, a transport failure each time: 12 creates', series: false, create: () => new Error('connection refused'), ops: Array(MAX_TRIES_PER_EVENT).fill('create').join(',') },
      { name: 'a new event, AlreadyExists: not retried', series: false, create: exists, ops: 'create' },
      { name: 'a new event, 500: not retried', series: false, create: () => new StatusError(500, 'InternalError', 'x'), ops: 'create' },
      { name: 'a series, patched', series: true, ops: 'patch' },
      { name: 'a series, a transport failure: 12 patches', series: true, patch: () => new Error('EOF'), ops: Array(MAX_TRIES_PER_EVENT).fill('patch').join(',') },
      { name: 'a series, 429: dropped', series: true, patch: () => new StatusError(429, 'TooManyRequests', 'x'), ops: 'patch' },
      { name: 'a series gone (404): created with its series', series: true, patch: notFound, ops: 'patch,create' },
      { name: 'a series gone, its create AlreadyExists: retried, 12 times each', series: true, patch: notFound, create: exists, ops: Array(MAX_TRIES_PER_EVENT).fill('patch,create').join(',') },
      { name: 'a series gone, its create 500: dropped', series: true, patch: notFound, create: () => new StatusError(500, 'InternalError', 'x'), ops: 'patch,create' },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const sink = new TestSink((call) => (call.op === 'patch' ? c.patch?.() : c.create?.()) ?? call.event);
        const { b, recorder } = setup(sink);
        await startWatcher(b);
        await recorder.eventf(regarding, undefined, 'Normal', 'R', 'A', 'n');
        await recorded(b);
        if (c.series) {
          sink.calls.length = 0;
          await recorder.eventf(regarding, undefined, 'Normal', 'R', 'A', 'n');
          await recorded(b);
        }
        assert.equal(sink.ops(), c.ops);
        const create = sink.calls.find((x) => x.op === 'create');
        if (c.series && create) assert.equal(create.event.series?.count, 2, 'a series created afresh carries its series');
        if (create) assert.equal(create.event.metadata.resourceVersion, undefined);
      });
    }
  });

  it('waits between attempts are sleepDuration plus up to a quarter, and a shut down signal ends them', async () => {
    const sink = new TestSink(() => new Error('connection refused'));
    const { b, recorder, sleeper } = setup(sink, new FakeClock(T0), 10_000);
    const stop = new AbortController();
    await b.startRecordingToSink(stop.signal);
    await recorder.eventf(regarding, undefined, 'Normal', 'R', 'A', 'n');
    for (let i = 0; i < 10; i++) await settle();
    // The loops' first waits, then the retry's: 10 s plus random 0.5 × 0.25 × 10 s.
    assert.deepEqual(sleeper.waits.map((w) => w.ms).sort((x, y) => x - y), [11_250, FINISH_TIME_MS, REFRESH_TIME_MS]);
    sleeper.release(11_250);
    for (let i = 0; i < 5; i++) await settle();
    assert.equal(sink.ops(), 'create,create');
    stop.abort();
    await b.idle();
    assert.equal(sink.ops(), 'create,create', 'no attempt after the signal');
  });

  it('startRecordingToSink runs refresh and finish at once, then each its period after the last run', async () => {
    const sink = new TestSink();
    const { b, sleeper, clock } = setup(sink, new FakeClock(T0), 1);
    const e: Event = { metadata: { name: 'a', namespace: 'baz' }, eventTime: clock.now(), regarding, reason: 'R', type: 'Normal', series: { count: 3, lastObservedTime: clock.now() } };
    b.eventCache.set(getKey(e), e);
    const stop = new AbortController();
    await b.startRecordingToSink(stop.signal);
    for (let i = 0; i < 5; i++) await settle();
    assert.equal(sink.ops(), 'patch', 'refresh at start (finish found nothing 6 minutes old)');
    clock.step(7n * MINUTE);
    sleeper.release(FINISH_TIME_MS);
    for (let i = 0; i < 5; i++) await settle();
    assert.equal(sink.ops(), 'patch,patch', 'finished');
    assert.equal(b.eventCache.size, 0);
    stop.abort();
  });

  describe('TestEventf', () => {
    it('a Pod: its name, namespace and reference; a related Node; the note formatted', async () => {
      const sink = new TestSink();
      const { b, recorder } = setup(sink);
      await startWatcher(b);
      const node: KubernetesObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node1', uid: 'n1' } };
      await recorder.eventf({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod1', namespace: 'ns1', uid: '12345' } }, node, 'Normal', 'Started', 'starting', 'Pod %s', 'started');
      await recorded(b);
      const e = sink.calls[0].event;
      assert.equal(e.metadata.name, 'pod1.17362d8e1c698000');
      assert.equal(e.metadata.namespace, 'ns1');
      assert.deepEqual(e.regarding, { kind: 'Pod', apiVersion: 'v1', name: 'pod1', namespace: 'ns1', uid: '12345' });
      assert.deepEqual(e.related, { kind: 'Node', apiVersion: 'v1', name: 'node1', uid: 'n1' });
      assert.equal(e.note, 'Pod started');
      assert.equal(e.eventTime, '2023-01-01T12:00:00.000000Z');
    });

    it('a cluster-scoped object with an IPv6 name: namespace default, a UUID name; a very long name: a UUID', async () => {
      const sink = new TestSink();
      const { b, recorder } = setup(sink);
      await startWatcher(b);
      await recorder.eventf({ apiVersion: 'networking.k8s.io/v1', kind: 'IPAddress', metadata: { name: '2001:db8::123' } }, undefined, 'Normal', 'R', 'A', 'n');
      await recorder.eventf({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x'.repeat(253 * 4), namespace: 'ns1' } }, undefined, 'Normal', 'R2', 'A', 'n');
      await recorded(b);
      assert.equal(sink.calls[0].event.metadata.namespace, 'default');
      assert.equal(sink.calls[0].event.regarding.namespace, undefined);
      for (const c of sink.calls) assert.match(c.event.metadata.name ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4/);
      for (const c of sink.calls) assert.ok(isDNS1123Subdomain(c.event.metadata.name ?? ''));
    });

    it('an unsupported type and an object that cannot be referenced are logged and dropped; a bad related is left out', async () => {
      const sink = new TestSink();
      const { b, recorder, logger } = setup(sink);
      await startWatcher(b);
      assert.equal(await recorder.eventf(regarding, undefined, 'normal', 'R', 'A', 'n'), false);
      assert.equal(await recorder.eventf({ kind: 'Pod', metadata: { name: 'p' } }, undefined, 'Normal', 'R', 'A', 'n'), false);
      assert.equal(await recorder.eventf(regarding, { kind: 'Pod', metadata: { name: 'p' } }, 'Normal', 'R', 'A', 'n'), true);
      await recorded(b);
      assert.equal(sink.calls.length, 1);
      assert.equal(sink.calls[0].event.related, undefined);
      assert.ok(logger.lines.some((l) => l.startsWith('ERROR Unsupported event type') && l.includes('eventType="normal"')), logger.lines.join('\n'));
      assert.ok(logger.lines.some((l) => l.startsWith('ERROR Could not construct reference, will not report event')), logger.lines.join('\n'));
    });
  });

  it('the patch of a series: the whole series, a zero time as null', () => {
    const e: Event = { metadata: {}, eventTime: null, regarding: {}, series: { count: 2, lastObservedTime: null } };
    assert.equal(createPatchBytesForSeries(e), '{"series":{"count":2,"lastObservedTime":null}}');
  });

  describe('TestGetFieldSelector', () => {
    const deployment = { kind: 'Deployment', group: 'apps', version: 'v1' };
    const uid = '2c55cad7-ee4e-11e9-abe1-525400e7bc6b';
    for (const gv of ['events.k8s.io/v1beta1', 'events.k8s.io/v1', 'v1']) {
      const p = gv === 'v1' ? 'involvedObject' : 'regarding';
      it(`${gv}: empty, then every field`, () => {
        assert.equal(getFieldSelector(gv, {}, '', ''), '');
        assert.equal(getFieldSelector(gv, deployment, 'test-deployment', uid), `${p}.apiVersion=apps/v1,${p}.kind=Deployment,${p}.name=test-deployment,${p}.uid=${uid}`);
      });
    }
    it('an unknown group version', () => {
      assert.throws(() => getFieldSelector('v1alpha1', deployment, 'test-deployment', uid), /unknown version v1alpha1/);
    });
  });
});
