// Port of client-go/tools/record/event.go (v0.34): the EventBroadcaster, its watchers
// (handlers, logging, sinks through the correlator with client-go's retry rules) and the
// EventRecorder.
//
// Where Go leaves a choice to its scheduler we make a fixed one, inside what Go allows:
// a watcher drains the events already queued for it when the broadcaster shuts down
// (each gets one write attempt, no retries), and shutdown() resolves only after every
// watcher has done so, which makes it a flush.
import { randomInt } from 'node:crypto';
import { formatTime, RealClock, type PassiveClock } from './clock';
import { EventCorrelator, type CorrelatorOptions } from './eventsCache';
import { describeEvent, recordToSink, type EventSink } from './recordToSink';
import { goSyntaxObjectReference, sprintf } from './goFormat';
import { discardLogger, type Logger } from './logger';
import { getReference, type KubernetesObject } from './reference';
import type { Event, EventSource, ObjectReference } from './types';
import { generateEventName, validateEventType } from './util';
import { Broadcaster, FullChannelBehavior, type WatchInterface } from './watch/mux';

/** Wait between write attempts (the first one is a random part of it). */
export const DEFAULT_SLEEP_DURATION_MS = 10_000;
/** Events the broadcaster queues, and each watcher queues, before dropping. */
export const MAX_QUEUED_EVENTS = 1000;
/** The namespace of an event about a cluster-scoped object. */
export const NAMESPACE_DEFAULT = 'default';

export interface EventBroadcasterOptions {
  /** WithSleepDuration: the wait between write attempts. */
  sleepDurationMs?: number;
  /** WithCorrelatorOptions: used by every sink started later. */
  correlatorOptions?: CorrelatorOptions;
  /** WithContext: aborting it shuts the broadcaster down. */
  signal?: AbortSignal;
  /** The context's logger: structured logging and sink errors go here. */
  logger?: Logger;
  /** Uniform in [0, 1): the jitter of the first retry. */
  random?: () => number;
}

/** Why the recorder dropped events, counted (client-go only logs them). */
export interface DroppedEvents {
  /** The broadcaster's queue held MAX_QUEUED_EVENTS. */
  queueFull: number;
  /** Recorded after shutdown. */
  afterShutdown: number;
  /** A type other than Normal or Warning. */
  invalidType: number;
  /** An object without kind, apiVersion or name. */
  invalidReference: number;
}

/** What one sink did with the events it got. */
export interface SinkStats {
  created: number;
  patched: number;
  /** Skipped by the spam filter. */
  skipped: number;
  /** Given up: the apiserver rejected it, the retry limit was reached, or shutdown came first. */
  failed: number;
  /** Lost because this sink's own queue was full while it was busy writing. */
  droppedQueueFull: number;
}

/** A started watcher: stop it, wait for it, read what it dropped. */
export interface EventWatch {
  stop(): Promise<void>;
  /** Resolves when the watcher has handled its last event. */
  readonly done: Promise<void>;
  /** Events this watcher lost because its queue was full. */
  readonly dropped: number;
}

/** A watch that is already over: what starting a watcher returns after shutdown. */
const emptyWatch: EventWatch = { stop: async () => undefined, done: Promise.resolve(), dropped: 0 };

/** klog.KRef(namespace, name).String(). */
function kref(ref: ObjectReference): string {
  return ref.namespace ? `${ref.namespace}/${ref.name ?? ''}` : (ref.name ?? '');
}

export class EventBroadcaster {
  readonly broadcaster: Broadcaster<Event>;
  readonly dropped: DroppedEvents = { queueFull: 0, afterShutdown: 0, invalidType: 0, invalidReference: 0 };
  private readonly sleepDurationMs: number;
  private readonly correlatorOptions: CorrelatorOptions;
  private readonly cancel = new AbortController();
  private readonly logger: Logger;
  private readonly random: () => number;
  private readonly watchers = new Set<Promise<void>>();
  private shutdownDone: Promise<void> | undefined;

