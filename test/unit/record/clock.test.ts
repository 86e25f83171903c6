// The wall clock as Go's time.Now() reads it for events, and times as metav1 writes them.
import * as assert from 'node:assert/strict';
import { formatMicroTime, formatTime, parseTime, RealClock } from '../../../src/record/clock';
import { EventBroadcaster } from '../../../src/record/event';

describe('RealClock', () => {
  it('follows the wall clock through a step (a laptop sleep, an NTP correction)', () => {
    let wall = Date.parse('2026-05-01T10:00:00Z');
    let mono = 5_000_000_000n;
    const clock = new RealClock(() => wall, () => mono);
    const before = clock.now();
    wall += 3_600_000; // an hour passes while the monotonic clock stands still (suspended)
    mono += 1000n;
    const after = clock.now();
    assert.equal(Number((after - before) / 1_000_000n), 3_600_000);
    wall -= 7_200_000; // stepped back
    assert.ok(clock.now() < after, 'a step back shows too, as in Go');
  });

  it('keeps readings within one millisecond distinct and increasing, so event names stay unique', () => {
    const clock = new RealClock(() => 1_700_000_000_000, () => 42n);
    const seen = new Set<bigint>();
    let last = 0n;
    for (let i = 0; i < 1000; i++) {
      const t = clock.now();
      assert.ok(t > last);
      last = t;
      seen.add(t);
    }
    assert.equal(seen.size, 1000);
  });

  it('gives 2,000 events recorded as fast as possible on one object 2,000 distinct names', async () => {
    const caster = new EventBroadcaster();
    const names = new Set<string>();
    const watch = await caster.startEventWatcher((e) => void names.add(e.metadata.name ?? ""));
    const recorder = caster.newRecorder({ component: 'test' });
    for (let i = 0; i < 2000; i++) await recorder.event({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'd' } }, 'Normal', 'R', `m${i}`);
    await caster.shutdown();
    await watch.done;
    assert.equal(names.size, 2000);
  });
});

describe('times on the wire', () => {
  it('metav1.Time in whole seconds and MicroTime with six digits', () => {
    const t = parseTime('2023-01-01T12:00:01.123456789Z');
    assert.equal(formatTime(t), '2023-01-01T12:00:01Z');
    assert.equal(formatMicroTime(t), '2023-01-01T12:00:01.123456Z');
    assert.equal(formatTime(0n), '1970-01-01T00:00:00Z');
  });
});
