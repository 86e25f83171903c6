// Differential conformance of the tools/events port: client-go v0.37.2's own recordToSink,
// refreshExistingEventSeries and finishSeries (go-events, built from the Go module proxy)
// and src/events run the same operation streams against the same simulated sink; each
// operation's sink calls (kind, body, patch bytes, in order) and the event cache after it
// must be identical. A pass over the cache visits it in Go's random map order, so its calls
// are compared as a set. Then each of a list of mutants of the port (one small change each)
// must be caught by the same streams.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import * as errors from '../../src/record/errors';
import { discardLogger } from '../../src/record/logger';
import { sleep } from '../../src/record/sleep';
import { EventBroadcaster } from '../../src/events/eventBroadcaster';
import { fromWire, toWire, type WireEvent } from '../../src/events/types';
import { FakeClock } from '../support/clocks';
import { edgeOpStreams, randomOpStream, type Answer, type OpStream } from './toolsEventsStreams';

/** Seeded random streams, and operations in each. */
const RANDOM_STREAMS = 30;
const OPS_PER_STREAM = 600;

const repoRoot = path.resolve(__dirname, '..', '..', '..');

interface Call {
  op: string;
  event: unknown;
  patch: string | null;
  answer: string;
}
interface Result {
  calls: Call[];
  cache: { key: string[]; event: unknown }[];
}

/** What the driver needs of a build of the port (the shipped one, or a mutant). */
interface Port {
  EventBroadcaster: typeof EventBroadcaster;
  fromWire: typeof fromWire;
  toWire: typeof toWire;
  errors: typeof errors;
  sleep: typeof sleep;
}

