// core/v1 Event and ObjectReference as JSON on the wire (k8s.io/api core/v1 types.go).
// Times are strings as the apiserver writes them: metav1.Time in whole seconds,
// metav1.MicroTime with six fractional digits, null for Go's zero time.

export interface ObjectReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface EventSource {
  component?: string;
  host?: string;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string | null;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
}

export interface EventSeries {
  count?: number;
  lastObservedTime?: string;
}

export interface Event {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  involvedObject: ObjectReference;
  reason?: string;
  message?: string;
  source?: EventSource;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  type?: string;
  eventTime?: string | null;
  series?: EventSeries;
  action?: string;
  related?: ObjectReference;
  /** Go's ReportingController; the JSON name is reportingComponent. */
  reportingComponent?: string;
  reportingInstance?: string;
}

/** A shallow copy with its own metadata, as Go's `eventCopy := *event` followed by field writes needs. */
export function copyEvent(e: Event): Event {
  return { ...e, metadata: { ...e.metadata } };
}
