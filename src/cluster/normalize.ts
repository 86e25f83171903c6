// core/v1 and events.k8s.io/v1 events, as JSON from a list or a watch, into the one
// ClusterEvent model: count from series.count or count, times from eventTime/firstTimestamp
// and series.lastObservedTime/lastTimestamp, source from source.component or the reporting
// controller (the fallbacks kubectl describe uses, and what the API conversion needs).
// Times are kubectl's: first seen is eventTime else firstTimestamp, last seen is the series'
// lastObservedTime else lastTimestamp; the creation time is kept apart, for sorting only.
import { holdShape } from '../common/heldShape';
import type { ClusterEvent, EventOrigin, InvolvedObject } from '../model/clusterEvent';

/** An event as either API writes it; only the fields we read. */
export interface RawEvent {
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string; creationTimestamp?: string | null };
  // core/v1
  involvedObject?: RawReference;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  count?: number;
  reportingComponent?: string;
  // events.k8s.io/v1
  regarding?: RawReference;
  note?: string;
  deprecatedSource?: { component?: string; host?: string };
  deprecatedFirstTimestamp?: string | null;
  deprecatedLastTimestamp?: string | null;
  deprecatedCount?: number;
  reportingController?: string;
  // both
  type?: string;
  reason?: string;
  action?: string;
  eventTime?: string | null;
  series?: { count?: number; lastObservedTime?: string | null };
  reportingInstance?: string;
}

export interface RawReference {
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiVersion?: string;
  fieldPath?: string;
}

/** Milliseconds of an RFC 3339 time (any fraction); undefined for null, empty or Go's zero time. */
export function parseApiTime(t: string | Date | null | undefined): number | undefined {
  if (t === null || t === undefined || t === '') return undefined;
  const ms = t instanceof Date ? t.getTime() : Date.parse(t);
  if (Number.isNaN(ms) || ms <= -62135596800000) return undefined;
  return ms;
}

/**
 * Times by their text. An event's first, last and creation times are often one text, and
 * events written in one second (a burst, a rollout) carry the same texts: parsed once, they
 * share one number, which the event and its store entry hold by reference (see the
 * event made first, at the end of this file) instead of a boxed copy each.
 */
const TIMES_MAX = 4096;
const times = new Map<string, number>();
function sharedTime(t: string | null | undefined): number | undefined {
  if (!t) return undefined;
  const known = times.get(t);
  if (known !== undefined) return known;
  const ms = parseApiTime(t);
  if (ms === undefined) return undefined;
  if (times.size >= TIMES_MAX) times.clear();
  times.set(t, ms);
  return ms;
}

/** Strings that repeat across events (kinds, namespaces, reasons...) are kept once. */
const INTERNED_MAX = 50_000;
const interned = new Map<string, string>();
function intern(s: string | undefined): string {
  if (!s) return '';
  const known = interned.get(s);
  if (known !== undefined) return known;
  if (interned.size >= INTERNED_MAX) interned.clear();
  interned.set(s, s);
  return s;
}

/**
 * References that repeat (every event about one object names it alike) are kept once: the
 * object, its name and uid strings, and its key (objectKey). A busy object's thousands of
 * events would otherwise each hold a copy. Found by the object's uid (a string the raw event
 * already holds: no key is built), then compared field by field (one object can be named
 * with several field paths, one per container).
 */
const REFERENCES_MAX = 50_000;
/** References kept for one uid (its field paths: a few containers); past that, not shared. */
const VARIANTS_MAX = 16;
/** One reference, or the several an object is named with (field paths), by uid (else name). */
const references = new Map<string, InvolvedObject | InvolvedObject[]>();

function sameReference(a: InvolvedObject, kind: string, namespace: string, name: string, uid: string, apiVersion: string, fieldPath: string): boolean {
  return a.uid === uid && a.name === name && a.kind === kind && a.namespace === namespace && a.apiVersion === apiVersion && a.fieldPath === fieldPath;
}

function reference(r: RawReference | undefined): InvolvedObject {
  const kind = r?.kind ?? '';
  const namespace = r?.namespace ?? '';
  const name = r?.name ?? '';
  const uid = r?.uid ?? '';
  const apiVersion = r?.apiVersion ?? '';
  const fieldPath = r?.fieldPath ?? '';
  const id = uid || name;
  const known = references.get(id);
  if (known === undefined) {
    if (references.size >= REFERENCES_MAX) references.clear();
  } else if (!Array.isArray(known)) {
    if (sameReference(known, kind, namespace, name, uid, apiVersion, fieldPath)) return known;
  } else {
    for (const ref of known) if (sameReference(ref, kind, namespace, name, uid, apiVersion, fieldPath)) return ref;
  }
  const made: InvolvedObject = { kind: intern(kind), namespace: intern(namespace), name, uid, apiVersion: intern(apiVersion), fieldPath: intern(fieldPath) };
  if (known === undefined) references.set(id, made);
  else if (Array.isArray(known)) {
    if (known.length < VARIANTS_MAX) known.push(made);
  }
  else references.set(id, [known, made]);
  return made;
}

export function normalizeEvent(raw: RawEvent, origin: EventOrigin): ClusterEvent {
  const modern = origin === 'events.k8s.io/v1';
  const meta = raw.metadata ?? {};
  const count = raw.series?.count ?? (modern ? raw.deprecatedCount : raw.count) ?? 0;
  const firstTimestamp = modern ? raw.deprecatedFirstTimestamp : raw.firstTimestamp;
  const lastTimestamp = modern ? raw.deprecatedLastTimestamp : raw.lastTimestamp;
  const source = modern ? raw.deprecatedSource : raw.source;
  const eventTime = sharedTime(raw.eventTime);
  // As `kubectl events` reads them (getInterval): no fallback to the creation time, so an
  // event without timestamps shows <unknown> there and here.
  const first = eventTime ?? sharedTime(firstTimestamp);
  const last = raw.series ? sharedTime(raw.series.lastObservedTime) : sharedTime(lastTimestamp);
  return {
    uid: meta.uid || `local:${meta.namespace ?? ''}/${meta.name ?? ''}`,
    namespace: intern(meta.namespace),
    name: meta.name ?? '',
    resourceVersion: meta.resourceVersion ?? '',
    type: intern(raw.type),
    reason: intern(raw.reason),
    message: (modern ? raw.note : raw.message) ?? '',
    count: Math.max(1, count),
    firstSeen: first,
    lastSeen: last,
    created: sharedTime(meta.creationTimestamp),
    source: intern(source?.component || (modern ? raw.reportingController : raw.reportingComponent)),
    sourceHost: intern(source?.host),
    reportingInstance: intern(raw.reportingInstance),
    action: intern(raw.action),
    involvedObject: reference(modern ? raw.regarding : raw.involvedObject),
    origin,
  };
}

/**
 * One event made with no times, first, and held (heldShape.ts): V8 then keeps the time fields
 * of every event this function makes as references (a number shared with other events, see
 * sharedTime), where fields that only ever held numbers would each box a copy of their own.
 * Only how the numbers are stored changes.
 */
holdShape(normalizeEvent({}, 'core/v1'));
