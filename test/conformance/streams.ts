// Seeded event streams for the differential test: many objects, sources, reasons and
// messages, with times that cross the 600 s aggregation window and drain the spam bucket.
import { formatTime, NANOS_PER_SECOND } from '../../src/record/clock';
import type { Event, ObjectReference } from '../../src/record/types';
import { prng } from '../support/prng';

export interface StreamHeader {
  clock: 'fake' | 'interval';
  startNanos?: string;
  stepSeconds?: number;
  /** 0 = client-go's default (25). */
  burstSize?: number;
}

export interface StreamLine {
  atNanos?: string;
  event: Event;
}

export interface Stream {
  readonly name: string;
  readonly header: StreamHeader;
  readonly lines: StreamLine[];
}

const KINDS: { kind: string; apiVersion: string; namespaced: boolean }[] = [
  { kind: 'Pod', apiVersion: 'v1', namespaced: true },
  { kind: 'Deployment', apiVersion: 'apps/v1', namespaced: true },
  { kind: 'ReplicaSet', apiVersion: 'apps/v1', namespaced: true },
  { kind: 'Node', apiVersion: 'v1', namespaced: false },
  { kind: 'Service', apiVersion: 'v1', namespaced: true },
];
const NAMESPACES = ['default', 'shop', 'kube-system', 'monitoring'];
const COMPONENTS = ['kubelet', 'default-scheduler', 'deployment-controller', 'kubernetes-events'];
const REASONS = ['Scheduled', 'Pulling', 'BackOff', 'FailedScheduling', 'ScalingReplicaSet', 'Unhealthy', 'Killing', 'FailedMount'];
/** Messages with what Go escapes differently from JavaScript, and Go format debris. */
const ODD_MESSAGES = ['<b>bold</b> & co', 'line\nbreak\ttab', 'quote " and \\', 'emoji 🚀 ünïcode', 'sep\u2028arator', '100% %!s(MISSING)', ''];

/** A random stream of `count` events from seed. */
export function randomStream(seed: number, count: number): Stream {
  const r = prng(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]) => xs[int(xs.length)];
  const objects: ObjectReference[] = Array.from({ length: 1 + int(seed % 2 === 0 ? 40 : 8) }, (_, i) => {
    const k = pick(KINDS);
    const ref: ObjectReference = { kind: k.kind, apiVersion: k.apiVersion, name: `obj-${i}`, uid: `uid-${seed}-${i}` };
    if (k.namespaced) ref.namespace = pick(NAMESPACES);
    return ref;
  });
  const sources = Array.from({ length: 1 + int(seed % 2 === 0 ? 3 : 1) }, (_, i) => ({ component: pick(COMPONENTS), host: `node-${i}` }));
  const reasons = REASONS.slice(0, 1 + int(seed % 2 === 0 ? REASONS.length : 3));
  // Per reason, a pool of messages: pools of 10 or more make groups aggregate.
  const pools = new Map(reasons.map((reason) => [reason, Array.from({ length: 1 + int(40) }, (_, i) => (r() < 0.08 ? pick(ODD_MESSAGES) : `${reason} message ${i}`))]));
  let at = BigInt(Date.UTC(2023, 0, 1)) * 1_000_000n + BigInt(seed) * 3_600n * NANOS_PER_SECOND;
  const lines: StreamLine[] = [];
  for (let i = 0; i < count; i++) {
    const p = r();
    // Mostly bursts, sometimes pauses that refill the spam bucket or close the aggregation window.
    const seconds = p < 0.7 ? r() * 3 : p < 0.9 ? 3 + r() * 57 : p < 0.98 ? 300 + r() * 400 : 700 + r() * 800;
    at += BigInt(Math.floor(seconds * 1e9));
    // Objects are picked with a skew, so a few see most events.
    const o = objects[Math.floor(objects.length * r() * r())];
    const reason = pick(reasons);
    const source = pick(sources);
    const ref: ObjectReference = { ...o };
    if (r() < 0.2) ref.fieldPath = `spec.containers{c${int(2)}}`;
    const time = formatTime(at);
    lines.push({
      atNanos: at.toString(),
      event: {
        metadata: { name: `${o.name}.${at.toString(16)}`, namespace: o.namespace || 'default' },
        involvedObject: ref,
        reason,
        message: pick(pools.get(reason) as string[]),
        source,
        firstTimestamp: time,
        lastTimestamp: time,
        count: 1,
        type: r() < 0.85 ? 'Normal' : 'Warning',
        reportingComponent: source.component,
        reportingInstance: source.host,
      },
    });
  }
  return { name: `seed ${seed}`, header: { clock: 'fake', burstSize: seed % 3 === 0 ? 5 : 0 }, lines };
}

const FIXTURE_START = (BigInt(Date.UTC(2023, 0, 1, 12)) * 1_000_000n).toString();

function cacheTestEvent(reason: string, message: string, fieldPath = 'spec.containers{mycontainer}', name = 'my-pod', namespace = 'my-ns'): Event {
  return {
    metadata: {},
    involvedObject: { kind: 'Pod', name, namespace, uid: 'C934D34AFB20242', apiVersion: 'version', fieldPath },
    reason,
    message,
    source: { component: 'kubelet', host: 'kublet.node1' },
    count: 1,
    type: 'Normal',
  };
}

