// core/v1 and events.k8s.io/v1 events into the one model: counts, times to the
// millisecond, sources, and one shared reference per involved object.
import * as assert from 'node:assert/strict';
import { normalizeEvent } from '../../../src/cluster/normalize';
import { objectKey } from '../../../src/model/clusterEvent';
import { coreEvent, T0 } from '../model/fixtures';

const S = 1000;

describe('normalizeEvent', () => {
  it('reads core/v1: count, first and last timestamps, source.component', () => {
    const e = coreEvent({ uid: 'a', count: 3, first: T0, last: T0 + 300 * S, source: 'kubelet' });
    assert.equal(e.count, 3);
    assert.equal(e.firstSeen, T0);
    assert.equal(e.lastSeen, T0 + 300 * S);
    assert.equal(e.source, 'kubelet');
    assert.equal(e.origin, 'core/v1');
  });

  it('reads events.k8s.io/v1: regarding, note, series, eventTime and reportingController', () => {
    const e = normalizeEvent({
      metadata: { uid: 'b', name: 'x', namespace: 'ns' },
      regarding: { kind: 'Node', name: 'n1' },
      note: 'NodeNotReady',
      reason: 'NodeNotReady',
      type: 'Warning',
      eventTime: '2026-01-01T00:00:00.250000Z',
      series: { count: 7, lastObservedTime: '2026-01-01T00:10:00.000000Z' },
      reportingController: 'node-controller',
      reportingInstance: 'kcm-1',
    }, 'events.k8s.io/v1');
    assert.deepEqual([e.count, e.firstSeen, e.lastSeen, e.source, e.message, e.involvedObject.kind], [7, T0 + 250, T0 + 600 * S, 'node-controller', 'NodeNotReady', 'Node']);
  });

  it('reads an events.k8s.io event through core/v1: series.count and reportingComponent fill the gaps', () => {
    const e = normalizeEvent({ metadata: { uid: 'c' }, involvedObject: { kind: 'Pod', name: 'p' }, count: 0, source: {}, reportingComponent: 'kubelet', eventTime: '2026-01-01T00:00:00.000000Z', series: { count: 4, lastObservedTime: '2026-01-01T00:01:00.000000Z' } }, 'core/v1');
    assert.deepEqual([e.count, e.source, e.lastSeen], [4, 'kubelet', T0 + 60 * S]);
  });

  it('counts a singleton with count 0 as 1, and treats Go zero times as missing', () => {
    const e = normalizeEvent({ metadata: { uid: 'd' }, involvedObject: {}, count: 0, firstTimestamp: null, lastTimestamp: '0001-01-01T00:00:00Z' }, 'core/v1');
    assert.deepEqual([e.count, e.firstSeen, e.lastSeen], [1, undefined, undefined]);
  });

  it('reads every time text to the millisecond however often it repeats, past the parsed-times table filling up', () => {
    // 60,000 distinct seconds (many times what the table keeps), each again later, and times with
    // fractions, offsets and Go's zero time between them.
    const at = (i: number) => new Date(T0 + i * S).toISOString().replace('.000Z', 'Z');
    const read = (first: string | null, last: string | null, eventTime?: string) => {
      const e = normalizeEvent({ metadata: { uid: 'x', creationTimestamp: last ?? undefined }, involvedObject: {}, firstTimestamp: first, lastTimestamp: last, eventTime }, 'core/v1');
      return [e.firstSeen, e.lastSeen, e.created];
    };
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < 60_000; i += pass === 0 ? 1 : 997) assert.deepEqual(read(at(i), at(i + 1)), [T0 + i * S, T0 + (i + 1) * S, T0 + (i + 1) * S], `second ${i}, pass ${pass}`);
      assert.deepEqual(read('0001-01-01T00:00:00Z', '2026-01-01T01:00:00+01:00'), [undefined, T0, T0]);
      assert.deepEqual(read(null, '0001-01-01T00:00:00Z', '2026-01-01T00:00:00.123456Z'), [T0 + 123, undefined, undefined]);
    }
  });
});

describe('normalizeEvent: one reference per object', () => {
  const ref = (o: Record<string, string>) => normalizeEvent({ metadata: { uid: `e-${Math.random()}` }, involvedObject: o }, 'core/v1').involvedObject;

  it('gives events about one object the same reference and key, made from fresh strings each time', () => {
    // Strings built at run time, as JSON.parse makes them: equal text, different strings.
    const fresh = () => ({ kind: 'Pod', namespace: 'shop', name: ['web', '7d9f'].join('-'), uid: ['0a1b', '2c3d'].join('-'), apiVersion: 'v1', fieldPath: 'spec.containers{app}' });
    const a = ref(fresh());
    const b = ref(fresh());
    assert.equal(a, b);
    assert.equal(objectKey(a), objectKey(b));
  });

  it('never shares a reference between objects that differ in any field, whatever their text', () => {
    const base = { kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u1', apiVersion: 'v1', fieldPath: '' };
    const variants = [
      base,
      { ...base, fieldPath: 'spec.containers{a}' },
      { ...base, fieldPath: 'spec.containers{b}' },
      { ...base, apiVersion: 'v2' },
      { ...base, kind: 'Job' },
      { ...base, namespace: 'other' },
      { ...base, name: 'q' },
      { ...base, uid: 'u2' },
      // Text that would collide if the parts were only joined with a separator.
      { ...base, uid: '', name: 'a\u0000b', namespace: '' },
      { ...base, uid: '', name: 'a', namespace: 'b\u0000' },
    ];
    const refs = variants.map(ref);
    refs.forEach((r, i) => assert.deepEqual({ ...r }, variants[i], `variant ${i} read back as it was written`));
    assert.equal(new Set(refs).size, variants.length, 'every variant its own reference');
    assert.deepEqual(variants.map(ref), refs, 'and the same one again the next time');
  });

  it('keeps a bounded number of field paths for one object: the rest are read right, just not shared', () => {
    const paths = Array.from({ length: 200 }, (_, i) => ({ kind: 'Pod', namespace: 'ns', name: 'busy', uid: 'u-busy', apiVersion: 'v1', fieldPath: `spec.containers{c${i}}` }));
    const refs = paths.map(ref);
    refs.forEach((r, i) => assert.deepEqual({ ...r }, paths[i]));
    assert.equal(ref(paths[0]), refs[0], 'the first ones are shared');
    assert.equal(objectKey(refs[199]), objectKey(refs[0]), 'every one in the same group');
  });
});
