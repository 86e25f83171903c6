// The EventSink of client-go's kubernetes/typed/core/v1/event_expansion.go over our ApiClient:
// create POSTs the event, patch sends a strategic-merge patch, both in the event's own
// namespace (a cluster-wide sink, as client-go's Events("") is).
import type { EventSink } from '../record/recordToSink';
import type { Event } from '../record/types';
import type { ApiClient } from './apiRequest';
import { resourcePath } from './listWatch';

/** The media type client-go's PatchWithEventNamespace sends. */
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

function eventsPath(namespace: string | undefined, name?: string): string {
  const base = resourcePath('core/v1', namespace || undefined);
  return name ? `${base}/${encodeURIComponent(name)}` : base;
}

export class ApiserverEventSink implements EventSink {
  constructor(private readonly client: ApiClient) {}

  create(event: Event): Promise<Event> {
    return this.client.request<Event>({ method: 'POST', path: eventsPath(event.metadata.namespace), body: JSON.stringify({ apiVersion: 'v1', kind: 'Event', ...event }) });
  }

  update(event: Event): Promise<Event> {
    return this.client.request<Event>({ method: 'PUT', path: eventsPath(event.metadata.namespace, event.metadata.name), body: JSON.stringify({ apiVersion: 'v1', kind: 'Event', ...event }) });
  }

  patch(event: Event, data: string): Promise<Event> {
    return this.client.request<Event>({ method: 'PATCH', path: eventsPath(event.metadata.namespace, event.metadata.name), body: data, contentType: STRATEGIC_MERGE_PATCH });
  }
}
