// Differential conformance: client-go's real EventCorrelator (go/main.go, built from the Go
// module proxy) and our port decide every event of the same streams; every decision must
// match: skip, the event sent (name kept, count, message, timestamps), the patch bytes, and
// the aggregate group's remembered messages. Where Go is random (which message a full group
// forgets) we replay Go's choice and check it was one our port allows.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { formatTime, type PassiveClock } from '../../src/record/clock';
import { EventCorrelator, eventAggregatorByReasonFunc } from '../../src/record/eventsCache';
import type { Event } from '../../src/record/types';
import { FakeClock, SimpleIntervalClock } from '../support/clocks';
import { zeroless } from '../support/zeroless';
import { boundaryStream, randomStream, scenarioStreams, type Stream } from './streams';

interface GoDecision {
  skip: boolean;
  event?: Event;
  patch: string | null;
  localKeys: string[];
}

/** Seeded random streams, and events in each (at least). */
const RANDOM_STREAMS = 60;
const EVENTS_PER_STREAM = 1000;
/** Seeded streams whose keys meet across field boundaries, and events in each. */
const BOUNDARY_STREAMS = 6;
const EVENTS_PER_BOUNDARY_STREAM = 2000;

const repoRoot = path.resolve(__dirname, '..', '..', '..');

