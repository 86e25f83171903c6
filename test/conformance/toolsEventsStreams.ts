// Seeded operation streams for the tools/events differential test (go-events/main.go reads
// them): events.k8s.io/v1 events from a few isomorphic keys, with times that cross the
// 6-minute finish, passes of refresh and finish between them, and the simulated sink's
// answers: mostly ok, then every kind of failure recordEvent tells apart.
import { formatMicroTime, NANOS_PER_SECOND } from '../../src/record/clock';
import type { ObjectReference } from '../../src/record/types';
import type { WireEvent } from '../../src/events/types';
import { prng } from '../support/prng';

/** What the simulated sink may answer (go-events/main.go's sink.answer). */
export const ANSWERS = ['ok', 'nil', '404', '409exists', '409conflict', '422', '429', '500', '403terminating', 'transport', 'construct', 'unexpected', 'wrapped404'] as const;
export type Answer = (typeof ANSWERS)[number];

export type Operation =
  | { readonly op: 'event'; readonly at: string; readonly event: WireEvent; readonly answers?: Answer[] }
  | { readonly op: 'refresh' | 'finish'; readonly at: string; readonly byName?: Record<string, Answer[]> };

export interface OpStream {
  readonly name: string;
  readonly ops: Operation[];
}

const MINUTE = 60n * NANOS_PER_SECOND;
const START = BigInt(Date.UTC(2023, 0, 1, 12)) * 1_000_000n;

/** Notes as controllers write them, and as nobody should: none is in the key. */
const NOTES = ['Successfully assigned shop/cart-7d9 to node-1', 'Back-off restarting failed container', '<b>bold</b> & co', 'line\nbreak\ttab', '日本語のメッセージ', 'emoji 🚀 ünïcode', 'rtl \u202eevil\u202c', 'sep\u2028arator', '100% %!s(MISSING)', 'x'.repeat(2000), ''];
const KINDS = [
  { kind: 'Pod', apiVersion: 'v1', namespaced: true },
  { kind: 'Deployment', apiVersion: 'apps/v1', namespaced: true },
  { kind: 'Node', apiVersion: 'v1', namespaced: false },
  { kind: 'Widget', apiVersion: 'example.com/v1alpha1', namespaced: true },
];

interface KeyTemplate {
  type: string;
  action: string;
  reason: string;
  reportingController: string;
  reportingInstance: string;
  regarding: ObjectReference;
  related?: ObjectReference;
}

/** A random stream of `count` operations from seed. */
export function randomOpStream(seed: number, count: number): OpStream {
  const r = prng(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]) => xs[int(xs.length)];
  const ref = (i: number): ObjectReference => {
    const k = pick(KINDS);
    const out: ObjectReference = { kind: k.kind, apiVersion: k.apiVersion, name: `obj-${i}`, uid: `uid-${seed}-${i}` };
    if (k.namespaced) out.namespace = pick(['default', 'shop', 'kube-system']);
    if (r() < 0.2) out.fieldPath = `spec.containers{c${int(2)}}`;
    if (r() < 0.1) out.resourceVersion = String(int(1000));
    return out;
  };
  const keys: KeyTemplate[] = Array.from({ length: 1 + int(seed % 2 === 0 ? 30 : 6) }, (_, i) => {
    const controller = pick(['default-scheduler', 'kube-proxy', 'kubernetes-events', 'widget-controller']);
    const key: KeyTemplate = {
      type: r() < 0.7 ? 'Normal' : 'Warning',
      action: pick(['Scheduling', 'Binding', 'StartContainer', 'Reconcile']),
      reason: pick(['Scheduled', 'FailedScheduling', 'BackOff', 'Synced', 'Reconciled']),
      reportingController: controller,
      reportingInstance: `${controller}-node-${int(2)}`,
      regarding: ref(i),
    };
    const rel = r();
    // An empty related reference is the zero reference, as a missing one is: the same key.
    if (rel < 0.3) key.related = ref(1000 + i);
    else if (rel < 0.35) key.related = {};
    return key;
  });
  let at = START + BigInt(seed) * 3_600n * NANOS_PER_SECOND;
  const names: string[] = [];
  const ops: Operation[] = [];
  const answers = (): Answer[] => Array.from({ length: 1 + int(3) }, () => (r() < 0.4 ? 'ok' : pick(ANSWERS)));
  const byName = (): Record<string, Answer[]> => Object.fromEntries(Array.from({ length: int(4) }, () => [pick(names) ?? 'none', answers()]));
  for (let i = 0; i < count; i++) {
    const p = r();
    // Mostly bursts, sometimes pauses past the 6-minute finish.
    const seconds = p < 0.75 ? r() * 5 : p < 0.93 ? 5 + r() * 120 : 300 + r() * 400;
    at += BigInt(Math.floor(seconds * 1e9));
    const q = r();
    if (q < 0.04 && names.length > 0) {
      ops.push({ op: 'refresh', at: at.toString(), byName: byName() });
      continue;
    }
    if (q < 0.1 && names.length > 0) {
      ops.push({ op: 'finish', at: at.toString(), byName: byName() });
      continue;
    }
    // Keys are picked with a skew, so a few recur into series.
    const k = keys[Math.floor(keys.length * r() * r())];
    const name = `${k.regarding.name}.${at.toString(16)}`;
    names.push(name);
    const event: WireEvent = {
      metadata: { name, namespace: k.regarding.namespace || 'default', ...(r() < 0.05 ? { resourceVersion: '7' } : {}) },
      eventTime: formatMicroTime(at - BigInt(int(1000))),
      reportingController: k.reportingController,
      reportingInstance: k.reportingInstance,
      action: k.action,
      reason: k.reason,
      regarding: { ...k.regarding },
      note: pick(NOTES),
      type: k.type,
    };
    if (k.related) event.related = { ...k.related };
    // Rarely, an event that arrives with a series already (one a controller copied).
    if (r() < 0.02) event.series = { count: 2 + int(5), lastObservedTime: r() < 0.5 ? formatMicroTime(at) : null };
    ops.push({ op: 'event', at: at.toString(), event, ...(r() < 0.2 ? { answers: answers() } : {}) });
  }
  return { name: `seed ${seed}`, ops };
}

