// Port of k8s.io/apimachinery/pkg/watch/mux.go (Broadcaster), v0.34.
//
// Goroutines become promises on one thread: the distribution loop is one async pump,
// `incoming` and each watcher's result queue are bounded Channels, and incomingBlock is a
// FIFO Mutex. A full queue really makes `action` wait (or `actionOrDrop` return false), and a
// full watcher really waits (WaitIfChannelFull) or loses the event (DropIfChannelFull).
import { Channel, type Received } from './channel';
import { Mutex } from './mutex';

/** watch.EventType. */
export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** watch.Event. */
export interface WatchEvent<T> {
  readonly type: EventType;
  readonly object: T;
}

/** What a Broadcaster does when a watcher's queue is full. */
export enum FullChannelBehavior {
  /** The distributor waits for the slow watcher (and so, once `incoming` fills, do producers). */
  WaitIfChannelFull = 0,
  /** The full watcher loses that event; other watchers still get it. */
  DropIfChannelFull = 1,
}

/** Capacity of `incoming` for newBroadcaster (mux.go incomingQueueLength). */
export const INCOMING_QUEUE_LENGTH = 25;

/** The exact error text client-go returns after Shutdown. */
export const BROADCASTER_STOPPED = 'broadcaster already stopped';

export class BroadcasterStoppedError extends Error {
  constructor() {
    super(BROADCASTER_STOPPED);
    this.name = 'BroadcasterStoppedError';
  }
}

/** watch.Interface: a stream of events until stop() or the broadcaster's shutdown. */
export interface WatchInterface<T> {
  /** Receives the next event; `ok: false` once stopped and drained. */
  receive(): Promise<Received<WatchEvent<T>>>;
  /** Stops watching. Events already queued for this watcher stay readable. Idempotent. */
  stop(): Promise<void>;
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>>;
}

/** A queued closure: the port of the internal-do-function marker, private so no caller can forge it. */
class RunOnLoop {
  constructor(readonly run: () => void) {}
}

type Item<T> = WatchEvent<T> | RunOnLoop;

/** One registered watcher (mux.go broadcasterWatcher). */
export class BroadcasterWatcher<T> implements WatchInterface<T> {
  readonly result: Channel<WatchEvent<T>>;
  private isStopped = false;
  private signalStopped!: () => void;
  /** Settles when stop() is called; a WaitIfChannelFull send gives up on it. */
  readonly stopped = new Promise<void>((resolve) => (this.signalStopped = resolve));
  /** Events this watcher lost to DropIfChannelFull. */
  dropped = 0;

  constructor(
    readonly id: number,
    queueLength: number,
    private readonly broadcaster: Broadcaster<T>,
  ) {
    this.result = new Channel(queueLength);
  }

  get isStoppedNow(): boolean {
    return this.isStopped;
  }

  receive(): Promise<Received<WatchEvent<T>>> {
    return this.result.receive();
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return this.result[Symbol.asyncIterator]();
  }

  async stop(): Promise<void> {
    if (this.isStopped) return;
    this.isStopped = true;
    this.signalStopped();
    await this.broadcaster.stopWatching(this.id);
  }
}

/**
 * Distributes events to any number of watchers, in the order received. A new watcher sees
 * no event enqueued before watch() resolved, and every event enqueued after.
 */
export class Broadcaster<T> {
  private readonly watchers = new Map<number, BroadcasterWatcher<T>>();
  private nextWatcher = 0;
  private readonly incoming: Channel<Item<T>>;
  private readonly incomingBlock = new Mutex();
  private isStopped = false;
  private readonly distributing: Promise<void>;

  private constructor(
    incomingLength: number,
    private readonly watchQueueLength: number,
    private readonly fullChannelBehavior: FullChannelBehavior,
  ) {
    this.incoming = new Channel(incomingLength);
    this.distributing = this.loop();
  }

  /** NewBroadcaster: `incoming` holds 25, each watcher queueLength. Call shutdown() when done. */
  static newBroadcaster<T>(queueLength: number, fullChannelBehavior: FullChannelBehavior): Broadcaster<T> {
    return new Broadcaster<T>(INCOMING_QUEUE_LENGTH, queueLength, fullChannelBehavior);
  }

  /** NewLongQueueBroadcaster: `incoming` and each watcher both hold queueLength. */
  static newLongQueueBroadcaster<T>(queueLength: number, fullChannelBehavior: FullChannelBehavior): Broadcaster<T> {
    return new Broadcaster<T>(queueLength, queueLength, fullChannelBehavior);
  }

