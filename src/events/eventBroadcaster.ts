// Port of client-go/tools/events/event_broadcaster.go (v0.37.2): the events.k8s.io/v1
// EventBroadcaster. Recorders queue events; a sink's watcher keeps one cached event per
// isomorphic key: the first occurrence is created, the second patched into a series of
// count 2, later ones only counted in the cache. Every 30 minutes each live series is
// patched again (its count reaches the apiserver, its TTL renewed); every 6 minutes a series
// not seen for 6 minutes is patched a last time and forgotten, as is a lone event that old.
//
// Go reads the wall clock for the series' times and in finishSeries; here one injected
// clock serves both (RealClock by default). Where Go leaves an order to its scheduler (each
// event's goroutine, the map's iteration) this port takes arrival order, inside what Go allows.
import { randomInt } from 'node:crypto';
import { NANOS_PER_SECOND, RealClock, type PassiveClock } from '../record/clock';
import { discardLogger, type Logger } from '../record/logger';
import { sleep as realSleep } from '../record/sleep';
import type { ObjectReference } from '../record/types';
import { Broadcaster, FullChannelBehavior, type WatchInterface } from '../record/watch/mux';
import { Mutex } from '../record/watch/mutex';
import { getKey } from './eventKey';
import { EventRecorder, hostname } from './eventRecorder';
import { attemptRecording, describeEvent, recordEvent, type EventSink, type RetryOptions } from './recordEvent';
import { deepCopy, fromWire, type Event } from './types';

/** A series not observed for this long is finished; also how often that is looked for. */
export const FINISH_TIME_MS = 6 * 60_000;
/** How often every live series is patched again. */
export const REFRESH_TIME_MS = 30 * 60_000;
/** Each watcher's queue; an event for a full one is dropped (DropIfChannelFull). */
export const MAX_QUEUED_EVENTS = 1000;
/** The wait between write attempts, before its jitter. */
export const DEFAULT_SLEEP_DURATION_MS = 10_000;

const FINISH_TIME_NS = BigInt(FINISH_TIME_MS / 1000) * NANOS_PER_SECOND;

export interface EventBroadcasterOptions {
  /** The wait between write attempts (client-go's tests use 0). */
  sleepDurationMs?: number;
  /** The series' times, and "now" for finishing them. */
  clock?: PassiveClock;
  logger?: Logger;
  /** Uniform in [0, 1): the jitter of each wait. */
  random?: () => number;
  /** Waits ms unless the signal aborts first (false then): the retries' and the loops' waits. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<boolean>;
}

/** A started watcher: stop it; `done` resolves once it has handled its last event. */
export interface EventWatch {
  stop(): Promise<void>;
  readonly done: Promise<void>;
}

/** klog.KRef(namespace, name).String(). */
function kref(ref: ObjectReference): string {
  return ref.namespace ? `${ref.namespace}/${ref.name ?? ''}` : (ref.name ?? '');
}

export class EventBroadcaster {
  readonly broadcaster = Broadcaster.newBroadcaster<Event>(MAX_QUEUED_EVENTS, FullChannelBehavior.DropIfChannelFull);
  /** One event per isomorphic key (getKey): the first occurrence, with its series once it recurs. */
  readonly eventCache = new Map<string, Event>();
  private readonly mu = new Mutex();
  private readonly clock: PassiveClock;
  private readonly logger: Logger;
  private readonly retry: Omit<RetryOptions, 'signal'>;
  /** Writes in flight (Go's goroutines), for idle(). */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly sink: EventSink,
    options: EventBroadcasterOptions = {},
  ) {
    this.clock = options.clock ?? new RealClock();
    this.logger = options.logger ?? discardLogger;
    this.retry = {
      sleepDurationMs: options.sleepDurationMs ?? DEFAULT_SLEEP_DURATION_MS,
      logger: this.logger,
      random: options.random ?? (() => randomInt(2 ** 32) / 2 ** 32),
      sleep: options.sleep ?? realSleep,
    };
  }

  /** NewRecorder: events reported by `reportingController`, from instance `<controller>-<hostname>`. */
  newRecorder(reportingController: string, options: { clock?: PassiveClock; logger?: Logger; hostname?: string } = {}): EventRecorder {
    const instance = `${reportingController}-${options.hostname ?? hostname()}`;
    return new EventRecorder(this.broadcaster, reportingController, instance, options.clock ?? new RealClock(), options.logger ?? this.logger);
  }

  /** Calls handler with every event recorded from now on, in order. */
  async startEventWatcher(handler: (e: Event) => void): Promise<EventWatch> {
    const w: WatchInterface<Event> = await this.broadcaster.watch();
    const done = (async () => {
      for await (const { object } of w) {
        try {
          handler(object);
        } catch (err) {
          this.logger.error(err, 'Observed a panic', ['event', describeEvent(object)]);
        }
      }
    })();
    return { stop: () => w.stop(), done };
  }

