// Port of client-go/tools/record/events_cache.go (v0.34): the EventCorrelator with its
// aggregator, its logger (counting and the patch) and its spam filter.
import { randomInt } from 'node:crypto';
import { formatTime, NANOS_PER_SECOND, RealClock, type PassiveClock } from './clock';
import { goJsonString } from './goJson';
import { joined, type JoinedKey } from './joinedKey';
import { Lru } from './lru';
import { TokenBucketPassiveRateLimiter } from './tokenBucket';
import { copyEvent, type Event } from './types';

/** Entries in each of the three LRU caches (spam, aggregate, logger). */
export const MAX_LRU_CACHE_ENTRIES = 4096;
/** Distinct messages in a group before they are aggregated into one event. */
export const DEFAULT_AGGREGATE_MAX_EVENTS = 10;
/** Seconds without a similar event after which a group starts afresh. */
export const DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS = 600;
/** Events a source may send about one object at once. */
export const DEFAULT_SPAM_BURST = 25;
/** The rate the spam bucket refills at: one event every 5 minutes, as a float32 as in Go. */
export const DEFAULT_SPAM_QPS = Math.fround(1 / 300);
/** The prefix of an aggregated event's message. */
export const AGGREGATE_MESSAGE_PREFIX = '(combined from similar events): ';

/** getEventKey's fields: the caches take them unjoined (joinedKey.ts). */
function eventKeyFields(e: Event): JoinedKey {
  const o = e.involvedObject;
  const s = e.source;
  return [s?.component, s?.host, o.kind, o.namespace, o.name, o.fieldPath, o.uid, o.apiVersion, e.type, e.reason, e.message];
}

/** The key of events that are the same to the letter (every field but name, time and count). */
export function getEventKey(e: Event): string {
  return joined(eventKeyFields(e));
}

/** getSpamKey's fields. */
function spamKeyFields(e: Event): JoinedKey {
  const o = e.involvedObject;
  const s = e.source;
  return [s?.component, s?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type];
}

/** The spam filter's key: source, object and type (no field path, reason or message). */
export function getSpamKey(e: Event): string {
  return joined(spamKeyFields(e));
}

/** Go's func(*v1.Event) string; a key may also be given as the fields it joins. */
export type EventSpamKeyFunc = (e: Event) => JoinedKey;
/**
 * Returns [aggregateKey, localKey]: events with one aggregateKey and distinct localKeys are
 * similar. The aggregate key may be given as the fields it joins.
 */
export type EventAggregatorKeyFunc = (e: Event) => [JoinedKey, string];
export type EventAggregatorMessageFunc = (e: Event) => string;
/** Chooses which local key an aggregate group forgets once it is full (Go's sets.String PopAny). */
export type ForgetChooser = (localKeys: ReadonlySet<string>) => string;

/** eventAggregatorByReasonFunc with the aggregate key as its fields, unjoined: the default. */
function aggregateByReasonFields(e: Event): [JoinedKey, string] {
  const o = e.involvedObject;
  const s = e.source;
  return [[s?.component, s?.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type, e.reason, e.reportingComponent, e.reportingInstance], e.message ?? ''];
}

/** Similar = same source, object, type, reason and reporting controller and instance; the message tells them apart. */
export function eventAggregatorByReasonFunc(e: Event): [string, string] {
  const [aggregateKey, localKey] = aggregateByReasonFields(e);
  return [joined(aggregateKey), localKey];
}

export function eventAggregatorByReasonMessageFunc(e: Event): string {
  return AGGREGATE_MESSAGE_PREFIX + (e.message ?? '');
}

/** Go's PopAny picks whatever map iteration yields first: uniformly, as far as callers can tell. */
export function randomForgetChooser(random: () => number = () => randomInt(2 ** 32) / 2 ** 32): ForgetChooser {
  return (keys) => {
    const all = [...keys];
    return all[Math.min(all.length - 1, Math.floor(random() * all.length))];
  };
}

/** Filters events from one source about one object that come faster than the bucket allows. */
export class EventSourceObjectSpamFilter {
  /** Go keeps a spamRecord holding the limiter; here the limiter is the record. */
  private readonly cache: Lru<TokenBucketPassiveRateLimiter>;

  constructor(
    lruCacheSize: number,
    private readonly burst: number,
    private readonly qps: number,
    private readonly clock: PassiveClock,
    private readonly spamKeyFunc: EventSpamKeyFunc,
  ) {
    this.cache = new Lru(lruCacheSize);
  }

  /** True: drop this event. Reads the clock once. */
  filter(e: Event): boolean {
    const key = this.spamKeyFunc(e);
    let limiter = this.cache.get(key);
    if (limiter === undefined) {
      limiter = new TokenBucketPassiveRateLimiter(this.qps, this.burst, this.clock);
      this.cache.add(key, limiter);
    }
    // Go adds the record back after tryAccept; the get above already made it the most recent.
    return !limiter.tryAccept();
  }
}

interface AggregateRecord {
  /**
   * The local keys seen in the window: one key as a string (most groups never see a
   * second, and a Set per group cost more than the rest of the record), more as a Set,
   * shared with the cache entry: forgetting a key changes the cached set, as in Go.
   */
  localKeys: string | Set<string>;
  lastTimestamp: bigint;
}