  /** Events waiting in `incoming` now. */
  get queued(): number {
    return this.incoming.length;
  }

  /**
   * Runs f on the distribution loop, after every event enqueued before it and before every
   * event enqueued after. Returns false (without running f) once stopped.
   */
  private async blockQueue(f: () => void): Promise<boolean> {
    await this.incomingBlock.lock();
    try {
      if (this.isStopped) return false;
      let ran!: () => void;
      const done = new Promise<void>((resolve) => (ran = resolve));
      await this.incoming.send(
        new RunOnLoop(() => {
          f();
          ran();
        }),
      );
      await done;
      return true;
    } finally {
      this.incomingBlock.unlock();
    }
  }

  /** Adds a watcher. Rejects with "broadcaster already stopped" after shutdown. */
  async watch(): Promise<WatchInterface<T>> {
    let w: BroadcasterWatcher<T> | undefined;
    const ran = await this.blockQueue(() => {
      w = new BroadcasterWatcher<T>(this.nextWatcher++, this.watchQueueLength, this);
      this.watchers.set(w.id, w);
    });
    if (!ran || !w) throw new BroadcasterStoppedError();
    return w;
  }

  /** Adds a watcher that first receives `queued` (and only it does); its queue holds at least queued.length + 1. */
  async watchWithPrefix(queued: readonly WatchEvent<T>[]): Promise<WatchInterface<T>> {
    let w: BroadcasterWatcher<T> | undefined;
    const ran = await this.blockQueue(() => {
      const length = Math.max(this.watchQueueLength, queued.length + 1);
      w = new BroadcasterWatcher<T>(this.nextWatcher++, length, this);
      this.watchers.set(w.id, w);
      for (const e of queued) w.result.trySend(e);
    });
    if (!ran || !w) throw new BroadcasterStoppedError();
    return w;
  }

  /** Removes a watcher and closes its queue (called by the watcher's stop()). */
  async stopWatching(id: number): Promise<void> {
    await this.blockQueue(() => {
      const w = this.watchers.get(id);
      if (!w) return;
      this.watchers.delete(id);
      w.result.close();
    });
  }

  /** Sends an event, waiting for room in `incoming`. Rejects with "broadcaster already stopped" after shutdown. */
  async action(type: EventType, object: T): Promise<void> {
    await this.incomingBlock.lock();
    try {
      if (this.isStopped) throw new BroadcasterStoppedError();
      await this.incoming.send({ type, object });
    } finally {
      this.incomingBlock.unlock();
    }
  }

  /**
   * Sends an event if `incoming` has room: true when sent, false when dropped; rejects after
   * shutdown. When nobody holds the lock the send happens before this returns, so calls
   * keep their order.
   */
  actionOrDrop(type: EventType, object: T): Promise<boolean> {
    const send = (): boolean => {
      try {
        if (this.isStopped) throw new BroadcasterStoppedError();
        return this.incoming.trySend({ type, object });
      } finally {
        this.incomingBlock.unlock();
      }
    };
    if (this.incomingBlock.tryLock()) {
      try {
        return Promise.resolve(send());
      } catch (e) {
        return Promise.reject(e as Error);
      }
    }
    return this.incomingBlock.lock().then(send);
  }

  /**
   * Delivers everything already queued, then closes every watcher and resolves when the loop
   * has ended. Items may still sit in watcher queues, readable until drained.
   */
  async shutdown(): Promise<void> {
    await this.blockQueue(() => {
      this.isStopped = true;
      this.incoming.close();
    });
    await this.distributing;
  }

  private async loop(): Promise<void> {
    for (;;) {
      const r: Received<Item<T>> = await this.incoming.receive();
      if (!r.ok) break;
      if (r.value instanceof RunOnLoop) {
        r.value.run();
        continue;
      }
      await this.distribute(r.value);
    }
    this.closeAll();
  }

  private closeAll(): void {
    for (const w of this.watchers.values()) w.result.close();
    this.watchers.clear();
  }

  private async distribute(event: WatchEvent<T>): Promise<void> {
    // A snapshot: a watcher removed while we wait on another is skipped, as in Go.
    for (const w of [...this.watchers.values()]) {
      if (w.isStoppedNow) continue;
      if (this.fullChannelBehavior === FullChannelBehavior.DropIfChannelFull) {
        if (!w.result.trySend(event)) w.dropped++;
      } else {
        await w.result.send(event, w.stopped);
      }
    }
  }
}