  /** StartLogging: "Event occurred" with the regarding object, kind, apiVersion, type, reason, action and note. */
  startLogging(logger: Logger, verbosity = 0): Promise<EventWatch> {
    return this.startEventWatcher((e) =>
      logger.info(verbosity, 'Event occurred', [
        'object', kref(e.regarding),
        'kind', e.regarding.kind ?? '',
        'apiVersion', e.regarding.apiVersion ?? '',
        'type', e.type ?? '',
        'reason', e.reason ?? '',
        'action', e.action ?? '',
        'note', e.note ?? '',
      ]),
    );
  }

  /** StartStructuredLogging: startLogging at a verbosity, to this broadcaster's logger. */
  startStructuredLogging(verbosity: number): Promise<EventWatch> {
    return this.startLogging(this.logger, verbosity);
  }

  /**
   * StartRecordingToSinkWithContext: the refresh and finish loops (each runs at once, then
   * waits its period after it ends) and the sink's watcher, until the signal aborts.
   */
  async startRecordingToSink(signal: AbortSignal): Promise<EventWatch> {
    const options: RetryOptions = { ...this.retry, signal };
    void this.until(() => this.refreshExistingEventSeries(), REFRESH_TIME_MS, signal);
    void this.until(() => this.finishSeries(), FINISH_TIME_MS, signal);
    const watch = await this.startEventWatcher((e) => this.recordToSink(e, options));
    signal.addEventListener('abort', () => void watch.stop(), { once: true });
    return watch;
  }

  /** Resolves once no write is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Stops taking events and closes every watcher; writes in flight go on until their signal aborts. */
  shutdown(): Promise<void> {
    return this.broadcaster.shutdown();
  }

  /**
   * The cache decides what to write: a first occurrence as it is; a second as the first
   * event with a series of count 2; later ones nothing (the count grows in the cache). What
   * the apiserver answers is not cached: its changes would break the key.
   */
  recordToSink(event: Event, options: RetryOptions): void {
    const copy = deepCopy(event);
    // A pass of refresh or finish holds the cache across its writes: then wait for it, in
    // arrival order (the lock is never taken past someone waiting for it).
    if (this.mu.tryLock()) {
      const toRecord = this.intoCache(copy);
      if (toRecord) this.track(() => attemptRecording(this.sink, toRecord, options));
      return;
    }
    this.track(async () => {
      await this.mu.lock();
      const toRecord = this.intoCache(copy);
      if (toRecord) await attemptRecording(this.sink, toRecord, options);
    });
  }

  /** The cache's part of recordToSink, with the lock held (released here): what to write, if anything. */
  private intoCache(copy: Event): Event | undefined {
    try {
      const key = getKey(copy);
      const cached = this.eventCache.get(key);
      if (cached?.series) {
        cached.series.count++;
        cached.series.lastObservedTime = this.clock.now();
        return undefined;
      }
      if (cached) {
        cached.series = { count: 2, lastObservedTime: this.clock.now() };
        return deepCopy(cached);
      }
      this.eventCache.set(key, copy);
      return deepCopy(copy);
    } finally {
      this.mu.unlock();
    }
  }

  /** Patches every live series once (no retry) and caches what the apiserver answered. */
  async refreshExistingEventSeries(): Promise<void> {
    await this.mu.lock();
    try {
      for (const [key, event] of this.eventCache) {
        if (!event.series) continue;
        const { event: recorded, retry } = await recordEvent(this.sink, event, this.logger);
        if (!retry && recorded) this.eventCache.set(key, fromWire(recorded));
      }
    } finally {
      this.mu.unlock();
    }
  }

  /**
   * Patches each series last observed more than FINISH_TIME ago once more and forgets it
   * (unless the write is to be retried: then at the next pass); forgets lone events that old.
   */
  async finishSeries(): Promise<void> {
    await this.mu.lock();
    try {
      for (const [key, event] of this.eventCache) {
        if (event.series) {
          if (before(event.series.lastObservedTime, this.clock.now() - FINISH_TIME_NS)) {
            if (!(await recordEvent(this.sink, event, this.logger)).retry) this.eventCache.delete(key);
          }
        } else if (before(event.eventTime, this.clock.now() - FINISH_TIME_NS)) {
          this.eventCache.delete(key);
        }
      }
    } finally {
      this.mu.unlock();
    }
  }

  /** wait.UntilWithContext: f at once, then again `periodMs` after each run ends, until the signal aborts. */
  private async until(f: () => Promise<void>, periodMs: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await f();
      if (!(await this.retry.sleep(periodMs, signal))) return;
    }
  }

  private track(write: () => Promise<void>): void {
    const p = write().catch((err: unknown) => this.logger.error(err, 'Observed a panic'));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }
}

/** time.Time.Before; Go's zero time is before every time this port meets. */
function before(t: bigint | null, than: bigint): boolean {
  return t === null || t < than;
}