function repeat(n: number, e: Event, similarPrefix?: string): StreamLine[] {
  return Array.from({ length: n }, (_, i) => ({ event: similarPrefix === undefined ? e : { ...e, message: [similarPrefix, String(i), e.message].join('-') } }));
}

/** The scenario table of events_cache_test.go TestEventCorrelator, as interval-clock streams. */
export function scenarioStreams(): Stream[] {
  const first = cacheTestEvent('first', 'i am first');
  const duplicate = cacheTestEvent('duplicate', 'me again');
  const unique = cacheTestEvent('unique', 'snowflake');
  const similar = cacheTestEvent('similar', 'similar message', 'spec.containers{container1}');
  const similarOtherContainer = cacheTestEvent('similar', 'similar message', 'spec.containers{container2}');
  const uniques = Array.from({ length: 30 }, (_, i) => ({ event: cacheTestEvent(`reason-${i}`, `message-${i}`, undefined, `pod-${i}`, `ns-${i}`) }));
  const s = (name: string, stepSeconds: number, lines: StreamLine[], burstSize = 0): Stream => ({ name, header: { clock: 'interval', startNanos: FIXTURE_START, stepSeconds, burstSize }, lines });
  return [
    s('create-a-single-event', 5, [{ event: first }]),
    s('the-same-event-should-just-count', 5, repeat(2, duplicate)),
    s('the-same-event-should-just-count-even-if-more-than-aggregate', 30, repeat(11, duplicate)),
    s('the-same-event-is-spam-if-happens-too-frequently', 1, repeat(27, duplicate)),
    s('create-many-unique-events', 5, [...uniques, { event: unique }]),
    s('similar-events-should-aggregate-event', 5, [...repeat(9, similar, similar.message), { event: similar }]),
    s('similar-events-many-times-should-count-the-aggregate', 5, [...repeat(10, similar, similar.message), { event: similar }]),
    s('events-from-different-containers-do-not-aggregate', 5, [{ event: similarOtherContainer }, { event: similar }]),
    s('similar-events-whose-interval-is-greater-than-aggregate-interval-do-not-aggregate', 600, [...repeat(9, similar, similar.message), { event: similar }]),
    s('TestEventSpamFilter: same object, other reason, default key, burst 1', 1, [{ event: cacheTestEvent('original', 'i am first') }, { event: cacheTestEvent('duplicate', 'me again') }], 1),
  ];
}

/**
 * Keys that meet across field boundaries. client-go joins each key's fields with no
 * separator, so component "kube" and host "let" is the same key as "kubelet" and "": such
 * events share a cache entry in Go, and must here. Each event takes one of a few texts for
 * each run of neighbouring key fields and cuts it between those fields at a random place;
 * a message that is the text of a reporting controller and instance makes an event's key
 * the same text as an aggregate's.
 */
export function boundaryStream(seed: number, count: number): Stream {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  /** `text` cut into `parts` fields at random places (empty fields too). */
  const cut = (text: string, parts: number): string[] => {
    const at = Array.from({ length: parts - 1 }, () => Math.floor(r() * (text.length + 1))).sort((a, b) => a - b);
    return [0, ...at].map((from, i) => text.slice(from, i < at.length ? at[i] : text.length));
  };
  let at = BigInt(Date.UTC(2024, 0, 1)) * 1_000_000n + BigInt(seed) * NANOS_PER_SECOND;
  const lines: StreamLine[] = [];
  for (let i = 0; i < count; i++) {
    const p = r();
    // Mostly fast, so groups aggregate and (with the default burst) the spam bucket drains; sometimes past both windows.
    at += BigInt(Math.floor((p < 0.95 ? r() * 0.2 : p < 0.998 ? 5 + r() * 60 : 700 + r() * 400) * 1e9));
    const [component, host, kind] = cut(pick(['kubeletPod', 'schedPod']), 3);
    const [namespace, name] = cut(pick(['defaultweb', 'shopdb']), 2);
    // The field path is not in the spam or aggregate key: cut into it now and then.
    const [fieldPath, uid] = r() < 0.2 ? cut('spec.c1u-1', 2) : ['', pick(['u-1', 'u-2'])];
    const [reportingComponent, reportingInstance] = cut(pick(['kubeletn1', 'ctrl']), 2);
    // Numbered messages of one object and type, so that groups fill up and aggregate.
    const numbered = r() < 0.4;
    const [reason, message] = numbered ? ['R', `msg${Math.floor(r() * 12)}`] : cut(pick(['Rkubeletn1', 'Rctrl', 'BackOffctrl', 'Rmctrl']), 2);
    const involvedObject: ObjectReference = { kind, namespace, name, uid: numbered ? 'u-1' : uid, apiVersion: 'v1' };
    if (fieldPath) involvedObject.fieldPath = fieldPath;
    const time = formatTime(at);
    lines.push({
      atNanos: at.toString(),
      event: {
        metadata: { name: `${name}.${at.toString(16)}`, namespace: namespace || 'default' },
        involvedObject,
        reason,
        message,
        source: { component, host },
        firstTimestamp: time,
        lastTimestamp: time,
        count: 1,
        type: numbered || r() < 0.7 ? 'Normal' : 'Warning',
        reportingComponent,
        reportingInstance,
      },
    });
  }
  // Odd seeds with client-go's burst (half the events skipped as spam), even ones with a burst nothing exceeds.
  return { name: `boundaries, seed ${seed}`, header: { clock: 'fake', burstSize: seed % 2 === 0 ? count : 0 }, lines };
}
