// An EventSink that writes into the EventStore instead of the apiserver, so events we record
// appear in the view correlated exactly as client-go's sink would write them (counts,
// aggregation, spam filtering), whether or not the apiserver sink is on.
import type { EventStore } from '../model/eventStore';
import type { EventSink } from '../record/recordToSink';
import type { Event } from '../record/types';
import { normalizeEvent, type RawEvent } from './normalize';

export class StoreEventSink implements EventSink {
  private readonly written = new Map<string, Event>();
  private version = 0;

  constructor(private readonly store: EventStore) {}

  private write(e: Event): Event {
    const stored: Event = { ...e, metadata: { ...e.metadata, resourceVersion: String(++this.version) } };
    this.written.set(`${e.metadata.namespace}/${e.metadata.name}`, stored);
    // A burst of recorded events is one change to the views, as a list page is.
    this.store.batchUntilNextTurn();
    this.store.upsert(normalizeEvent(stored as RawEvent, 'local'));
    return stored;
  }

  async create(e: Event): Promise<Event> {
    return this.write(e);
  }

  async update(e: Event): Promise<Event> {
    return this.write(e);
  }

  /** Applies the repeat patch (count, lastTimestamp, message) to what was written before. */
  async patch(e: Event, data: string): Promise<Event> {
    const previous = this.written.get(`${e.metadata.namespace}/${e.metadata.name}`) ?? e;
    return this.write({ ...previous, ...(JSON.parse(data) as Partial<Event>) });
  }
}
