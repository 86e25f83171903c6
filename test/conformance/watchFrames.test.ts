// The protobuf watch decoder against apimachinery v0.34.4's own encoders: the oracle writes
// one stream of events twice, as the apiserver's watch encoder would in protobuf and in JSON
// (test/conformance/go/watchframes.go), and each decoded event must normalise the same.
// Random events of both APIs, hostile and invalid text, every kind of time (null, Go's zero,
// 1970, year 9999, microseconds), series or none, bookmarks and ERROR Statuses; the protobuf
// body is read in chunks cut at random, down to one byte.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { EventApi } from '../../src/cluster/listWatch';
import { normalizeEvent, type RawEvent } from '../../src/cluster/normalize';
import { addedObject, decodeItem, decodeObject, watchSplitter, type WatchUnit } from '../../src/cluster/watchItems';
import { prng } from '../support/prng';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

interface Input {
  type: string;
  api: EventApi | 'v1' | 'Status';
  object: unknown;
  text?: string;
}

const TEXTS = [
  '',
  'Back-off restarting failed container cart in pod cart-7d4b9c_payments(0b1c)',
  '日本語のメッセージ 🚀👩‍👩‍👧 العربية \u202egnp.exe\u202c',
  'controls \u0000\u0001\u001b[31mred\u001b[0m\t\r\n\u2028\u2029 end',
  '<img src=x onerror=alert(1)> [click](command:workbench.action.quit) & "quotes" \\ back',
  'x'.repeat(70_000),
];
/** Bytes that are not UTF-8: a lone continuation, a cut sequence, an overlong form, a surrogate, past U+10FFFF. */
const INVALID = [[0x80], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xff, 0x41]];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function rfc3339(r: () => number, micro: boolean): string | null {
  const choice = r();
  if (choice < 0.1) return null;
  if (choice < 0.15) return micro ? '0001-01-01T00:00:00.000000Z' : '0001-01-01T00:00:00Z';
  if (choice < 0.2) return micro ? '1970-01-01T00:00:00.000000Z' : '1970-01-01T00:00:00Z';
  if (choice < 0.22) return micro ? '9999-12-31T23:59:59.999999Z' : '9999-12-31T23:59:59Z';
  const ms = Date.UTC(2026, 0, 1) + Math.floor(r() * 365 * 24 * 3600 * 1000);
  const text = new Date(ms).toISOString().slice(0, 19);
  return micro ? `${text}.${String(Math.floor(r() * 1e6)).padStart(6, '0')}Z` : `${text}Z`;
}

function reference(r: () => number): Record<string, string> {
  return { kind: pick(r, ['Pod', 'Deployment', 'Node', '']), namespace: pick(r, ['payments', 'kube-system', '']), name: `obj-${Math.floor(r() * 50)}`, uid: r() < 0.9 ? `uid-${Math.floor(r() * 1e6)}` : '', apiVersion: pick(r, ['v1', 'apps/v1', '']), fieldPath: pick(r, ['', 'spec.containers{cart}']), resourceVersion: '12' };
}

