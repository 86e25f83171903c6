// The webview's pure parts: the time window (zoom, pan, fit, follow), the axis, the mark
// lanes with hit-testing, and the events-per-minute bins.
import * as assert from 'node:assert/strict';
import { MARK_HISTORY, MARK_WARNING, type LaneData } from '../../../../src/views/timeline/protocol';
import { tickLabel, ticks, tickStep } from '../../../../src/views/timeline/webview/axis';
import { hitTest, LaneSet, markRadius, nearestInTime, toMarkLane, xOf, type Scale } from '../../../../src/views/timeline/webview/marks';
import { RateBins, rateColumns } from '../../../../src/views/timeline/webview/rate';
import { extentOf, MIN_EXTENT_MS, MIN_SPAN_MS, TimeWindow } from '../../../../src/views/timeline/webview/timeWindow';

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const T0 = Date.parse('2026-01-01T00:00:00Z');

function lane(id: string, marks: [first: number, last: number, count: number, flags: number][]): LaneData {
  return { id, label: id, description: '', depth: 0, uids: marks.map((_, i) => `${id}-${i}`), first: marks.map((m) => m[0]), last: marks.map((m) => m[1]), counts: marks.map((m) => m[2]), flags: marks.map((m) => m[3]) };
}

describe('timeline window', () => {
  const extent = { start: T0, end: T0 + 10 * HOUR };

  it('zooms about the anchor, no closer than ten seconds, no wider than the extent', () => {
    const w = new TimeWindow(extent);
    const anchor = T0 + 2 * HOUR;
    const share = (anchor - w.start) / w.span;
    w.zoom(0.5, anchor);
    assert.equal(w.span, 5 * HOUR);
    assert.equal((anchor - w.start) / w.span, share, 'the anchor stays where it was on screen');
    assert.equal(w.mode, 'free');
    for (let i = 0; i < 50; i++) w.zoom(0.5, anchor);
    assert.equal(w.span, MIN_SPAN_MS);
    for (let i = 0; i < 50; i++) w.zoom(2, anchor);
    assert.deepEqual([w.start, w.end, w.mode], [extent.start, extent.end, 'fit']);
  });

  it('pans inside the extent only; at the end it follows now as the extent grows', () => {
    const w = new TimeWindow(extent);
    w.zoom(0.1, T0 + 5 * HOUR);
    w.pan(-100 * HOUR);
    assert.equal(w.start, extent.start);
    w.pan(100 * HOUR);
    assert.equal(w.end, extent.end);
    assert.equal(w.mode, 'follow');
    const span = w.span;
    w.setExtent({ start: T0, end: extent.end + HOUR });
    assert.deepEqual([w.end, w.span], [extent.end + HOUR, span], 'follow keeps its span at the new end');
    w.pan(-2 * HOUR);
    assert.equal(w.mode, 'free');
    const before = [w.start, w.end];
    w.setExtent({ start: T0, end: extent.end + 2 * HOUR });
    assert.deepEqual([w.start, w.end], before, 'free stays put');
    w.fit();
    w.setExtent({ start: T0 - HOUR, end: extent.end + 3 * HOUR });
    assert.deepEqual([w.start, w.end], [T0 - HOUR, extent.end + 3 * HOUR], 'fit grows with it');
  });

  it('reveals a time by the least pan; restores a saved window inside the extent', () => {
    const w = new TimeWindow(extent);
    w.zoom(0.1, T0 + 5 * HOUR);
    w.reveal(T0 + 9 * HOUR);
    assert.ok(w.start < T0 + 9 * HOUR && T0 + 9 * HOUR < w.end);
    const restored = new TimeWindow(extent);
    restored.restore(T0 - 5 * HOUR, T0 - 4 * HOUR, 'free');
    assert.deepEqual([restored.start, restored.end], [T0, T0 + HOUR], 'moved back inside');
  });

  it('has an extent that covers the data and now, padded, at least five minutes, never before the floor', () => {
    const e = extentOf(T0, T0 + HOUR, T0 + HOUR, -Infinity);
    assert.ok(e.start < T0 && e.end > T0 + HOUR);
    const empty = extentOf(Infinity, -Infinity, T0, -Infinity);
    assert.ok(empty.end - empty.start >= MIN_EXTENT_MS && empty.end >= T0);
    const hostile = extentOf(Date.parse('2001-01-01T00:00:00Z'), T0, T0, T0 - 25 * HOUR);
    assert.ok(hostile.start >= T0 - 26 * HOUR, 'a time from 2001 does not stretch the axis');
  });
});

describe('timeline axis', () => {
  it('picks the smallest round step a label fits in, and ticks on round local times', () => {
    assert.equal(tickStep(1000, 90), 2 * MIN);
    assert.equal(tickStep(10, 90), S);
    const offset = 2 * HOUR; // UTC+2
    const t = ticks(T0 + 7 * MIN, T0 + HOUR, 15 * MIN, offset);
    assert.deepEqual(t.map((x) => (x - T0) / MIN), [15, 30, 45, 60]);
    assert.equal(tickLabel(T0 + 15 * MIN, 15 * MIN, offset), '02:15');
    assert.equal(tickLabel(T0 - offset, HOUR, offset), 'Jan 1', 'local midnight shows the date');
    assert.equal(tickLabel(T0 + 15 * S, 5 * S, 0), '00:00:15');
  });
});

