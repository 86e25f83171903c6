// events.k8s.io/v1 Event (k8s.io/api events/v1 types.go), as client-go's tools/events holds
// it in memory and as it goes on the wire. In memory, times are nanoseconds (Go keeps them so,
// and finishSeries compares them so); on the wire, MicroTime has six fractional digits and
// Go's zero time is null (metav1.MicroTime's MarshalJSON).
import { formatMicroTime, formatTime, parseTime } from '../record/clock';
import type { EventSource, ObjectMeta, ObjectReference } from '../record/types';

/** metav1.MicroTime or metav1.Time in memory: nanoseconds since the Unix epoch; null is Go's zero time. */
export type Nanos = bigint | null;

/** EventSeries: how often an isomorphic event recurred, and when it was last seen. */
export interface EventSeries {
  count: number;
  lastObservedTime: Nanos;
}

/** eventsv1.Event in memory. */
export interface Event {
  metadata: ObjectMeta;
  eventTime: Nanos;
  series?: EventSeries;
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: string;
  deprecatedSource?: EventSource;
  deprecatedFirstTimestamp?: Nanos;
  deprecatedLastTimestamp?: Nanos;
  deprecatedCount?: number;
}

/** eventsv1.Event as JSON: what a sink sends and the apiserver answers. */
export interface WireEvent {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  eventTime: string | null;
  series?: { count?: number; lastObservedTime?: string | null };
  reportingController?: string;
  reportingInstance?: string;
  action?: string;
  reason?: string;
  regarding: ObjectReference;
  related?: ObjectReference;
  note?: string;
  type?: string;
  deprecatedSource?: EventSource;
  deprecatedFirstTimestamp?: string | null;
  deprecatedLastTimestamp?: string | null;
  deprecatedCount?: number;
}

/** Event.DeepCopy(). */
export function deepCopy(e: Event): Event {
  const copy: Event = { ...e, metadata: copyMeta(e.metadata), regarding: { ...e.regarding } };
  if (e.series) copy.series = { ...e.series };
  if (e.related) copy.related = { ...e.related };
  if (e.deprecatedSource) copy.deprecatedSource = { ...e.deprecatedSource };
  return copy;
}

function copyMeta(m: ObjectMeta): ObjectMeta {
  const copy: ObjectMeta = { ...m };
  if (m.annotations) copy.annotations = { ...m.annotations };
  if (m.labels) copy.labels = { ...m.labels };
  return copy;
}

const micro = (t: Nanos | undefined): string | null => (t === null || t === undefined ? null : formatMicroTime(t));
const seconds = (t: Nanos | undefined): string | null => (t === null || t === undefined ? null : formatTime(t));
const nanos = (s: string | null | undefined): Nanos => (s ? parseTime(s) : null);

/**
 * The JSON Go's json.Marshal writes for the event, field for field in the struct's order:
 * omitempty fields left out when empty, struct fields (regarding, deprecatedSource and the
 * deprecated times) always written.
 */
export function toWire(e: Event): WireEvent {
  // Built in the struct's field order, which JSON.stringify keeps.
  const w = { metadata: copyMeta(e.metadata), eventTime: micro(e.eventTime) } as WireEvent;
  if (e.series) w.series = { count: e.series.count, lastObservedTime: micro(e.series.lastObservedTime) };
  if (e.reportingController) w.reportingController = e.reportingController;
  if (e.reportingInstance) w.reportingInstance = e.reportingInstance;
  if (e.action) w.action = e.action;
  if (e.reason) w.reason = e.reason;
  w.regarding = { ...e.regarding };
  if (e.related) w.related = { ...e.related };
  if (e.note) w.note = e.note;
  if (e.type) w.type = e.type;
  w.deprecatedSource = { ...e.deprecatedSource };
  w.deprecatedFirstTimestamp = seconds(e.deprecatedFirstTimestamp);
  w.deprecatedLastTimestamp = seconds(e.deprecatedLastTimestamp);
  if (e.deprecatedCount) w.deprecatedCount = e.deprecatedCount;
  return w;
}

/** An event the apiserver answered, in memory (as client-go decodes it). */
export function fromWire(w: WireEvent): Event {
  const e: Event = { metadata: copyMeta(w.metadata ?? {}), eventTime: nanos(w.eventTime), regarding: { ...w.regarding } };
  if (w.series) e.series = { count: w.series.count ?? 0, lastObservedTime: nanos(w.series.lastObservedTime) };
  for (const k of ['reportingController', 'reportingInstance', 'action', 'reason', 'note', 'type'] as const) if (w[k]) e[k] = w[k];
  if (w.related) e.related = { ...w.related };
  if (w.deprecatedSource && Object.keys(w.deprecatedSource).length > 0) e.deprecatedSource = { ...w.deprecatedSource };
  if (w.deprecatedFirstTimestamp) e.deprecatedFirstTimestamp = nanos(w.deprecatedFirstTimestamp);
  if (w.deprecatedLastTimestamp) e.deprecatedLastTimestamp = nanos(w.deprecatedLastTimestamp);
  if (w.deprecatedCount) e.deprecatedCount = w.deprecatedCount;
  return e;
}