  constructor(options: EventBroadcasterOptions = {}) {
    this.broadcaster = Broadcaster.newLongQueueBroadcaster<Event>(MAX_QUEUED_EVENTS, FullChannelBehavior.DropIfChannelFull);
    this.sleepDurationMs = options.sleepDurationMs ?? DEFAULT_SLEEP_DURATION_MS;
    this.correlatorOptions = options.correlatorOptions ?? {};
    this.logger = options.logger ?? discardLogger;
    this.random = options.random ?? (() => randomInt(2 ** 32) / 2 ** 32);
    const signal = options.signal;
    if (signal) {
      if (signal.aborted) void this.shutdown();
      else signal.addEventListener('abort', () => void this.shutdown(), { once: true });
    }
  }

  /** NewRecorder: events from `source`, through this broadcaster. */
  newRecorder(source: EventSource, options: { clock?: PassiveClock; logger?: Logger } = {}): EventRecorder {
    return new EventRecorder(this, source, options.clock ?? new RealClock(), options.logger ?? this.logger);
  }

  /** Calls handler with every event recorded from now on, in order, one at a time. */
  async startEventWatcher(handler: (e: Event) => void | Promise<void>): Promise<EventWatch> {
    let w: WatchInterface<Event>;
    try {
      w = await this.broadcaster.watch();
    } catch (err) {
      this.logger.error(err, 'Unable start event watcher (will not retry!)');
      return emptyWatch;
    }
    const done = (async () => {
      for await (const { object } of w) {
        try {
          await handler(object);
        } catch (err) {
          this.logger.error(err, 'Event handler failed', ['event', describeEvent(object)]);
        }
      }
    })();
    this.watchers.add(done);
    void done.finally(() => this.watchers.delete(done));
    return {
      stop: () => w.stop(),
      done,
      get dropped() {
        return (w as { dropped?: number }).dropped ?? 0;
      },
    };
  }

  /** StartLogging: logf gets `Event(v1.ObjectReference{...}): type: 'T' reason: 'R' message`. */
  startLogging(logf: (line: string) => void): Promise<EventWatch> {
    return this.startEventWatcher((e) => logf(`Event(${goSyntaxObjectReference(e.involvedObject)}): type: '${e.type ?? ''}' reason: '${e.reason ?? ''}' ${e.message ?? ''}`));
  }

  /** StartStructuredLogging: "Event occurred" with object, fieldPath, kind, apiVersion, type, reason, message. */
  startStructuredLogging(verbosity: number, logger: Logger = this.logger): Promise<EventWatch> {
    return this.startEventWatcher((e) =>
      logger.info(verbosity, 'Event occurred', [
        'object', kref(e.involvedObject),
        'fieldPath', e.involvedObject.fieldPath ?? '',
        'kind', e.involvedObject.kind ?? '',
        'apiVersion', e.involvedObject.apiVersion ?? '',
        'type', e.type ?? '',
        'reason', e.reason ?? '',
        'message', e.message ?? '',
      ]),
    );
  }

  /** StartRecordingToSink: a correlator of its own, then create, patch and retry as client-go does. */
  async startRecordingToSink(sink: EventSink): Promise<EventWatch & { readonly stats: SinkStats; readonly correlator: EventCorrelator }> {
    const correlator = new EventCorrelator(this.correlatorOptions);
    const stats: SinkStats = { created: 0, patched: 0, skipped: 0, failed: 0, droppedQueueFull: 0 };
    const options = { sleepDurationMs: this.sleepDurationMs, signal: this.cancel.signal, logger: this.logger, random: this.random };
    const watch = await this.startEventWatcher(async (e) => {
      const outcome = await recordToSink(sink, e, correlator, options);
      if (outcome !== 'skipped') stats[outcome]++;
    });
    return {
      stop: () => watch.stop(),
      done: watch.done,
      get dropped() {
        return watch.dropped;
      },
      get stats() {
        return { ...stats, skipped: correlator.skipped, droppedQueueFull: watch.dropped };
      },
      correlator,
    };
  }

