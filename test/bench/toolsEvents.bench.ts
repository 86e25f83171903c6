// The tools/events port's recorder against client-go v0.37.2's own, side by side in one run,
// on three stream shapes (no repeats: every event created; a few keys repeated: series
// counted in memory; a realistic mix): nanoseconds per event through recordToSink (the
// cache, the copies, the patch body, and the write to a sink that answers at once), every
// write awaited. Streams are parsed beforehand on both sides. Target: ours / client-go at
// most 1.00 on every shape.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { discardLogger } from '../../src/record/logger';
import { sleep } from '../../src/record/sleep';
import { EventBroadcaster } from '../../src/events/eventBroadcaster';
import type { EventSink } from '../../src/events/recordEvent';
import { fromWire, type WireEvent } from '../../src/events/types';
import { randomOpStream, type Operation } from '../conformance/toolsEventsStreams';
import { interleaved, printTable } from './harness';

const EVENTS = 20_000;
const PASSES = 5;
const RUNS = 5;
const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** A sink that answers every call at once with the event (client-go's tests' sink). */
const nopSink: EventSink = {
  create: async (e: WireEvent) => e,
  update: async (e: WireEvent) => e,
  patch: async (e: WireEvent) => e,
};

function oracle(): string {
  return execFileSync('bash', [path.join(repoRoot, 'test', 'conformance', 'build-events.sh')], { stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim();
}

async function tsNanosPerEvent(events: readonly WireEvent[]): Promise<number> {
  let total = 0n;
  const options = { sleepDurationMs: 0, signal: new AbortController().signal, logger: discardLogger, random: () => 0, sleep };
  for (let pass = 0; pass <= PASSES; pass++) {
    const parsed = events.map((e) => fromWire(e));
    const b = new EventBroadcaster(nopSink, { sleepDurationMs: 0, logger: discardLogger });
    const start = process.hrtime.bigint();
    for (const e of parsed) b.recordToSink(e, options);
    await b.idle();
    if (pass > 0) total += process.hrtime.bigint() - start;
  }
  return Number(total) / (PASSES * events.length);
}

function goNanosPerEvent(binary: string, input: string): number {
  return (JSON.parse(execFileSync(binary, ['-bench-passes', String(PASSES)], { input, maxBuffer: 1 << 26 }).toString()) as { nsPerEvent: number }).nsPerEvent;
}

function eventsOf(ops: readonly Operation[]): WireEvent[] {
  return ops.flatMap((o) => (o.op === 'event' ? [o.event] : []));
}

/** Every event of its own key: a create each. */
function noRepeats(): WireEvent[] {
  return eventsOf(randomOpStream(2, EVENTS * 2).ops).slice(0, EVENTS).map((e, i) => ({ ...e, reason: `${e.reason}${i}` }));
}

/** Ten keys: two writes each, the rest counted in memory. */
function fewKeys(): WireEvent[] {
  const base = eventsOf(randomOpStream(3, 200).ops).slice(0, 10);
  return Array.from({ length: EVENTS }, (_, i) => ({ ...base[i % base.length], metadata: { ...base[i % base.length].metadata, name: `e.${i.toString(16)}` } }));
}

async function main(): Promise<void> {
  const binary = oracle();
  const shapes: [string, WireEvent[]][] = [
    ['no repeats', noRepeats()],
    ['ten keys repeated', fewKeys()],
    ['a realistic mix', eventsOf(randomOpStream(4, EVENTS * 2).ops).slice(0, EVENTS)],
  ];
  for (const [name, events] of shapes) {
    const input = events.map((event) => JSON.stringify({ op: 'event', at: '0', event })).join('\n') + '\n';
    const results = await interleaved(RUNS, [
      { label: 'ours (src/events)', run: () => tsNanosPerEvent(events) },
      { label: 'client-go v0.37.2', run: () => goNanosPerEvent(binary, input) },
    ]);
    printTable(`tools/events recordToSink, ${name}: ${events.length.toLocaleString('en-US')} events, ${RUNS} runs of ${PASSES} passes`, 'ns per event', [
      { label: 'ours (src/events)', values: results.get('ours (src/events)') as number[], vs: 'client-go v0.37.2', note: 'target: at most 1.00' },
      { label: 'client-go v0.37.2', values: results.get('client-go v0.37.2') as number[] },
    ]);
  }
}

main().catch((e: Error) => {
  console.error(e.stack ?? e.message);
  process.exit(1);
});
