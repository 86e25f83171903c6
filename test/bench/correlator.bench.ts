// Goal 4: the port's EventCorrelator against client-go's, side by side in one run, on three
// stream shapes (no repeats, a realistic mix, mostly repeats): nanoseconds per event for
// EventCorrelate, then UpdateState after each decision, with the streams parsed beforehand
// on both sides. Target: ours / client-go at most 1.00 on every shape.
import { EventCorrelator } from '../../src/record/eventsCache';
import type { Event } from '../../src/record/types';
import type { Stream } from '../conformance/streams';
import { FakeClock } from '../support/clocks';
import { clientGo } from './clientGo';
import { noRepeatsStream, realisticStream, repeatHeavyStream } from './correlatorStreams';
import { interleaved, printTable } from './harness';

const EVENTS = 20_000;
/** Timed passes over the stream per run, each after one untimed pass. */
const PASSES = 5;
const RUNS = 5;

function tsNanosPerEvent(lines: readonly string[], at: readonly bigint[], burstSize: number): number {
  const clock = new FakeClock(0n);
  let total = 0n;
  for (let pass = 0; pass <= PASSES; pass++) {
    // Parsed afresh for every pass (untimed): V8 caches a string's hash in the string, and a
    // recorder's events come with new strings, so a pass must not reuse the last one's.
    const events = lines.map((l) => (JSON.parse(l) as { event: Event }).event);
    const correlator = new EventCorrelator({ clock, burstSize, chooseForgotten: (keys) => keys.values().next().value as string });
    const start = process.hrtime.bigint();
    for (let i = 0; i < events.length; i++) {
      clock.setTime(at[i]);
      const result = correlator.eventCorrelate({ ...events[i], metadata: { ...events[i].metadata } });
      if (!result.skip) correlator.updateState({ ...result.event, metadata: { ...result.event.metadata, resourceVersion: String(i) } });
    }
    // The first pass warms the JIT up and is not counted, as on the Go side.
    if (pass > 0) total += process.hrtime.bigint() - start;
  }
  return Number(total) / (PASSES * lines.length);
}

async function shape(stream: Stream): Promise<void> {
  const input = [JSON.stringify(stream.header), ...stream.lines.map((l) => JSON.stringify(l))].join('\n') + '\n';
  // Our side reads the same bytes.
  const lines = input.trim().split('\n').slice(1);
  const at = stream.lines.map((l) => BigInt(l.atNanos as string));
  const results = await interleaved(RUNS, [
    { label: 'ours (src/record)', run: () => tsNanosPerEvent(lines, at, stream.header.burstSize ?? 0) },
    { label: 'client-go v0.34.4', run: async () => (await clientGo<{ nsPerEvent: number }>(['correlator', '-passes', String(PASSES)], input)).nsPerEvent },
  ]);
  printTable(`EventCorrelator, ${stream.name}: ${EVENTS.toLocaleString('en-US')} events, ${RUNS} runs of ${PASSES} passes`, 'ns per event', [
    { label: 'ours (src/record)', values: results.get('ours (src/record)') as number[], vs: 'client-go v0.34.4', note: 'target: at most 1.00' },
    { label: 'client-go v0.34.4', values: results.get('client-go v0.34.4') as number[] },
  ]);
}

async function main(): Promise<void> {
  for (const stream of [noRepeatsStream(EVENTS), realisticStream(EVENTS), repeatHeavyStream(EVENTS)]) await shape(stream);
}

main().catch((e: Error) => {
  console.error(e.stack ?? e.message);
  process.exit(1);
});
