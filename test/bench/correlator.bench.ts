// The port's EventCorrelator against client-go's, in the same run on the same streams:
// nanoseconds per event (EventCorrelate, then UpdateState after each decision), with the
// streams parsed beforehand on both sides.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { FakeClock } from '../../src/record/clock';
import { EventCorrelator } from '../../src/record/eventsCache';
import type { Event } from '../../src/record/types';
import { randomStream } from '../conformance/streams';
import { repoRoot } from '../env/paths';

const SEEDS = [2, 3, 8, 13];
const EVENTS = 20_000;
const PASSES = 5;

function tsNanosPerEvent(events: Event[], at: bigint[], burstSize: number): number {
  const clock = new FakeClock(0n);
  let total = 0n;
  for (let pass = 0; pass <= PASSES; pass++) {
    const correlator = new EventCorrelator({ clock, burstSize, chooseForgotten: (keys) => keys.values().next().value as string });
    const start = process.hrtime.bigint();
    for (let i = 0; i < events.length; i++) {
      clock.setTime(at[i]);
      const result = correlator.eventCorrelate({ ...events[i], metadata: { ...events[i].metadata } });
      if (!result.skip) correlator.updateState({ ...result.event, metadata: { ...result.event.metadata, resourceVersion: String(i) } });
    }
    // The first pass warms the JIT up and is not counted.
    if (pass > 0) total += process.hrtime.bigint() - start;
  }
  return Number(total) / (PASSES * events.length);
}

function main(): void {
  const oracle = execFileSync('bash', [path.join(repoRoot, 'test', 'conformance', 'build.sh')], { stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim();
  console.log(`EventCorrelator, ${EVENTS} events per stream, ${PASSES} timed passes each (fake clock)`);
  console.log('stream      client-go ns/event   port ns/event   port / client-go');
  const ratios: number[] = [];
  for (const seed of SEEDS) {
    const stream = randomStream(seed, EVENTS);
    const input = [JSON.stringify(stream.header), ...stream.lines.map((l) => JSON.stringify(l))].join('\n') + '\n';
    const go = Number(execFileSync(oracle, ['-bench', String(PASSES)], { input, maxBuffer: 1 << 30 }).toString().trim());
    const ts = tsNanosPerEvent(stream.lines.map((l) => l.event), stream.lines.map((l) => BigInt(l.atNanos as string)), stream.header.burstSize ?? 0);
    ratios.push(ts / go);
    console.log(`seed ${String(seed).padEnd(6)} ${go.toFixed(0).padStart(18)} ${ts.toFixed(0).padStart(15)} ${(ts / go).toFixed(2).padStart(18)}`);
  }
  const geomean = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
  console.log(`geometric mean of port / client-go: ${geomean.toFixed(2)}`);
}

main();