/** Turns the 10th distinct message of a group within the window into one "(combined from similar events)" event. */
export class EventAggregator {
  private readonly cache: Lru<AggregateRecord>;
  private readonly maxIntervalNanos: bigint;

  constructor(
    lruCacheSize: number,
    private readonly keyFunc: EventAggregatorKeyFunc,
    private readonly messageFunc: EventAggregatorMessageFunc,
    private readonly maxEvents: number,
    maxIntervalInSeconds: number,
    private readonly clock: PassiveClock,
    private readonly chooseForgotten: ForgetChooser,
  ) {
    this.cache = new Lru(lruCacheSize);
    this.maxIntervalNanos = BigInt(maxIntervalInSeconds) * NANOS_PER_SECOND;
  }

  /** The event to send (maybe an aggregate) and the key it is counted under. Reads the clock once. */
  eventAggregate(newEvent: Event): { event: Event; key: JoinedKey } {
    const now = this.clock.now();
    const eventKey = eventKeyFields(newEvent);
    const [aggregateKey, localKey] = this.keyFunc(newEvent);
    let record = this.cache.get(aggregateKey);
    // A record never seen has Go's zero time: its interval is always "too old".
    if (record === undefined || now - record.lastTimestamp > this.maxIntervalNanos) {
      record = { localKeys: localKey, lastTimestamp: now };
      this.cache.add(aggregateKey, record);
    } else {
      // Go adds the record back here; the get above already made it the most recent.
      const keys = record.localKeys;
      if (typeof keys !== 'string') keys.add(localKey);
      else if (keys !== localKey) record.localKeys = new Set([keys, localKey]);
      record.lastTimestamp = now;
    }
    if ((typeof record.localKeys === 'string' ? 1 : record.localKeys.size) < this.maxEvents) return { event: newEvent, key: eventKey };

    // Keep the group at maxEvents - 1 keys; which one goes is Go's random choice.
    const keys = typeof record.localKeys === 'string' ? (record.localKeys = new Set([record.localKeys])) : record.localKeys;
    keys.delete(this.chooseForgotten(keys));
    const at = formatTime(now);
    const aggregate: Event = {
      metadata: { name: `${newEvent.involvedObject.name ?? ''}.${now.toString(16)}`, namespace: newEvent.metadata.namespace },
      count: 1,
      firstTimestamp: at,
      involvedObject: newEvent.involvedObject,
      lastTimestamp: at,
      message: this.messageFunc(newEvent),
      type: newEvent.type,
      reason: newEvent.reason,
      source: newEvent.source,
    };
    return { event: aggregate, key: aggregateKey };
  }

  /** The local keys of a group, without touching recency (for conformance checks). */
  peekLocalKeys(aggregateKey: JoinedKey): ReadonlySet<string> | undefined {
    const keys = this.cache.peek(aggregateKey)?.localKeys;
    return typeof keys === 'string' ? new Set([keys]) : keys;
  }
}

/** Updated in place: Go adds a new value, but the get before it already made it the most recent. */
interface EventLog {
  count: number;
  firstTimestamp: string | null | undefined;
  name: string | undefined;
  resourceVersion: string | undefined;
}

/**
 * The strategic-merge patch client-go sends for a repeat: CreateTwoWayMergePatch between the
 * event with count 0, lastTimestamp 1970-01-01T00:00:00Z and no message, and the event
 * itself. Only those three fields differ, so the patch holds just them, keys sorted.
 */
export function repeatPatch(e: Event): string {
  const fields: string[] = [];
  if ((e.count ?? 0) !== 0) fields.push(`"count":${e.count}`);
  const last = e.lastTimestamp ?? null;
  if (last !== '1970-01-01T00:00:00Z') fields.push(`"lastTimestamp":${last === null ? 'null' : goJsonString(last)}`);
  if (e.message) fields.push(`"message":${goJsonString(e.message)}`);
  return `{${fields.join(',')}}`;
}

/** Counts occurrences of each event and prepares the patch for a repeat. */
export class EventLogger {
  private readonly cache: Lru<EventLog>;

  constructor(lruCacheEntries: number) {
    this.cache = new Lru(lruCacheEntries);
  }

  eventObserve(newEvent: Event, key: JoinedKey): { event: Event; patch: string | undefined } {
    const event = copyEvent(newEvent);
    const last = this.cache.get(key);
    let patch: string | undefined;
    if (last && last.count > 0) {
      event.metadata.name = last.name;
      event.metadata.resourceVersion = last.resourceVersion;
      event.firstTimestamp = last.firstTimestamp;
      event.count = last.count + 1;
      patch = repeatPatch(event);
    }
    this.remember(last, key, event);
    return { event, patch };
  }

  /** Learns the server's copy after a successful create or patch; `key` is getEventKey(e) (or its fields) when the caller has it. */
  updateState(e: Event, key: JoinedKey = eventKeyFields(e)): void {
    this.remember(this.cache.get(key), key, e);
  }