function podEvent(at: bigint, reason = 'BackOff', note = 'Back-off restarting failed container'): WireEvent {
  return {
    metadata: { name: `cart-7d9.${at.toString(16)}`, namespace: 'shop' },
    eventTime: formatMicroTime(at),
    reportingController: 'kubelet',
    reportingInstance: 'kubelet-node-1',
    action: 'StartContainer',
    reason,
    regarding: { kind: 'Pod', namespace: 'shop', name: 'cart-7d9', uid: 'u1', apiVersion: 'v1', fieldPath: 'spec.containers{cart}' },
    note,
    type: 'Warning',
  };
}

/** Streams at the edges: retries exhausted, the finish boundary to the nanosecond, a refresh's answer cached, a series created afresh. */
export function edgeOpStreams(): OpStream[] {
  const t = (n: number, unit = MINUTE) => START + BigInt(n) * unit;
  const ev = (at: bigint, answers?: Answer[]): Operation => ({ op: 'event', at: at.toString(), event: podEvent(at), ...(answers ? { answers } : {}) });
  const firstName = podEvent(t(0)).metadata.name as string;
  return [
    { name: 'a series whose patches fail in transport 12 times, then one more', ops: [ev(t(0)), ev(t(1), Array(13).fill('transport'))] },
    { name: 'a new event failing in transport every time: 12 creates', ops: [ev(t(0), Array(12).fill('transport'))] },
    { name: 'a series gone (404) whose create AlreadyExists until the tries end', ops: [ev(t(0)), ev(t(1), Array(24).fill(0).map((_, i) => (i % 2 === 0 ? '404' : '409exists')))] },
    {
      name: 'finish exactly 6 minutes after the last observation (kept), then 1 ns later (finished)',
      ops: [ev(t(0)), ev(t(1)), ev(t(2)), { op: 'finish', at: (t(2) + 6n * MINUTE).toString() }, { op: 'finish', at: (t(2) + 6n * MINUTE + 1n).toString() }],
    },
    {
      name: 'a lone event: kept at 6 minutes, forgotten after, then a new one is created afresh',
      ops: [ev(t(0)), { op: 'finish', at: t(6).toString() }, { op: 'finish', at: (t(6) + 1n).toString() }, ev(t(7))],
    },
    {
      name: 'refresh caches the answer; a nil answer, 500 and a transport failure keep the entry',
      ops: [ev(t(0)), ev(t(1)), ev(t(2)), { op: 'refresh', at: t(3).toString() }, ev(t(4)), { op: 'refresh', at: t(5).toString(), byName: { [firstName]: ['nil'] } }, { op: 'refresh', at: t(6).toString(), byName: { [firstName]: ['500'] } }, { op: 'refresh', at: t(7).toString(), byName: { [firstName]: ['transport'] } }, { op: 'refresh', at: t(8).toString(), byName: { [firstName]: ['404', 'ok'] } }],
    },
    {
      name: 'a refused last patch still ends the series; a transport failure keeps it for the next pass',
      ops: [ev(t(0)), ev(t(1)), { op: 'finish', at: t(10).toString(), byName: { [firstName]: ['transport'] } }, { op: 'finish', at: t(16).toString(), byName: { [firstName]: ['422'] } }, ev(t(17))],
    },
    {
      name: 'the note is not in the key: a new note joins the series and the first note stays',
      ops: [{ op: 'event', at: t(0).toString(), event: podEvent(t(0), 'BackOff', 'first') }, { op: 'event', at: t(1).toString(), event: podEvent(t(1), 'BackOff', 'second') }, { op: 'event', at: t(2).toString(), event: podEvent(t(2), 'Other', 'third') }],
    },
  ];
}
