// One event model for core/v1 and events.k8s.io/v1 events, and for events we record
// locally, with the fallbacks kubectl and the conversion between the two APIs need.

/** Where an event came from. */
export type EventOrigin = 'core/v1' | 'events.k8s.io/v1' | 'local';

export interface InvolvedObject {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly apiVersion: string;
  readonly fieldPath: string;
}

export interface ClusterEvent {
  /** metadata.uid, or `local:<namespace>/<name>` for an event not (yet) on the server. */
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  readonly resourceVersion: string;
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  /** series.count, else count, at least 1. */
  readonly count: number;
  /** Milliseconds since the epoch: eventTime, else firstTimestamp (kubectl's first seen). */
  readonly firstSeen: number | undefined;
  /** series.lastObservedTime when there is a series, else lastTimestamp (kubectl's last seen). */
  readonly lastSeen: number | undefined;
  /** metadata.creationTimestamp: orders events that carry no time of their own. */
  readonly created?: number;
  /** source.component, else reportingController. */
  readonly source: string;
  readonly sourceHost: string;
  readonly reportingInstance: string;
  readonly action: string;
  readonly involvedObject: InvolvedObject;
  readonly origin: EventOrigin;
  /** Deleted on the server (TTL or by hand) but kept as history; when it was seen to go. */
  readonly expiredAt?: number;
}

/**
 * The key of the object an event is about: kind, namespace, name and uid, each encoded so
 * the separator cannot occur inside one (the key is also part of tree item ids).
 */
export function objectKey(o: InvolvedObject): string {
  const known = (o as Keyed)[KEY];
  if (known !== undefined) return known;
  const key = `${keyPart(o.kind)}/${keyPart(o.namespace)}/${keyPart(o.name)}/${keyPart(o.uid)}`;
  if (Object.isExtensible(o)) Object.defineProperty(o, KEY, { value: key });
  return key;
}

/**
 * The key already made, kept on the object itself: events about one object share its
 * reference (normalizeEvent), so they share one key string too, made once (encoding four
 * parts costs more than the lookup). Not enumerable, so a spread or JSON leaves it behind.
 * It was a WeakMap: one entry per object, which V8 rehashed whole as it grew (10-15 ms in
 * one upsert at 43,691 and 87,381 objects) and which every full collection walks again.
 */
const KEY = Symbol('objectKey');
type Keyed = InvolvedObject & { readonly [KEY]?: string };

/** A UTF-16 surrogate without its pair (JSON and locally recorded text can carry one). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * encodeURIComponent, except that it throws on a lone surrogate: those are written as
 * %uXXXX, which it never produces, so the key stays one-to-one.
 */
function keyPart(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    let out = '';
    let last = 0;
    for (const m of s.matchAll(LONE_SURROGATE)) {
      out += `${encodeURIComponent(s.slice(last, m.index))}%u${m[0].charCodeAt(0).toString(16).toUpperCase()}`;
      last = m.index + 1;
    }
    return out + encodeURIComponent(s.slice(last));
  }
}

/** Whether the event was produced by aggregation of similar events (client-go's prefix). */
export function isAggregated(e: ClusterEvent): boolean {
  return e.message.startsWith('(combined from similar events): ');
}

/** The time an event sorts by: last seen, else first seen, else its creation, else 0. */
export function sortTime(e: ClusterEvent): number {
  return e.lastSeen ?? e.firstSeen ?? e.created ?? 0;
}