  /** Delivers what is queued, closes every watcher, and resolves once each has handled its last event. */
  shutdown(): Promise<void> {
    this.shutdownDone ??= (async () => {
      await this.broadcaster.shutdown();
      this.cancel.abort();
      await Promise.all([...this.watchers]);
    })();
    return this.shutdownDone;
  }

  get isShutDown(): boolean {
    return this.shutdownDone !== undefined;
  }
}

/** Records events about objects: event, eventf and annotatedEventf never throw; each resolves true when queued. */
export class EventRecorder {
  constructor(
    private readonly owner: EventBroadcaster,
    private readonly source: EventSource,
    private readonly clock: PassiveClock,
    private readonly logger: Logger,
  ) {}

  /** A recorder that logs to `logger` and shares everything else with this one. */
  withLogger(logger: Logger): EventRecorder {
    return new EventRecorder(this.owner, this.source, this.clock, logger);
  }

  /** The message is used as it is. */
  event(object: KubernetesObject | ObjectReference, eventType: string, reason: string, message: string): Promise<boolean> {
    return this.generateEvent(object, undefined, eventType, reason, message);
  }

  /** The message is Go's fmt.Sprintf(format, args...). */
  eventf(object: KubernetesObject | ObjectReference, eventType: string, reason: string, format: string, ...args: unknown[]): Promise<boolean> {
    return this.generateEvent(object, undefined, eventType, reason, sprintf(format, ...args));
  }

  /** Like eventf, with annotations on the event. */
  annotatedEventf(object: KubernetesObject | ObjectReference, annotations: Record<string, string> | undefined, eventType: string, reason: string, format: string, ...args: unknown[]): Promise<boolean> {
    return this.generateEvent(object, annotations, eventType, reason, sprintf(format, ...args));
  }

  private generateEvent(object: KubernetesObject | ObjectReference, annotations: Record<string, string> | undefined, eventType: string, reason: string, message: string): Promise<boolean> {
    let ref: ObjectReference;
    try {
      ref = getReference(object);
    } catch (err) {
      this.owner.dropped.invalidReference++;
      this.logger.error(err, 'Could not construct reference, will not report event', ['eventType', eventType, 'reason', reason, 'message', message]);
      return Promise.resolve(false);
    }
    if (!validateEventType(eventType)) {
      this.owner.dropped.invalidType++;
      this.logger.error(new Error(`unsupported event type: ${JSON.stringify(eventType)}; use Normal or Warning`), 'Unsupported event type', ['eventType', eventType, 'object', kref(ref), 'reason', reason]);
      return Promise.resolve(false);
    }
    const event = this.makeEvent(ref, annotations, eventType, reason, message);
    event.source = { ...this.source };
    event.reportingInstance = this.source.host ?? '';
    event.reportingComponent = this.source.component ?? '';
    return this.owner.broadcaster.actionOrDrop('ADDED', event).then(
      (sent) => {
        if (!sent) {
          this.owner.dropped.queueFull++;
          this.logger.error(undefined, 'Unable to record event: too many queued events, dropped event', ['event', describeEvent(event)]);
        }
        return sent;
      },
      (err: unknown) => {
        this.owner.dropped.afterShutdown++;
        this.logger.error(err, 'Unable to record event (will not retry!)', ['event', describeEvent(event)]);
        return false;
      },
    );
  }

  private makeEvent(ref: ObjectReference, annotations: Record<string, string> | undefined, eventType: string, reason: string, message: string): Event {
    const t = this.clock.now();
    const at = formatTime(t);
    const metadata: Event['metadata'] = { name: generateEventName(ref.name ?? '', t), namespace: ref.namespace || NAMESPACE_DEFAULT };
    if (annotations) metadata.annotations = annotations;
    return { metadata, involvedObject: { ...ref }, reason, message, firstTimestamp: at, lastTimestamp: at, count: 1, type: eventType };
  }
}

