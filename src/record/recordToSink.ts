// Port of recordToSink and recordEvent of client-go/tools/record/event.go (v0.34): create a
// new event, patch a repeat, create again when the patch finds it gone, give up on any
// apiserver answer, retry transport failures up to 12 tries with the first wait jittered.
import { RequestConstructionError, StatusError, isAlreadyExists } from './errors';
import type { EventCorrelator } from './eventsCache';
import type { Logger } from './logger';
import { copyEvent, type Event } from './types';
import { sleep } from './sleep';
import { isKeyNotFoundError } from './util';

/** Write attempts per event before recordToSink gives up. */
export const MAX_TRIES_PER_EVENT = 12;

/** Writes events to the apiserver; must honour the event's namespace. HTTP answers fail with StatusError. */
export interface EventSink {
  create(event: Event): Promise<Event>;
  /** Never called by the recorder (as in client-go); part of the interface for other users. */
  update(event: Event): Promise<Event>;
  patch(oldEvent: Event, data: string): Promise<Event>;
}

export interface RecordToSinkOptions {
  /** The wait between attempts; the first wait is a random part of it. */
  readonly sleepDurationMs: number;
  /** Aborted: no more waits (the attempt in hand still happens). */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  /** Uniform in [0, 1). */
  readonly random: () => number;
}

/** What became of one event. */
export type RecordOutcome = 'created' | 'patched' | 'skipped' | 'failed';

/** `namespace/name (Type Reason)`, for log lines. */
export function describeEvent(e: Event): string {
  return `${e.metadata.namespace ?? ''}/${e.metadata.name ?? ''} (${e.type ?? ''} ${e.reason ?? ''})`;
}

export async function recordToSink(sink: EventSink, event: Event, correlator: EventCorrelator, options: RecordToSinkOptions): Promise<RecordOutcome> {
  // The event is shared by every watcher: work on a copy.
  const result = correlator.eventCorrelate(copyEvent(event));
  if (result.skip) return 'skipped';
  const updateExisting = (result.event.count ?? 0) > 1;
  for (let tries = 0; ; ) {
    const attempt = await recordEvent(sink, result.event, result.patch, updateExisting, correlator, options.logger);
    if (attempt === 'written') return updateExisting ? 'patched' : 'created';
    if (attempt === 'gave-up') return 'failed';
    tries++;
    if (tries >= MAX_TRIES_PER_EVENT) {
      options.logger.error(undefined, 'Unable to write event (retry limit exceeded!)', ['event', describeEvent(result.event)]);
      return 'failed';
    }
    // Only the first retry is randomized, so many clients do not retry in step.
    const delay = tries === 1 ? options.sleepDurationMs * options.random() : options.sleepDurationMs;
    if (!(await sleep(delay, options.signal))) {
      options.logger.error(undefined, 'Unable to write event (broadcaster is shut down)', ['event', describeEvent(result.event)]);
      return 'failed';
    }
  }
}

/** One attempt: written, gave up (never retried), or retry. */
async function recordEvent(sink: EventSink, event: Event, patch: string | undefined, updateExisting: boolean, correlator: EventCorrelator, logger: Logger): Promise<'written' | 'gave-up' | 'retry'> {
  let written: Event | undefined;
  let err: unknown;
  if (updateExisting) {
    try {
      written = await sink.patch(event, patch ?? '{}');
    } catch (e) {
      err = e;
    }
  }
  // A repeat whose first occurrence has gone (expired, deleted) is created afresh.
  if (!updateExisting || isKeyNotFoundError(err)) {
    delete event.metadata.resourceVersion;
    err = undefined;
    try {
      written = await sink.create(event);
    } catch (e) {
      err = e;
    }
  }
  if (err === undefined && written) {
    correlator.updateState(written);
    return 'written';
  }
  if (err instanceof RequestConstructionError) {
    logger.error(err, 'Unable to construct event (will not retry!)', ['event', describeEvent(event)]);
    return 'gave-up';
  }
  if (err instanceof StatusError) {
    if (isAlreadyExists(err) || err.hasCause('NamespaceTerminating')) {
      logger.info(5, 'Server rejected event (will not retry!)', ['event', describeEvent(event), 'err', err.message]);
    } else {
      logger.error(err, 'Server rejected event (will not retry!)', ['event', describeEvent(event)]);
    }
    return 'gave-up';
  }
  logger.error(err ?? new Error('the sink returned no event'), 'Unable to write event (may retry after sleeping)', ['event', describeEvent(event)]);
  return 'retry';
}
