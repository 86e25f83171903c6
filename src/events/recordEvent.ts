// Port of recordEvent, attemptRecording and createPatchBytesForSeries of
// client-go/tools/events/event_broadcaster.go (v0.37.2): a new event is created; a series
// is patched, and created (with its series) when the patch finds it gone. Only what is not
// an apiserver answer is retried, up to 12 tries, each wait jittered by up to a quarter;
// AlreadyExists is retried for a series alone.
import { formatMicroTime } from '../record/clock';
import { isAlreadyExists, RequestConstructionError, StatusError } from '../record/errors';
import type { Logger } from '../record/logger';
import { isKeyNotFoundError } from '../record/util';
import { toWire, type Event, type WireEvent } from './types';

/** Write attempts per event before it is given up. */
export const MAX_TRIES_PER_EVENT = 12;
/** wait.Jitter's factor for the waits between attempts: each lasts [d, 1.25 d). */
export const RETRY_JITTER = 0.25;

/** Writes events.k8s.io/v1 events (EventSink); apiserver answers other than 2xx fail with StatusError. */
export interface EventSink {
  create(event: WireEvent): Promise<WireEvent | undefined>;
  /** Never called by the recorder (as in client-go); part of the interface for other users. */
  update(event: WireEvent): Promise<WireEvent | undefined>;
  /** A strategic merge patch (`data`) of the event named by `oldEvent`'s namespace and name. */
  patch(oldEvent: WireEvent, data: string): Promise<WireEvent | undefined>;
}

/** What the waits between attempts need. */
export interface RetryOptions {
  readonly sleepDurationMs: number;
  /** Aborted: no more waits. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** Uniform in [0, 1). */
  readonly random: () => number;
  /** Waits ms; false when the signal aborted first. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<boolean>;
}

/** `namespace/name (Type Reason)`, for log lines. */
export function describeEvent(e: Event): string {
  return `${e.metadata.namespace ?? ''}/${e.metadata.name ?? ''} (${e.type ?? ''} ${e.reason ?? ''})`;
}

/**
 * The strategic merge patch from the event without its series to the event. The two
 * differ in the series alone, which has no patch strategy: the patch is the whole series,
 * keys in Go's sorted order, a zero time as null.
 */
export function createPatchBytesForSeries(e: Event): string {
  const s = e.series ?? { count: 0, lastObservedTime: null };
  const last = s.lastObservedTime === null ? 'null' : JSON.stringify(formatMicroTime(s.lastObservedTime));
  return `{"series":{"count":${s.count},"lastObservedTime":${last}}}`;
}

/**
 * One attempt. The event's resourceVersion is cleared before a create, on the event itself
 * (a retry sends it so). Resolves with what the apiserver answered (as sent: only a refresh
 * reads it), and whether to retry.
 */
export async function recordEvent(sink: EventSink, event: Event, logger: Logger): Promise<{ readonly event: WireEvent | undefined; readonly retry: boolean }> {
  let written: WireEvent | undefined;
  let err: unknown;
  const isSeries = event.series !== undefined;
  if (isSeries) {
    try {
      written = await sink.patch(toWire(event), createPatchBytesForSeries(event));
    } catch (e) {
      err = e;
    }
  }
  if (!isSeries || isKeyNotFoundError(err)) {
    delete event.metadata.resourceVersion;
    written = undefined;
    err = undefined;
    try {
      written = await sink.create(toWire(event));
    } catch (e) {
      err = e;
    }
  }
  if (err === undefined) return { event: written, retry: false };
  if (err instanceof RequestConstructionError) {
    logger.error(err, 'Unable to construct event (will not retry!)', ['event', describeEvent(event)]);
    return { event: undefined, retry: false };
  }
  if (err instanceof StatusError) {
    if (isAlreadyExists(err)) {
      if (isSeries) return { event: undefined, retry: true };
      logger.info(5, 'Server rejected event (will not retry!)', ['event', describeEvent(event), 'err', err.message]);
    } else {
      logger.error(err, 'Server rejected event (will not retry!)', ['event', describeEvent(event)]);
    }
    return { event: undefined, retry: false };
  }
  // UnexpectedObjectError and anything else (a transport failure) are retried.
  logger.error(err, 'Unable to write event (may retry after sleeping)');
  return { event: undefined, retry: true };
}

/** wait.Jitter(d, factor): d plus up to factor × d. */
export function jitter(ms: number, factor: number, random: () => number): number {
  return ms + random() * factor * ms;
}

/** Attempts until written or given up; between attempts, a jittered wait that the signal cuts short. */
export async function attemptRecording(sink: EventSink, event: Event, options: RetryOptions): Promise<void> {
  for (let tries = 0; ; ) {
    if (!(await recordEvent(sink, event, options.logger)).retry) return;
    tries++;
    if (tries >= MAX_TRIES_PER_EVENT) {
      options.logger.error(undefined, 'Unable to write event (retry limit exceeded!)', ['event', describeEvent(event)]);
      return;
    }
    if (!(await options.sleep(jitter(options.sleepDurationMs, RETRY_JITTER, options.random), options.signal))) return;
  }
}
