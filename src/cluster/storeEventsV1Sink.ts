// The events.k8s.io/v1 twin of StoreEventSink: events recorded here through the tools/events
// port are written into the EventStore as that port writes them to the apiserver (a series
// patched in when it recurs, its later occurrences counted in the port's cache until a
// refresh or finish writes them), so the view shows what the cluster would have.
import type { EventSink } from '../events/recordEvent';
import type { WireEvent } from '../events/types';
import type { EventStore } from '../model/eventStore';
import { normalizeEvent, type RawEvent } from './normalize';

export class StoreEventsV1Sink implements EventSink {
  private readonly written = new Map<string, WireEvent>();
  private version = 0;

  constructor(private readonly store: EventStore) {}

  private write(e: WireEvent): WireEvent {
    const stored: WireEvent = { ...e, metadata: { ...e.metadata, resourceVersion: String(++this.version) } };
    this.written.set(`${e.metadata.namespace}/${e.metadata.name}`, stored);
    this.store.batchUntilNextTurn();
    // Read as the apiserver's events.k8s.io/v1 answers are, kept apart as recorded here.
    this.store.upsert({ ...normalizeEvent(stored as RawEvent, 'events.k8s.io/v1'), origin: 'local' });
    return stored;
  }

  async create(e: WireEvent): Promise<WireEvent> {
    return this.write(e);
  }

  async update(e: WireEvent): Promise<WireEvent> {
    return this.write(e);
  }

  /** Applies the series patch to what was written before. */
  async patch(e: WireEvent, data: string): Promise<WireEvent> {
    const previous = this.written.get(`${e.metadata.namespace}/${e.metadata.name}`) ?? e;
    return this.write({ ...previous, ...(JSON.parse(data) as Partial<WireEvent>) });
  }
}
