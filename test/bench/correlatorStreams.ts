// The three stream shapes the correlator is measured on, in the conformance streams' format
// (a fake-clock header, then {atNanos, event} lines), so client-go reads the same bytes.
import { getEventKey } from '../../src/record/eventsCache';
import type { Stream, StreamLine } from '../conformance/streams';
import { prng } from '../support/prng';
import { RealisticCluster, type RealisticEvent } from './realistic';

/** Pods in a crash loop in the repeat-heavy shape, each repeating its own few messages. */
const CRASHLOOPING_PODS = 40;
/** The share of the repeat-heavy stream that is a repeat. */
const REPEAT_SHARE = 0.9;

function lines(events: readonly RealisticEvent[]): StreamLine[] {
  return events.map((e) => ({ atNanos: e.atNanos.toString(), event: e.event }));
}

/** Every event different from every other (no count, no patch): each one is a create. */
export function noRepeatsStream(count: number): Stream {
  const seen = new Set<string>();
  const out: RealisticEvent[] = [];
  const cluster = new RealisticCluster(101, 12);
  while (out.length < count) {
    for (const e of cluster.events(count)) {
      const key = getEventKey(e.event);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(e);
      if (out.length === count) break;
    }
  }
  // Later batches restart their clock: keep time moving forward.
  let at = out[0].atNanos;
  const ordered = out.map((e) => ({ ...e, atNanos: (at += 1_000_000n) }));
  return { name: 'no repeats', header: { clock: 'fake', burstSize: 0 }, lines: lines(ordered) };
}

/** A busy cluster's mix: rollouts and pod lifecycles, some crash loops and failing probes. */
export function realisticStream(count: number): Stream {
  return { name: 'realistic', header: { clock: 'fake', burstSize: 0 }, lines: lines(new RealisticCluster(202, 12).events(count)) };
}

/** Mostly the same few events again (pods in a crash loop, failing probes), some new ones. */
export function repeatHeavyStream(count: number): Stream {
  const r = prng(303);
  const fresh = new RealisticCluster(304, 12).events(count);
  // Each crash-looping pod's repeated events: the first warnings of pods that have some.
  const repeating: RealisticEvent[] = [];
  const pods = new Set<string>();
  for (const e of fresh) {
    if (e.event.type !== 'Warning' || pods.has(e.event.involvedObject.uid ?? '')) continue;
    if (pods.size >= CRASHLOOPING_PODS) break;
    pods.add(e.event.involvedObject.uid ?? '');
    repeating.push(e);
  }
  const out: StreamLine[] = [];
  let at = fresh[0].atNanos;
  let next = 0;
  for (let i = 0; i < count; i++) {
    // A crash loop every few seconds on the fake clock: the spam filter lets some through.
    at += BigInt(1 + Math.floor(r() * 500_000_000));
    const source = r() < REPEAT_SHARE ? repeating[Math.floor(r() * repeating.length)] : fresh[next++];
    out.push({ atNanos: at.toString(), event: source.event });
  }
  return { name: 'mostly repeats', header: { clock: 'fake', burstSize: 0 }, lines: out };
}
