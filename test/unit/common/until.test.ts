// Waiting on events instead of sleeping: the answer as soon as an event makes the check
// give one, undefined at the deadline, and no listener left behind either way.
import * as assert from 'node:assert/strict';
import { Emitter } from '../../../src/common/emitter';
import { until } from '../../../src/common/until';

/** An emitter that counts its subscribers. */
class CountingEmitter {
  private readonly inner = new Emitter<number>();
  listeners = 0;
  readonly event = (listener: (v: number) => void) => {
    this.listeners++;
    const d = this.inner.event(listener);
    return { dispose: () => (this.listeners--, d.dispose()) };
  };
  fire(v: number): void {
    this.inner.fire(v);
  }
}

describe('until', () => {
  it('answers at once when the check already holds, without subscribing', async () => {
    const e = new CountingEmitter();
    assert.equal(await until([e.event], () => 'now', 1000), 'now');
    assert.equal(e.listeners, 0);
  });

  it('answers when an event makes the check hold, and unsubscribes', async () => {
    const a = new CountingEmitter();
    const b = new CountingEmitter();
    let value = 0;
    const started = Date.now();
    const answer = until([a.event, b.event], () => (value >= 2 ? value : undefined), 10_000);
    value = 1;
    a.fire(1);
    value = 2;
    setTimeout(() => b.fire(2), 20);
    assert.equal(await answer, 2);
    assert.ok(Date.now() - started < 5000, 'not at the deadline');
    assert.equal(a.listeners + b.listeners, 0);
  });

  it('gives undefined at the deadline and unsubscribes', async () => {
    const e = new CountingEmitter();
    assert.equal(await until([e.event], () => undefined, 30), undefined);
    assert.equal(e.listeners, 0);
  });

  it('takes a null answer as an answer (null is "no", undefined is "not yet")', async () => {
    const e = new CountingEmitter();
    let done = false;
    const answer = until([e.event], () => (done ? null : undefined), 10_000);
    done = true;
    e.fire(0);
    assert.equal(await answer, null);
  });
});
