// The event machinery of this window: one EventBroadcaster whose watchers are the store (so
// recorded events show, correlated exactly as client-go would write them), the log, and the
// apiserver sink while it is on; one recorder for the events the user records.
import * as os from 'node:os';
import { StoreEventSink } from '../cluster/storeSink';
import type { EventStore } from '../model/eventStore';
import { EventBroadcaster, type EventRecorder, type EventWatch, type SinkStats } from '../record/event';
import type { CorrelatorOptions } from '../record/eventsCache';
import type { Logger } from '../record/logger';
import type { EventSink } from '../record/recordToSink';

/** The component our events come from. */
export const RECORDER_COMPONENT = 'kubernetes-events-vscode';

export class EventMachinery {
  readonly broadcaster: EventBroadcaster;
  readonly recorder: EventRecorder;
  private readonly started: Promise<void>;

  constructor(store: EventStore, logger: Logger, correlator: CorrelatorOptions) {
    const broadcaster = new EventBroadcaster({ logger, correlatorOptions: correlator });
    this.broadcaster = broadcaster;
    this.recorder = broadcaster.newRecorder({ component: RECORDER_COMPONENT, host: os.hostname() });
    this.started = (async () => {
      await broadcaster.startRecordingToSink(new StoreEventSink(store));
      await broadcaster.startStructuredLogging(0);
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

  /** Flush: everything queued gets its write attempt before the window goes. */
  async shutdown(): Promise<void> {
    await this.started.catch(() => undefined);
    await this.broadcaster.shutdown();
  }
}
