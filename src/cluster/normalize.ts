// core/v1 and events.k8s.io/v1 events, as JSON from a list or a watch, into the one
// ClusterEvent model: count from series.count or count, times from eventTime/firstTimestamp
// and series.lastObservedTime/lastTimestamp, source from source.component or the reporting
// controller (the fallbacks kubectl describe uses, and what the API conversion needs).
// Times are kubectl's: first seen is eventTime else firstTimestamp, last seen is the series'
// lastObservedTime else lastTimestamp; the creation time is kept apart, for sorting only.
import type { ClusterEvent, EventOrigin, InvolvedObject } from '../model/clusterEvent';

/** An event as either API writes it; only the fields we read. */
export interface RawEvent {
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string; creationTimestamp?: string };
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

function reference(r: RawReference | undefined): InvolvedObject {
  return { kind: intern(r?.kind), namespace: intern(r?.namespace), name: r?.name ?? '', uid: r?.uid ?? '', apiVersion: intern(r?.apiVersion), fieldPath: intern(r?.fieldPath) };
}

export function normalizeEvent(raw: RawEvent, origin: EventOrigin): ClusterEvent {
  const modern = origin === 'events.k8s.io/v1';
  const meta = raw.metadata ?? {};
  const count = raw.series?.count ?? (modern ? raw.deprecatedCount : raw.count) ?? 0;
  const firstTimestamp = modern ? raw.deprecatedFirstTimestamp : raw.firstTimestamp;
  const lastTimestamp = modern ? raw.deprecatedLastTimestamp : raw.lastTimestamp;
  const source = modern ? raw.deprecatedSource : raw.source;
  const eventTime = parseApiTime(raw.eventTime);
  // As `kubectl events` reads them (getInterval): no fallback to the creation time, so an
  // event without timestamps shows <unknown> there and here.
  const first = eventTime ?? parseApiTime(firstTimestamp);
  const last = raw.series ? parseApiTime(raw.series.lastObservedTime) : parseApiTime(lastTimestamp);
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
    created: parseApiTime(meta.creationTimestamp),
    source: intern(source?.component || (modern ? raw.reportingController : raw.reportingComponent)),
    sourceHost: intern(source?.host),
    reportingInstance: intern(raw.reportingInstance),
    action: intern(raw.action),
    involvedObject: reference(modern ? raw.regarding : raw.involvedObject),
    origin,
  };
}
