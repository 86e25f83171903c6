// Ports of apimachinery pkg/watch/mux_test.go (v0.34).
import * as assert from 'node:assert/strict';
import { Channel } from '../../../../src/record/watch/channel';
import { BROADCASTER_STOPPED, Broadcaster, FullChannelBehavior, type WatchEvent, type WatchInterface } from '../../../../src/record/watch/mux';

interface MyType {
  id: string;
  value: string;
}

/** Everything a watcher receives until its queue is closed. */
async function drain<T>(w: WatchInterface<T>): Promise<WatchEvent<T>[]> {
  const got: WatchEvent<T>[] = [];
  for await (const e of w) got.push(e);
  return got;
}

describe('watch.Broadcaster (mux_test.go)', () => {
  it('TestBroadcaster: every watcher gets every event, in order, then its channel closes', async () => {
    const table: WatchEvent<MyType>[] = [
      { type: 'ADDED', object: { id: 'foo', value: 'hello world 1' } },
      { type: 'ADDED', object: { id: 'bar', value: 'hello world 2' } },
      { type: 'MODIFIED', object: { id: 'foo', value: 'goodbye world 3' } },
      { type: 'DELETED', object: { id: 'bar', value: 'hello world 4' } },
    ];
    const m = Broadcaster.newBroadcaster<MyType>(0, FullChannelBehavior.WaitIfChannelFull);
    const watchers = [await m.watch(), await m.watch(), await m.watch()];
    const received = watchers.map((w) => drain(w));
    for (const e of table) await m.action(e.type, e.object);
    await m.shutdown();
    for (const got of await Promise.all(received)) assert.deepEqual(got, table);
  });

  it('TestBroadcasterWatcherClose: stopping a watcher and shutting down close both channels; Stop again is harmless', async () => {
    const m = Broadcaster.newBroadcaster<MyType>(0, FullChannelBehavior.WaitIfChannelFull);
    const w = await m.watch();
    const w2 = await m.watch();
    await w.stop();
    await m.shutdown();
    assert.deepEqual(await w.receive(), { ok: false });
    assert.deepEqual(await w2.receive(), { ok: false });
    await w.stop();
    await w2.stop();
  });

  it('TestBroadcasterWatcherStopDeadlock: stopping a watcher the distributor waits on does not deadlock', async function () {
    this.timeout(30_000); // wait.ForeverTestTimeout
    const m = Broadcaster.newBroadcaster<MyType>(0, FullChannelBehavior.WaitIfChannelFull);
    const w0 = await m.watch();
    const w1 = await m.watch();
    // Whichever watcher receives first stops the other while distribute is sending to it.
    const done = Promise.race([w0.receive().then(() => w1.stop()), w1.receive().then(() => w0.stop())]);
    await m.action('ADDED', { id: '', value: '' });
    await done;
    await m.shutdown();
  });

  it('TestBroadcasterDropIfChannelFull: a full watcher loses later events; each keeps the first', async () => {
    const m = Broadcaster.newBroadcaster<MyType>(1, FullChannelBehavior.DropIfChannelFull);
    const event1 = { type: 'ADDED' as const, object: { id: 'foo', value: 'good night' } };
    const event2 = { type: 'ADDED' as const, object: { id: 'bar', value: 'good morning' } };
    const watchers = [await m.watch(), await m.watch()];
    await m.action(event1.type, event1.object);
    await m.action(event2.type, event2.object);
    await m.shutdown();
    for (const w of watchers) assert.deepEqual(await drain(w), [event1]);
  });

  it('TestBroadcasterWatchAfterShutdown: watch and watchWithPrefix fail with "broadcaster already stopped"', async () => {
    const m = Broadcaster.newBroadcaster<MyType>(0, FullChannelBehavior.WaitIfChannelFull);
    await m.shutdown();
    await assert.rejects(m.watch(), { message: BROADCASTER_STOPPED });
    const e1 = { type: 'ADDED' as const, object: { id: 'foo', value: 'hello world 1' } };
    const e2 = { type: 'ADDED' as const, object: { id: 'bar', value: 'hello world 2' } };
    await assert.rejects(m.watchWithPrefix([e1, e2]), { message: BROADCASTER_STOPPED });
  });

  it('TestBroadcasterSendEventAfterShutdown: action rejects and actionOrDrop reports false with the same error', async () => {
    const m = Broadcaster.newBroadcaster<MyType>(1, FullChannelBehavior.DropIfChannelFull);
    await m.watch();
    await m.watch();
    await m.shutdown();
    const event = { id: 'foo', value: 'hello world' };
    await assert.rejects(m.action('ADDED', event), { message: BROADCASTER_STOPPED });
    await assert.rejects(m.actionOrDrop('ADDED', event), { message: BROADCASTER_STOPPED });
  });

  it('TestBroadcasterShutdownRace: watchers stopped while a shutdown closes incoming do not fail', async () => {
    const m = Broadcaster.newBroadcaster<MyType>(1, FullChannelBehavior.WaitIfChannelFull);
    const internals = m as unknown as { blockQueue(f: () => void): Promise<boolean>; incoming: Channel<unknown>; isStopped: boolean; distributing: Promise<void> };
    const watchers = [await m.watch(), await m.watch()];
    await m.action('ADDED', { id: 'foo', value: 'hello world' });
    let stopping: Promise<void>[] = [];
    await internals.blockQueue(() => {
      // Close incoming before marking the broadcaster stopped, and stop the watchers in between.
      internals.incoming.close();
      stopping = watchers.map((_, i) => m.stopWatching(i));
      internals.isStopped = true;
    });
    await Promise.all(stopping);
    await internals.distributing;
  });

  it('a new watcher sees no earlier event and every later one (watch ordering)', async () => {
    const m = Broadcaster.newBroadcaster<number>(100, FullChannelBehavior.WaitIfChannelFull);
    const early = await m.watch();
    for (let i = 0; i < 5; i++) void m.actionOrDrop('ADDED', i);
    const late = await m.watch();
    for (let i = 5; i < 10; i++) await m.action('ADDED', i);
    await m.shutdown();
    assert.deepEqual((await drain(early)).map((e) => e.object), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.deepEqual((await drain(late)).map((e) => e.object), [5, 6, 7, 8, 9]);
  });

  it('watchWithPrefix gives the prefix to that watcher only, before later events', async () => {
    const m = Broadcaster.newBroadcaster<number>(0, FullChannelBehavior.DropIfChannelFull);
    const other = await m.watch();
    const prefixed = await m.watchWithPrefix([{ type: 'ADDED', object: -2 }, { type: 'ADDED', object: -1 }]);
    await m.shutdown();
    assert.deepEqual((await drain(prefixed)).map((e) => e.object), [-2, -1]);
    assert.deepEqual(await drain(other), []);
  });

  it('actionOrDrop drops once incoming and a WaitIfChannelFull watcher are full; action really waits', async () => {
    const m = Broadcaster.newBroadcaster<number>(1, FullChannelBehavior.WaitIfChannelFull);
    const w = await m.watch();
    // 1 in the watcher's queue, 1 held by the waiting distributor, 25 in incoming.
    const accepted: boolean[] = [];
    for (let i = 0; i < 27; i++) {
      accepted.push(await m.actionOrDrop('ADDED', i));
      await new Promise((r) => setImmediate(r));
    }
    assert.deepEqual(accepted, Array(27).fill(true));
    assert.equal(await m.actionOrDrop('ADDED', 99), false, 'the 28th is dropped');
    let waited = true;
    const blocked = m.action('ADDED', 27).then(() => (waited = false));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(waited, true, 'action is still waiting for room');
    assert.deepEqual(await w.receive(), { ok: true, value: { type: 'ADDED', object: 0 } });
    await blocked;
    void m.shutdown();
    assert.deepEqual((await drain(w)).map((e) => e.object), Array.from({ length: 27 }, (_, i) => i + 1), 'nothing accepted was lost, in order');
  });

  it('a stopped watcher can still read what was queued for it', async () => {
    const m = Broadcaster.newBroadcaster<number>(10, FullChannelBehavior.DropIfChannelFull);
    const w = await m.watch();
    await m.action('ADDED', 1);
    await m.action('ADDED', 2);
    // Let the distributor hand both over before stopping.
    await m.watch();
    await w.stop();
    assert.deepEqual((await drain(w)).map((e) => e.object), [1, 2]);
    await m.shutdown();
  });

  it('shutdown delivers what is queued and can be called twice', async () => {
    const m = Broadcaster.newBroadcaster<number>(100, FullChannelBehavior.DropIfChannelFull);
    const w = await m.watch();
    for (let i = 0; i < 20; i++) assert.equal(await m.actionOrDrop('ADDED', i), true);
    await m.shutdown();
    await m.shutdown();
    assert.equal((await drain(w)).length, 20);
  });
});