describe('timeline marks', () => {
  it('sorts a lane the host sent out of order, and counts its live warnings', () => {
    const l = toMarkLane(lane('a', [[30, 30, 1, 0], [10, 10, 1, MARK_WARNING], [15, 20, 3, MARK_WARNING | MARK_HISTORY]]));
    assert.deepEqual([...l.last], [10, 20, 30]);
    assert.deepEqual(l.uids, ['a-1', 'a-2', 'a-0']);
    assert.equal(l.warnings, 1, 'history warnings are not live');
    assert.equal(l.maxSpan, 5);
  });

  it('hits the topmost mark under the pointer: a live warning over history, else the nearest', () => {
    const l = toMarkLane(lane('a', [[T0, T0, 1, MARK_HISTORY], [T0 + 2 * S, T0 + 2 * S, 1, MARK_WARNING], [T0 + 60 * S, T0 + 60 * S, 1, 0]]));
    const s: Scale = { start: T0 - 10 * S, msPerPx: 1000, left: 100 };
    const r = markRadius(1, 10);
    assert.equal(hitTest(l, xOf(s, T0) + 1, s, 10, 2), 1, 'the warning 2 px away wins over the history mark under the pointer');
    assert.equal(hitTest(l, xOf(s, T0 + 60 * S) + r + 1.5, s, 10, 2), 2);
    assert.equal(hitTest(l, xOf(s, T0 + 30 * S), s, 10, 2), -1);
    assert.equal(nearestInTime(l, T0 + 40 * S), 2);
    assert.equal(nearestInTime(l, T0 - HOUR), 0);
  });

  it('applies resets and updates: replaced lanes, removed lanes, a new order', () => {
    const set = new LaneSet();
    set.apply({ type: 'reset', now: T0, oldest: 0, header: { scope: '', filter: '', untimed: 0 }, lanes: [lane('a', [[1, 1, 1, 0]]), lane('b', [[2, 2, 1, MARK_WARNING]])] });
    assert.deepEqual([set.events, set.warnings, set.oldest, set.newest], [2, 1, 1, 2]);
    set.apply({ type: 'update', now: T0, header: { scope: '', filter: '', untimed: 0 }, lanes: [lane('c', [[5, 5, 1, 0]]), lane('a', [[1, 1, 1, 0], [3, 3, 1, 0]])], removed: ['b'] });
    assert.deepEqual(set.lanes.map((l) => l.id), ['a', 'c'], 'kept order, the new lane last');
    assert.equal(set.indexOf('c'), 1);
    set.apply({ type: 'update', now: T0, header: { scope: '', filter: '', untimed: 0 }, lanes: [], removed: [], order: ['c', 'a'] });
    assert.deepEqual(set.lanes.map((l) => l.id), ['c', 'a']);
    assert.equal(set.indexOf('a'), 1);
  });
});

describe('timeline events per minute', () => {
  it('bins single events by minute, a series spread between its first and last, warnings apart', () => {
    const lanes = [toMarkLane(lane('a', [[T0 + 10 * S, T0 + 10 * S, 1, 0], [T0 + 20 * S, T0 + 20 * S, 1, MARK_WARNING], [T0, T0 + 10 * MIN, 12, 0]]))];
    const bins = RateBins.of(lanes, T0, T0 + HOUR);
    assert.equal(bins.binMs, MIN);
    const total = [...bins.normal].reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(total - 13) < 1e-9, `every occurrence counted once: ${total}`);
    assert.equal(bins.warning[bins.bin(T0 + 20 * S)], 1);
    // Bin 0: the single event, the series' first occurrence and a tenth of its 10 spread ones.
    assert.ok(Math.abs(bins.normal[0] - 3) < 1e-9, String(bins.normal[0]));
    assert.ok(Math.abs(bins.normal[5] - 1) < 1e-9, String(bins.normal[5]));
    assert.ok(Math.abs(bins.normal[10] - 1) < 1e-9, 'the last occurrence');
  });

  it('shows each column the busiest minute it covers, so a burst never averages away', () => {
    const marks: [number, number, number, number][] = [];
    for (let i = 0; i < 30; i++) marks.push([T0 + 30 * MIN + i * S, T0 + 30 * MIN + i * S, 1, 0]);
    marks.push([T0, T0, 1, 0]);
    const bins = RateBins.of([toMarkLane(lane('a', marks))], T0, T0 + HOUR);
    const cols = rateColumns(bins, T0, 10 * MIN, 6); // ten minutes a column
    assert.deepEqual([...cols.normal], [1, 0, 0, 30, 0, 0]);
    assert.equal(cols.peak, 30);
    const fine = rateColumns(bins, T0 + 30 * MIN, 15 * S, 8); // a minute spans four columns
    assert.deepEqual([...fine.normal], [30, 30, 30, 30, 0, 0, 0, 0]);
  });

  it('widens its bins past a very long history instead of allocating without end', () => {
    const bins = new RateBins(T0 - 400 * 24 * HOUR, T0);
    assert.ok(bins.normal.length <= 100_001 && bins.binMs > MIN && bins.binMs % MIN === 0);
  });
});
