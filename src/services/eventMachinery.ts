// The event machinery of this window, for each events API: a broadcaster whose watchers are
// the store (so recorded events show, written exactly as client-go would write them), the
// log, and the apiserver sink while it is on; one recorder each for the events the user
// records. core/v1 goes through tools/record's port (correlator, counts), events.k8s.io/v1
// through tools/events' (series).
import * as os from 'node:os';
import { StoreEventSink } from '../cluster/storeSink';
import { StoreEventsV1Sink } from '../cluster/storeEventsV1Sink';
import { EventBroadcaster as EventsV1Broadcaster, type EventWatch as EventsV1Watch } from '../events/eventBroadcaster';
import type { EventRecorder as EventsV1Recorder } from '../events/eventRecorder';
import type { EventSink as EventsV1Sink } from '../events/recordEvent';
import type { EventStore } from '../model/eventStore';
import { EventBroadcaster, type EventRecorder, type EventWatch, type SinkStats } from '../record/event';
import type { CorrelatorOptions } from '../record/eventsCache';
import type { Logger } from '../record/logger';
import type { EventSink } from '../record/recordToSink';

/** The component our events come from. */
export const RECORDER_COMPONENT = 'kubernetes-events-vscode';

/** An events.k8s.io/v1 sink started on its own broadcaster: stop() ends its watcher and its loops. */
export interface EventsV1SinkWatch {
  stop(): Promise<void>;
}

export class EventMachinery {
  readonly broadcaster: EventBroadcaster;
  readonly recorder: EventRecorder;
  /** events.k8s.io/v1: one broadcaster per sink, since tools/events keeps a cache per broadcaster. */
  private readonly v1Store: EventsV1Broadcaster;
  /** The recorder of events.k8s.io/v1 events: what it records goes to every v1 broadcaster. */
  readonly eventsRecorder: EventsV1Recorder;
  private readonly v1Sinks = new Set<{ readonly broadcaster: EventsV1Broadcaster; readonly stop: AbortController }>();
  private readonly started: Promise<void>;

  constructor(store: EventStore, private readonly logger: Logger, correlator: CorrelatorOptions) {
    const broadcaster = new EventBroadcaster({ logger, correlatorOptions: correlator });
    this.broadcaster = broadcaster;
    this.recorder = broadcaster.newRecorder({ component: RECORDER_COMPONENT, host: os.hostname() });
    const v1Store = new EventsV1Broadcaster(new StoreEventsV1Sink(store), { logger });
    this.v1Store = v1Store;
    this.eventsRecorder = v1Store.newRecorder(RECORDER_COMPONENT);
    const storeStop = new AbortController();
    this.v1Sinks.add({ broadcaster: v1Store, stop: storeStop });
    this.started = (async () => {
      await broadcaster.startRecordingToSink(new StoreEventSink(store));
      await broadcaster.startStructuredLogging(0);
      await v1Store.startRecordingToSink(storeStop.signal);
      await v1Store.startStructuredLogging(0);
      // Every event the v1 recorder queues reaches the other v1 broadcasters too (the apiserver's).
      await v1Store.startEventWatcher((e) => {
        for (const s of this.v1Sinks) if (s.broadcaster !== v1Store) void s.broadcaster.broadcaster.action('ADDED', e);
      });
    })();
  }

  /** Resolves once the store and the log receive recorded events. */
  ready(): Promise<void> {
    return this.started;
  }

  /** A further sink (the apiserver), through client-go's correlator and retry rules. */
  async addSink(sink: EventSink): Promise<EventWatch & { readonly stats: SinkStats }> {
    await this.started;
    return this.broadcaster.startRecordingToSink(sink);
  }

  /**
   * A further events.k8s.io/v1 sink (the apiserver), through tools/events' series and retry
   * rules, with a cache of its own as client-go's broadcaster per sink has.
   */
  async addEventsV1Sink(sink: EventsV1Sink): Promise<EventsV1SinkWatch> {
    await this.started;
    const broadcaster = new EventsV1Broadcaster(sink, { logger: this.logger });
    const entry = { broadcaster, stop: new AbortController() };
    const watch: EventsV1Watch = await broadcaster.startRecordingToSink(entry.stop.signal);
    this.v1Sinks.add(entry);
    return {
      stop: async () => {
        this.v1Sinks.delete(entry);
        entry.stop.abort();
        await broadcaster.shutdown();
        await watch.done;
      },
    };
  }

  /** Flush: everything queued gets its write attempt before the window goes. */
  async shutdown(): Promise<void> {
    await this.started.catch(() => undefined);
    await this.broadcaster.shutdown();
    // The v1 store's broadcaster first: it hands each event on to the others.
    const all = [...this.v1Sinks];
    const sinks = [...all.filter((s) => s.broadcaster === this.v1Store), ...all.filter((s) => s.broadcaster !== this.v1Store)];
    for (const s of sinks) {
      await s.broadcaster.shutdown();
      // Each write in flight has had its first attempt; no waits for retries.
      s.stop.abort();
      await s.broadcaster.idle();
    }
  }
}
