// The Go channel semantics the watch port relies on: unbuffered hand-over, capacity, close,
// and a send abandoned by its select.
import * as assert from 'node:assert/strict';
import { Channel } from '../../../../src/record/watch/channel';

describe('Channel', () => {
  it('an unbuffered send completes only when a receiver takes the value', async () => {
    const c = new Channel<number>(0);
    assert.equal(c.trySend(1), false);
    let delivered = false;
    const send = c.send(1).then((ok) => (delivered = ok));
    await Promise.resolve();
    assert.equal(delivered, false);
    assert.deepEqual(await c.receive(), { ok: true, value: 1 });
    await send;
    assert.equal(delivered, true);
  });

  it('holds at most its capacity; close keeps buffered values readable', async () => {
    const c = new Channel<number>(2);
    assert.equal(c.trySend(1), true);
    assert.equal(c.trySend(2), true);
    assert.equal(c.trySend(3), false);
    assert.equal(c.length, 2);
    c.close();
    assert.deepEqual(await c.receive(), { ok: true, value: 1 });
    assert.deepEqual(await c.receive(), { ok: true, value: 2 });
    assert.deepEqual(await c.receive(), { ok: false });
    assert.throws(() => c.trySend(4), /send on closed channel/);
  });

  it('a send abandoned by its select resolves false and leaves nothing behind', async () => {
    const c = new Channel<number>(0);
    let abandon!: () => void;
    const sent = c.send(7, new Promise<void>((r) => (abandon = r)));
    abandon();
    assert.equal(await sent, false);
    assert.equal(c.tryReceive(), undefined);
  });
});