function metadata(r: () => number, i: number): Record<string, unknown> {
  return {
    name: `obj.${i.toString(16)}`,
    namespace: pick(r, ['payments', 'default', '日本']),
    uid: `e-${i}`,
    resourceVersion: String(1000 + i),
    creationTimestamp: rfc3339(r, false),
    labels: r() < 0.2 ? { app: 'cart' } : undefined,
    managedFields: r() < 0.5 ? [{ manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:count': {} } }] : undefined,
  };
}

function coreEvent(r: () => number, i: number): Record<string, unknown> {
  return {
    metadata: metadata(r, i),
    involvedObject: reference(r),
    reason: pick(r, ['BackOff', 'Scheduled', '', 'Ünïcödé']),
    message: pick(r, TEXTS),
    source: r() < 0.8 ? { component: pick(r, ['kubelet', 'default-scheduler']), host: pick(r, ['node-1', '']) } : {},
    firstTimestamp: rfc3339(r, false),
    lastTimestamp: rfc3339(r, false),
    count: pick(r, [0, 1, 7, 2147483647]),
    type: pick(r, ['Normal', 'Warning', '']),
    eventTime: rfc3339(r, true),
    series: r() < 0.3 ? { count: Math.floor(r() * 100), lastObservedTime: rfc3339(r, true) } : undefined,
    action: pick(r, ['', 'Binding']),
    related: r() < 0.2 ? reference(r) : undefined,
    reportingComponent: pick(r, ['', 'kubelet']),
    reportingInstance: pick(r, ['', 'node-1']),
  };
}

function eventsV1Event(r: () => number, i: number): Record<string, unknown> {
  return {
    metadata: metadata(r, i),
    eventTime: rfc3339(r, true),
    series: r() < 0.3 ? { count: Math.floor(r() * 100), lastObservedTime: rfc3339(r, true) ?? '2026-01-01T00:00:00.000000Z' } : undefined,
    reportingController: pick(r, ['kube-scheduler', '']),
    reportingInstance: pick(r, ['kube-scheduler-node-1', '']),
    action: pick(r, ['Scheduling', '']),
    reason: pick(r, ['FailedScheduling', '']),
    regarding: reference(r),
    related: r() < 0.2 ? reference(r) : undefined,
    note: pick(r, TEXTS),
    type: pick(r, ['Normal', 'Warning']),
    deprecatedSource: r() < 0.5 ? { component: 'kubelet', host: 'node-2' } : {},
    deprecatedFirstTimestamp: rfc3339(r, false),
    deprecatedLastTimestamp: rfc3339(r, false),
    deprecatedCount: pick(r, [0, 3]),
  };
}

function inputs(seed: number, n: number): Input[] {
  const r = prng(seed);
  const out: Input[] = [];
  for (let i = 0; i < n; i++) {
    const api: EventApi = r() < 0.5 ? 'core/v1' : 'events.k8s.io/v1';
    const goApi = api === 'core/v1' ? 'v1' : 'events.k8s.io/v1';
    const roll = r();
    if (roll < 0.04) {
      out.push({ type: 'BOOKMARK', api: goApi, object: { metadata: { resourceVersion: String(5000 + i), annotations: r() < 0.5 ? { 'k8s.io/initial-events-end': 'true' } : undefined } } });
    } else if (roll < 0.06) {
      out.push({ type: 'ERROR', api: 'Status', object: { status: 'Failure', message: `too old resource version: ${i} (${pick(r, TEXTS).slice(0, 40)})`, reason: pick(r, ['Expired', 'Gone', '']), code: pick(r, [410, 500]), details: r() < 0.5 ? { causes: [{ reason: 'NamespaceTerminating', message: 'ns is terminating', field: 'metadata.namespace' }] } : undefined } });
    } else {
      const object = api === 'core/v1' ? coreEvent(r, i) : eventsV1Event(r, i);
      const input: Input = { type: pick(r, ['ADDED', 'ADDED', 'MODIFIED', 'DELETED']), api: goApi, object };
      if (r() < 0.08) input.text = Buffer.concat([Buffer.from('before '), Buffer.from(pick(r, INVALID)), Buffer.from(' after ✓')]).toString('base64');
      out.push(input);
    }
  }
  return out;
}

/** The stream as the apiserver's watch encoder writes it, in `encoding`. */
function encoded(oracle: string, encoding: 'protobuf' | 'json', stream: Input[]): Buffer {
  return execFileSync(oracle, ['-watch-frames', encoding], { input: stream.map((s) => JSON.stringify(s)).join('\n') + '\n', maxBuffer: 1 << 30 });
}

/** The body read in chunks cut at random (a few one byte long), as a socket may hand it over. */
function split(contentType: string, body: Buffer, seed: number): WatchUnit[] {
  const r = prng(seed);
  const splitter = watchSplitter(contentType);
  const units: WatchUnit[] = [];
  for (let at = 0; at < body.length; ) {
    const size = r() < 0.1 ? 1 : 1 + Math.floor(r() * 20_000);
    units.push(...splitter.push(body.subarray(at, at + size)));
    at += size;
  }
  return units;
}

function apiOf(input: Input): EventApi {
  return input.api === 'v1' ? 'core/v1' : 'events.k8s.io/v1';
}

describe('the protobuf watch decoder against apimachinery v0.34.4 encoders', function () {
  this.timeout(120_000);
  let oracle: string;
  before(() => {
    oracle = execFileSync('bash', [path.join(repoRoot, 'test', 'conformance', 'build.sh')], { stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim();
  });

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
    it(`reads 2,000 events (seed ${seed}) exactly as their JSON, in chunks cut at random`, () => {
      const stream = inputs(seed, 2000);
      const proto = split('application/vnd.kubernetes.protobuf;stream=watch', encoded(oracle, 'protobuf', stream), seed);
      const json = split('application/json', encoded(oracle, 'json', stream), seed + 100);
      assert.equal(proto.length, stream.length, 'one frame per event');
      assert.equal(json.length, stream.length, 'one line per event');
      const differences: string[] = [];
      let events = 0;
      let invalid = 0;
      for (let i = 0; i < stream.length; i++) {
        const p = decodeItem<RawEvent & { metadata?: { annotations?: Record<string, string> } }>(proto[i]);
        const j = decodeItem<RawEvent & { metadata?: { annotations?: Record<string, string> } }>(json[i]);
        const what = `#${i} ${stream[i].type} ${stream[i].api}`;
        if (p.type !== j.type) differences.push(`${what}: type ${p.type} / ${j.type}`);
        if (stream[i].api === 'Status') {
          const pick = (o: typeof p.object) => ({ code: o.code, reason: o.reason ?? '', message: o.message });
          if (JSON.stringify(pick(p.object)) !== JSON.stringify(pick(j.object))) differences.push(`${what}: ${JSON.stringify(pick(p.object))} / ${JSON.stringify(pick(j.object))}`);
          continue;
        }
        if (stream[i].type === 'BOOKMARK') {
          const meta = (o: typeof p.object) => JSON.stringify([o.metadata?.resourceVersion, o.metadata?.annotations ?? {}]);
          if (meta(p.object) !== meta(j.object)) differences.push(`${what}: ${meta(p.object)} / ${meta(j.object)}`);
          continue;
        }
        events++;
        if (stream[i].text) invalid++;
        const api = apiOf(stream[i]);
        const ours = normalizeEvent(p.object, api);
        const theirs = normalizeEvent(j.object, api);
        try {
          assert.deepEqual(ours, theirs);
        } catch {
          differences.push(`${what}: ${JSON.stringify(ours).slice(0, 400)}\n  JSON: ${JSON.stringify(theirs).slice(0, 400)}`);
        }
        // The initial stream's path: the object kept undecoded, then decoded later.
        const pending = addedObject(proto[i]);
        if (stream[i].type === 'ADDED' && (pending === undefined || JSON.stringify(normalizeEvent(decodeObject(pending) as RawEvent, api)) !== JSON.stringify(ours))) differences.push(`${what}: kept undecoded, it decodes otherwise`);
      }
      assert.deepEqual(differences.slice(0, 5), [], `${differences.length} of ${stream.length} differ`);
      assert.ok(events > 1800 && invalid > 50, `${events} events, ${invalid} with bytes that are not UTF-8`);
    });
  }

  it('reads a frame of nearly 16 MiB and refuses a longer one, as client-go does', () => {
    const big = { type: 'ADDED', api: 'v1' as const, object: { ...coreEvent(prng(9), 1), message: 'm'.repeat(15 * 1024 * 1024) } };
    const body = encoded(oracle, 'protobuf', [big]);
    const units = split('application/vnd.kubernetes.protobuf;stream=watch', body, 9);
    assert.equal(units.length, 1);
    assert.equal((decodeItem<RawEvent>(units[0]).object.message ?? '').length, 15 * 1024 * 1024);
    const over = Buffer.alloc(8);
    over.writeUInt32BE(16 * 1024 * 1024 + 1, 0);
    assert.throws(() => watchSplitter('application/vnd.kubernetes.protobuf;stream=watch').push(over), /16777217 bytes, past the 16777216/);
  });
});
