// The EventSink of client-go's tools/events EventSinkImpl over our ApiClient: create POSTs
// the events.k8s.io/v1 event, patch sends a strategic-merge patch, both in the event's own
// namespace; an event with no namespace is refused before any request, with the error
// client-go gives (not an apiserver answer, so recordEvent retries it, as Go does).
import type { EventSink } from '../events/recordEvent';
import type { WireEvent } from '../events/types';
import type { ApiClient } from './apiRequest';
import { STRATEGIC_MERGE_PATCH } from './eventSink';
import { resourcePath } from './listWatch';

function eventPath(event: WireEvent, verb: 'create' | 'update' | 'patch', named: boolean): string {
  const namespace = event.metadata.namespace;
  if (!namespace) throw new Error(`can't ${verb} an event with empty namespace`);
  const base = resourcePath('events.k8s.io/v1', namespace);
  return named ? `${base}/${encodeURIComponent(event.metadata.name ?? '')}` : base;
}

const body = (event: WireEvent) => JSON.stringify({ apiVersion: 'events.k8s.io/v1', kind: 'Event', ...event });

export class EventsV1Sink implements EventSink {
  constructor(private readonly client: ApiClient) {}

  async create(event: WireEvent): Promise<WireEvent> {
    return this.client.request<WireEvent>({ method: 'POST', path: eventPath(event, 'create', false), body: body(event) });
  }

  async update(event: WireEvent): Promise<WireEvent> {
    return this.client.request<WireEvent>({ method: 'PUT', path: eventPath(event, 'update', true), body: body(event) });
  }

  async patch(event: WireEvent, data: string): Promise<WireEvent> {
    return this.client.request<WireEvent>({ method: 'PATCH', path: eventPath(event, 'patch', true), body: data, contentType: STRATEGIC_MERGE_PATCH });
  }
}
