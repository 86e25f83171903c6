// Port of getKey and eventKey of client-go/tools/events/event_broadcaster.go (v0.37.2): what
// makes two events isomorphic. The note is not in it: events that differ only in their
// note make one series, which keeps the first event's note and name.
import type { ObjectReference } from '../record/types';
import type { Event } from './types';

/** ObjectReference's seven fields, in the struct's order. */
const REFERENCE_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;

const referenceKey = (r: ObjectReference | undefined): string[] => REFERENCE_FIELDS.map((f) => r?.[f] ?? '');

/**
 * The type, action, reason, reporting controller and instance, then every field of the
 * regarding and of the related reference (a missing related is the zero reference), as
 * Go's struct equality compares them: 19 strings, held as one JSON array.
 */
export function getKey(e: Event): string {
  return JSON.stringify([e.type ?? '', e.action ?? '', e.reason ?? '', e.reportingController ?? '', e.reportingInstance ?? '', ...referenceKey(e.regarding), ...referenceKey(e.related)]);
}