  /** Go's cache.Add(key, eventLog{...}): `log` is what get(key) just returned, if anything. */
  private remember(log: EventLog | undefined, key: JoinedKey, e: Event): void {
    if (log === undefined) {
      this.cache.add(key, { count: e.count ?? 0, firstTimestamp: e.firstTimestamp, name: e.metadata.name, resourceVersion: e.metadata.resourceVersion });
      return;
    }
    log.count = e.count ?? 0;
    log.firstTimestamp = e.firstTimestamp;
    log.name = e.metadata.name;
    log.resourceVersion = e.metadata.resourceVersion;
  }
}

/** CorrelatorOptions: zero or missing values take the defaults, as in Go. */
export interface CorrelatorOptions {
  lruCacheSize?: number;
  burstSize?: number;
  qps?: number;
  keyFunc?: EventAggregatorKeyFunc;
  messageFunc?: EventAggregatorMessageFunc;
  maxEvents?: number;
  maxIntervalInSeconds?: number;
  clock?: PassiveClock;
  spamKeyFunc?: EventSpamKeyFunc;
  /** Which message a full aggregate group forgets; random by default, as Go's PopAny. */
  chooseForgotten?: ForgetChooser;
}

type Required<T> = { [K in keyof T]-?: T[K] };

export function populateDefaults(o: CorrelatorOptions): Required<CorrelatorOptions> {
  return {
    lruCacheSize: o.lruCacheSize || MAX_LRU_CACHE_ENTRIES,
    burstSize: o.burstSize || DEFAULT_SPAM_BURST,
    qps: o.qps || DEFAULT_SPAM_QPS,
    keyFunc: o.keyFunc ?? aggregateByReasonFields,
    messageFunc: o.messageFunc ?? eventAggregatorByReasonMessageFunc,
    maxEvents: o.maxEvents || DEFAULT_AGGREGATE_MAX_EVENTS,
    maxIntervalInSeconds: o.maxIntervalInSeconds || DEFAULT_AGGREGATE_INTERVAL_IN_SECONDS,
    clock: o.clock ?? new RealClock(),
    spamKeyFunc: o.spamKeyFunc ?? spamKeyFields,
    chooseForgotten: o.chooseForgotten ?? randomForgetChooser(),
  };
}

/** What the correlator decided: skip it, or send `event` (patching with `patch` when count > 1). */
export type EventCorrelateResult = { readonly skip: true } | { readonly skip: false; readonly event: Event; readonly patch: string | undefined };

/** Aggregates, counts and filters events before they reach a sink: aggregate → observe → filter. */
export class EventCorrelator {
  readonly aggregator: EventAggregator;
  private readonly logger: EventLogger;
  private readonly spamFilter: EventSourceObjectSpamFilter;
  /** Events the spam filter skipped: client-go drops them silently; we count them. */
  skipped = 0;
  /**
   * The last event sent and its getEventKey: updateState usually gets the server's copy of
   * it, whose key fields are the same strings, so the key need not be built again.
   */
  private lastSent: { readonly event: Event; readonly key: JoinedKey } | undefined;

  constructor(options: CorrelatorOptions = {}) {
    const o = populateDefaults(options);
    this.aggregator = new EventAggregator(o.lruCacheSize, o.keyFunc, o.messageFunc, o.maxEvents, o.maxIntervalInSeconds, o.clock, o.chooseForgotten);
    this.logger = new EventLogger(o.lruCacheSize);
    this.spamFilter = new EventSourceObjectSpamFilter(o.lruCacheSize, o.burstSize, o.qps, o.clock, o.spamKeyFunc);
  }

  eventCorrelate(newEvent: Event | null | undefined): EventCorrelateResult {
    if (!newEvent) throw new Error('event is nil');
    const { event: aggregate, key } = this.aggregator.eventAggregate(newEvent);
    const { event, patch } = this.logger.eventObserve(aggregate, key);
    if (this.spamFilter.filter(event)) {
      this.skipped++;
      return { skip: true };
    }
    // Not aggregated: key is getEventKey(newEvent), which the logger's copy shares (it
    // changes only name, resourceVersion, firstTimestamp and count).
    this.lastSent = aggregate === newEvent ? { event, key } : undefined;
    return { skip: false, event, patch };
  }

  updateState(e: Event): void {
    const sent = this.lastSent;
    this.logger.updateState(e, sent !== undefined && sameEventKeyFields(e, sent.event) ? sent.key : eventKeyFields(e));
  }
}

/** Whether getEventKey(a) === getEventKey(b) because every field it joins is the same. */
function sameEventKeyFields(a: Event, b: Event): boolean {
  const ao = a.involvedObject;
  const bo = b.involvedObject;
  return (
    a.message === b.message &&
    a.reason === b.reason &&
    a.type === b.type &&
    a.source?.component === b.source?.component &&
    a.source?.host === b.source?.host &&
    ao.kind === bo.kind &&
    ao.namespace === bo.namespace &&
    ao.name === bo.name &&
    ao.fieldPath === bo.fieldPath &&
    ao.uid === bo.uid &&
    ao.apiVersion === bo.apiVersion
  );
}