function buildOracle(): string {
  return execFileSync('bash', [path.join(repoRoot, 'test', 'conformance', 'build.sh')], { stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim();
}

function runGo(oracle: string, stream: Stream): GoDecision[] {
  const input = [JSON.stringify(stream.header), ...stream.lines.map((l) => JSON.stringify(l))].join('\n') + '\n';
  const out = execFileSync(oracle, { input, maxBuffer: 1 << 30 }).toString();
  return out.trim().split('\n').map((l) => JSON.parse(l) as GoDecision);
}

/** Runs our port over the stream the way go/main.go runs client-go; returns every difference. */
function runPortAndCompare(stream: Stream, goDecisions: GoDecision[]): string[] {
  const diffs: string[] = [];
  const { header } = stream;
  const fake = new FakeClock(0n);
  const clock: PassiveClock = header.clock === 'fake' ? fake : new SimpleIntervalClock(BigInt(header.startNanos as string), BigInt(header.stepSeconds ?? 0) * 1_000_000_000n);
  let current: GoDecision | undefined;
  let line = 0;
  const correlator = new EventCorrelator({
    clock,
    burstSize: header.burstSize,
    chooseForgotten: (keys) => {
      // Go forgot exactly the key that is in our set and no longer in Go's.
      const goKept = new Set(current?.localKeys ?? []);
      const candidates = [...keys].filter((k) => !goKept.has(k));
      if (candidates.length !== 1) diffs.push(`line ${line}: Go kept ${JSON.stringify(current?.localKeys)}, which is not our group ${JSON.stringify([...keys])} less one key`);
      return candidates[0] ?? [...keys][0];
    },
  });
  stream.lines.forEach((l, i) => {
    line = i + 1;
    current = goDecisions[i];
    if (!current) {
      diffs.push(`line ${line}: Go wrote no decision`);
      return;
    }
    const event: Event = JSON.parse(JSON.stringify(l.event)) as Event;
    if (header.clock === 'fake') fake.setTime(BigInt(l.atNanos as string));
    else event.firstTimestamp = event.lastTimestamp = formatTime(clock.now());
    const [aggregateKey] = eventAggregatorByReasonFunc(event);
    const result = correlator.eventCorrelate(event);
    if (result.skip !== current.skip) {
      diffs.push(`line ${line}: skip ${result.skip}, Go ${current.skip}`);
      return;
    }
    if (!result.skip) {
      const ours = zeroless(JSON.parse(JSON.stringify(result.event)) as unknown);
      const theirs = zeroless(current.event);
      try {
        assert.deepEqual(ours, theirs);
      } catch {
        diffs.push(`line ${line}: event ${JSON.stringify(ours)}, Go ${JSON.stringify(theirs)}`);
      }
      if ((result.patch ?? null) !== current.patch) diffs.push(`line ${line}: patch ${result.patch}, Go ${current.patch}`);
      correlator.updateState({ ...result.event, metadata: { ...result.event.metadata, resourceVersion: String(line) } });
    }
    const ourKeys = [...(correlator.aggregator.peekLocalKeys(aggregateKey) ?? [])].sort();
    const goKeys = [...current.localKeys].sort();
    if (JSON.stringify(ourKeys) !== JSON.stringify(goKeys)) diffs.push(`line ${line}: group ${JSON.stringify(ourKeys)}, Go ${JSON.stringify(goKeys)}`);
  });
  if (goDecisions.length !== stream.lines.length) diffs.push(`Go decided ${goDecisions.length} of ${stream.lines.length} events`);
  return diffs;
}

/**
 * Events whose key is the same text as an earlier event's key made of other fields (the
 * fields' texts shifted across a boundary): event keys, spam keys, and an event key that is
 * the same text as another event's aggregate key.
 */
function boundaryMeetings(stream: Stream): { event: number; spam: number; eventAndAggregate: number } {
  const count = { event: 0, spam: 0, eventAndAggregate: 0 };
  const eventKeys = new Map<string, string>();
  const spamKeys = new Map<string, string>();
  const aggregateKeys = new Map<string, string>();
  /** Whether `fields` join into a key seen before from other fields; remembers the first. */
  const meets = (seen: Map<string, string>, fields: (string | undefined)[]) => {
    const key = fields.join('');
    const own = JSON.stringify(fields.map((f) => f ?? ''));
    const first = seen.get(key);
    if (first === undefined) seen.set(key, own);
    return first !== undefined && first !== own;
  };
  for (const { event: e } of stream.lines) {
    const o = e.involvedObject;
    const s = e.source;
    const eventFields = [s?.component, s?.host, o.kind, o.namespace, o.name, o.fieldPath, o.uid, o.apiVersion, e.type, e.reason, e.message];
    const aggregateFields = [s?.component, s?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type, e.reason, e.reportingComponent, e.reportingInstance];
    if (meets(eventKeys, eventFields)) count.event++;
    if (meets(spamKeys, [s?.component, s?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type])) count.spam++;
    meets(aggregateKeys, aggregateFields);
    if (aggregateKeys.has(eventFields.join(''))) count.eventAndAggregate++;
  }
  return count;
}

/** Totals over every stream, to show the streams exercise each path. */
const seen = { events: 0, skips: 0, patches: 0, aggregates: 0, forgotten: 0 };

function tally(stream: Stream, go: GoDecision[]): void {
  seen.events += stream.lines.length;
  for (const d of go) {
    if (d.skip) seen.skips++;
    if (d.patch) seen.patches++;
    if (d.event?.message?.startsWith('(combined from similar events): ')) seen.aggregates++;
  }
}

describe('EventCorrelator against client-go v0.34.4 (differential)', function () {
  this.timeout(300_000);
  let oracle: string;

  before(() => {
    oracle = buildOracle();
  });

  describe('the events_cache_test.go scenario table', () => {
    for (const stream of scenarioStreams()) {
      it(stream.name, () => {
        const go = runGo(oracle, stream);
        tally(stream, go);
        assert.deepEqual(runPortAndCompare(stream, go), []);
      });
    }
  });

  describe(`${RANDOM_STREAMS} seeded random streams of ${EVENTS_PER_STREAM}+ events`, () => {
    for (let seed = 1; seed <= RANDOM_STREAMS; seed++) {
      it(`seed ${seed}`, () => {
        const stream = randomStream(seed, EVENTS_PER_STREAM + (seed % 7) * 100);
        const go = runGo(oracle, stream);
        tally(stream, go);
        const diffs = runPortAndCompare(stream, go);
        assert.deepEqual(diffs.slice(0, 5), [], `${diffs.length} difference(s)`);
      });
    }
  });

  describe(`${BOUNDARY_STREAMS} streams whose keys meet across field boundaries`, () => {
    for (let seed = 1; seed <= BOUNDARY_STREAMS; seed++) {
      it(`seed ${seed}`, () => {
        const stream = boundaryStream(seed, EVENTS_PER_BOUNDARY_STREAM);
        const meetings = boundaryMeetings(stream);
        assert.ok(meetings.event > 100 && meetings.spam > 100 && meetings.eventAndAggregate > 10, `keys that meet: ${JSON.stringify(meetings)}`);
        const go = runGo(oracle, stream);
        tally(stream, go);
        // Each path through the keys that meet: counted repeats, and spam skips (client-go's
        // burst) or aggregates (a burst nothing exceeds).
        const decided = { patches: go.filter((d) => d.patch).length, skips: go.filter((d) => d.skip).length, aggregates: go.filter((d) => d.event?.message?.startsWith('(combined from similar events): ')).length };
        assert.ok(decided.patches > 100 && (stream.header.burstSize ? decided.aggregates > 10 : decided.skips > 100), JSON.stringify(decided));
        const diffs = runPortAndCompare(stream, go);
        assert.deepEqual(diffs.slice(0, 5), [], `${diffs.length} difference(s)`);
      });
    }
  });

  // Runs after the streams (mocha runs a suite's own tests before its child suites).
  describe('coverage', () => {
    it('the streams exercised every path: spam skips, patches and aggregates', () => {
      console.log(`      compared ${seen.events} events: ${seen.skips} skipped by the spam filter, ${seen.patches} patches, ${seen.aggregates} aggregates`);
      assert.ok(seen.skips > 100, `skips: ${seen.skips}`);
      assert.ok(seen.patches > 1000, `patches: ${seen.patches}`);
      assert.ok(seen.aggregates > 100, `aggregates: ${seen.aggregates}`);
    });
  });
});
