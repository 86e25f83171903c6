// A Go channel for one JavaScript thread: a FIFO of fixed capacity whose senders wait
// (each on its own promise, as a blocked goroutine would) when it is full, and whose
// receivers wait when it is empty. Capacity 0 is an unbuffered channel: a send completes
// only when a receiver takes the value.

/** What a receive yields: a value, or `ok: false` once the channel is closed and drained. */
export type Received<T> = { readonly ok: true; readonly value: T } | { readonly ok: false };

/** Thrown by send on a closed channel, where Go would panic. */
export class ChannelClosedError extends Error {
  constructor() {
    super('send on closed channel');
    this.name = 'ChannelClosedError';
  }
}

interface PendingSend<T> {
  readonly value: T;
  readonly settle: (delivered: boolean) => void;
}

export class Channel<T> {
  private readonly buffer: T[] = [];
  private readonly senders: PendingSend<T>[] = [];
  private readonly receivers: ((r: Received<T>) => void)[] = [];
  private isClosed = false;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`channel capacity must be a non-negative integer, got ${capacity}`);
  }

  /** Values buffered now (Go's len(ch)). */
  get length(): number {
    return this.buffer.length;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** A send that never waits (Go's select with default): true when the value was taken. */
  trySend(value: T): boolean {
    if (this.isClosed) throw new ChannelClosedError();
    const receiver = this.receivers.shift();
    if (receiver) {
      receiver({ ok: true, value });
      return true;
    }
    if (this.buffer.length < this.capacity) {
      this.buffer.push(value);
      return true;
    }
    return false;
  }

  /**
   * Sends, waiting for room. Resolves true once the value is in the channel, or false if
   * `abandon` settles first (Go's select between the send and another channel).
   */
  send(value: T, abandon?: Promise<unknown>): Promise<boolean> {
    if (this.trySend(value)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const pending: PendingSend<T> = { value, settle: resolve };
      this.senders.push(pending);
      void abandon?.then(() => {
        const i = this.senders.indexOf(pending);
        if (i >= 0) {
          this.senders.splice(i, 1);
          resolve(false);
        }
      });
    });
  }

  /** A receive that never waits: the value, `ok: false` when closed and drained, or undefined when empty. */
  tryReceive(): Received<T> | undefined {
    if (this.buffer.length > 0) {
      const value = this.buffer.shift() as T;
      this.admitWaitingSender();
      return { ok: true, value };
    }
    const sender = this.senders.shift();
    if (sender) {
      sender.settle(true);
      return { ok: true, value: sender.value };
    }
    return this.isClosed ? { ok: false } : undefined;
  }

  /** Receives, waiting for a value or for the channel to close. */
  receive(): Promise<Received<T>> {
    const now = this.tryReceive();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => this.receivers.push(resolve));
  }

  /** Closes the channel: buffered values stay readable, then receivers see `ok: false`. */
  close(): void {
    if (this.isClosed) throw new Error('close of closed channel');
    this.isClosed = true;
    for (const sender of this.senders.splice(0)) sender.settle(false);
    for (const receiver of this.receivers.splice(0)) receiver({ ok: false });
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      const r = await this.receive();
      if (!r.ok) return;
      yield r.value;
    }
  }

  private admitWaitingSender(): void {
    const sender = this.senders.shift();
    if (sender) {
      this.buffer.push(sender.value);
      sender.settle(true);
    }
  }
}