function buildOracle(): string {
  return execFileSync('bash', [path.join(repoRoot, 'test', 'conformance', 'build-events.sh')], { stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim();
}

function runGo(oracle: string, s: OpStream): Result[] {
  const out = execFileSync(oracle, { input: s.ops.map((o) => JSON.stringify(o)).join('\n') + '\n', maxBuffer: 1 << 30 }).toString();
  return out.trim().split('\n').map((l) => JSON.parse(l) as Result);
}

/** The simulated sink of go-events/main.go, answering with the port's own error classes. */
class SimSink {
  line = 0;
  calls: Call[] = [];
  answers: Answer[] = [];
  byName: Record<string, Answer[]> | undefined;

  constructor(private readonly port: Port) {}

  private answer(op: string, e: WireEvent, patch: string | null): Promise<WireEvent | undefined> {
    const name = e.metadata.name ?? '';
    let a: Answer = 'ok';
    const list = this.byName ? this.byName[name] : this.answers;
    if (list && list.length > 0) a = list.shift() as Answer;
    this.calls.push({ op, event: JSON.parse(JSON.stringify(e)), patch, answer: a });
    const { StatusError, RequestConstructionError, UnexpectedObjectError } = this.port.errors;
    const status = (code: number, reason: string) => new StatusError(code, reason, `${reason}: events.events.k8s.io "${name}"`);
    switch (a) {
      case 'ok':
        return Promise.resolve({ ...JSON.parse(JSON.stringify(e)), metadata: { ...e.metadata, resourceVersion: `${this.line}-${op}-${name}` } } as WireEvent);
      case 'nil':
        return Promise.resolve(undefined);
      case '404':
        return Promise.reject(status(404, 'NotFound'));
      case '409exists':
        return Promise.reject(status(409, 'AlreadyExists'));
      case '409conflict':
        return Promise.reject(status(409, 'Conflict'));
      case '422':
        return Promise.reject(status(422, 'Invalid'));
      case '429':
        return Promise.reject(status(429, 'TooManyRequests'));
      case '500':
        return Promise.reject(status(500, 'InternalError'));
      case '403terminating':
        return Promise.reject(status(403, 'Forbidden'));
      case 'transport':
        return Promise.reject(new Error('dial tcp 127.0.0.1:6443: connect: connection refused'));
      case 'construct':
        return Promise.reject(new RequestConstructionError('bad request'));
      case 'unexpected':
        return Promise.reject(new UnexpectedObjectError('unexpected object'));
      case 'wrapped404':
        return Promise.reject(new Error('wrapped', { cause: status(404, 'NotFound') }));
    }
  }

  create(e: WireEvent) {
    return this.answer('create', e, null);
  }
  update(e: WireEvent) {
    return this.answer('update', e, null);
  }
  patch(e: WireEvent, data: string) {
    return this.answer('patch', e, data);
  }
}

/** Runs a port over the stream as go-events/main.go runs client-go. */
async function runPort(port: Port, s: OpStream): Promise<Result[]> {
  const clock = new FakeClock(0n);
  const sink = new SimSink(port);
  const b = new port.EventBroadcaster(sink, { clock, sleepDurationMs: 0, logger: discardLogger, random: () => 0, sleep: port.sleep });
  const options = { sleepDurationMs: 0, signal: new AbortController().signal, logger: discardLogger, random: () => 0, sleep: port.sleep };
  const results: Result[] = [];
  for (const [line, o] of s.ops.entries()) {
    const copy = JSON.parse(JSON.stringify(o)) as typeof o;
    sink.line = line;
    sink.calls = [];
    sink.answers = copy.op === 'event' ? (copy.answers ?? []) : [];
    sink.byName = copy.op === 'event' ? undefined : (copy.byName ?? {});
    clock.setTime(BigInt(o.at));
    if (copy.op === 'event') {
      b.recordToSink(port.fromWire(copy.event), options);
      await b.idle();
    } else if (copy.op === 'refresh') await b.refreshExistingEventSeries();
    else await b.finishSeries();
    results.push({ calls: sink.calls, cache: [...b.eventCache].map(([key, e]) => ({ key: JSON.parse(key) as string[], event: JSON.parse(JSON.stringify(port.toWire(e))) as unknown })) });
  }
  return results;
}

/** JSON with every object's keys sorted: equal values, equal text. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x));
}

/** Every difference between Go's results and the port's, by operation. */
function compare(s: OpStream, go: Result[], ours: Result[]): string[] {
  const diffs: string[] = [];
  if (go.length !== ours.length) diffs.push(`${go.length} results from Go, ${ours.length} from the port`);
  for (let i = 0; i < Math.min(go.length, ours.length); i++) {
    const pass = s.ops[i].op !== 'event';
    const calls = (r: Result) => {
      const c = r.calls.map((x) => canonical(x));
      return pass ? c.sort() : c;
    };
    const cache = (r: Result) => r.cache.map((x) => canonical(x)).sort();
    const [gc, oc] = [calls(go[i]), calls(ours[i])];
    if (gc.join('\n') !== oc.join('\n')) diffs.push(`op ${i} (${s.ops[i].op}): calls differ\n  Go:   ${gc.join('\n        ')}\n  port: ${oc.join('\n        ')}`);
    const [gk, ok] = [cache(go[i]), cache(ours[i])];
    if (gk.join('\n') !== ok.join('\n')) diffs.push(`op ${i} (${s.ops[i].op}): cache differs\n  Go:   ${gk.join('\n        ')}\n  port: ${ok.join('\n        ')}`);
  }
  return diffs;
}

/** Mutants: one small change to the port each, which the streams must catch. */
const MUTANTS: { readonly name: string; readonly file: string; readonly from: string; readonly to: string }[] = [
  { name: 'the action left out of the key', file: 'src/events/eventKey.ts', from: "e.action ?? '', ", to: '' },
  { name: 'the related reference left out of the key', file: 'src/events/eventKey.ts', from: ', ...referenceKey(e.related)', to: '' },
  { name: 'a series starting at count 1', file: 'src/events/eventBroadcaster.ts', from: 'count: 2,', to: 'count: 1,' },
  { name: 'later occurrences not counted', file: 'src/events/eventBroadcaster.ts', from: 'cached.series.count++;', to: '' },
  { name: 'the finish boundary inclusive', file: 'src/events/eventBroadcaster.ts', from: 't === null || t < than', to: 't === null || t <= than' },
  { name: 'a refreshed answer not cached', file: 'src/events/eventBroadcaster.ts', from: 'if (!retry && recorded) this.eventCache.set(key, fromWire(recorded));', to: '' },
  { name: 'a finished series forgotten even when its write is to be retried', file: 'src/events/eventBroadcaster.ts', from: 'if (!(await recordEvent(this.sink, event, this.logger)).retry) this.eventCache.delete(key);', to: 'await recordEvent(this.sink, event, this.logger); this.eventCache.delete(key);' },
  { name: 'AlreadyExists on a series not retried', file: 'src/events/recordEvent.ts', from: 'if (isSeries) return { event: undefined, retry: true };', to: 'if (isSeries) return { event: undefined, retry: false };' },
  { name: 'any failed patch falling back to a create', file: 'src/events/recordEvent.ts', from: 'if (!isSeries || isKeyNotFoundError(err)) {', to: 'if (!isSeries || err !== undefined) {' },
  { name: 'the resourceVersion kept on a create', file: 'src/events/recordEvent.ts', from: 'delete event.metadata.resourceVersion;', to: '' },
  { name: '11 tries', file: 'src/events/recordEvent.ts', from: 'MAX_TRIES_PER_EVENT = 12', to: 'MAX_TRIES_PER_EVENT = 11' },
  { name: 'server errors retried', file: 'src/events/recordEvent.ts', from: "logger.error(err, 'Server rejected event (will not retry!)', ['event', describeEvent(event)]);\n    }\n    return { event: undefined, retry: false };", to: "logger.error(err, 'Server rejected event (will not retry!)', ['event', describeEvent(event)]);\n    }\n    return { event: undefined, retry: true };" },
  { name: 'the series patch with its time in seconds', file: 'src/events/recordEvent.ts', from: 'JSON.stringify(formatMicroTime(s.lastObservedTime))', to: 'JSON.stringify(formatMicroTime(s.lastObservedTime / 1000000000n * 1000000000n))' },
];

/** Builds the port with one mutation, loaded from a file of its own. */
async function mutantPort(m: (typeof MUTANTS)[number], dir: string, i: number): Promise<Port> {
  const target = path.join(repoRoot, m.file);
  const source = fs.readFileSync(target, 'utf8');
  assert.ok(source.includes(m.from), `mutant "${m.name}": ${m.file} no longer has ${JSON.stringify(m.from)}`);
  const entry = ["export { EventBroadcaster } from './src/events/eventBroadcaster';", "export { fromWire, toWire } from './src/events/types';", "export * as errors from './src/record/errors';", "export { sleep } from './src/record/sleep';"].join('\n');
  const out = path.join(dir, `mutant-${i}.js`);
  await esbuild.build({
    stdin: { contents: entry, resolveDir: repoRoot, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile: out,
    logLevel: 'silent',
    plugins: [{ name: 'mutate', setup: (build) => build.onLoad({ filter: /\.ts$/ }, (args) => (path.resolve(args.path) === target ? { contents: source.replace(m.from, m.to), loader: 'ts' } : undefined)) }],
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(out) as Port;
}

describe('tools/events: our port against client-go v0.37.2', function () {
  this.timeout(600_000);
  const shipped: Port = { EventBroadcaster, fromWire, toWire, errors, sleep };
  const streams = [...edgeOpStreams(), ...Array.from({ length: RANDOM_STREAMS }, (_, i) => randomOpStream(i + 1, OPS_PER_STREAM))];
  let oracle: string;
  const goResults = new Map<string, Result[]>();

  before(() => {
    oracle = buildOracle();
    for (const s of streams) goResults.set(s.name, runGo(oracle, s));
  });

  it(`every sink call and the cache after each operation match, on ${edgeOpStreams().length} edge streams and ${RANDOM_STREAMS} seeds of ${OPS_PER_STREAM} operations`, async () => {
    let ops = 0;
    let calls = 0;
    const failures: string[] = [];
    for (const s of streams) {
      const go = goResults.get(s.name) as Result[];
      const diffs = compare(s, go, await runPort(shipped, s));
      ops += s.ops.length;
      calls += go.reduce((n, r) => n + r.calls.length, 0);
      if (diffs.length > 0) failures.push(`${s.name}: ${diffs.length} differences; the first:\n${diffs[0]}`);
    }
    console.log(`      ${streams.length} streams, ${ops} operations, ${calls} sink calls compared: ${failures.length} streams differ`);
    assert.deepEqual(failures, []);
  });

  it(`each of ${MUTANTS.length} mutants of the port is caught`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-mutants-'));
    const survived: string[] = [];
    try {
      for (const [i, m] of MUTANTS.entries()) {
        const port = await mutantPort(m, dir, i);
        let caught = false;
        for (const s of streams) {
          if (compare(s, goResults.get(s.name) as Result[], await runPort(port, s)).length > 0) {
            caught = true;
            break;
          }
        }
        if (!caught) survived.push(m.name);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(survived, [], 'mutants no stream told apart from client-go');
  });
});
