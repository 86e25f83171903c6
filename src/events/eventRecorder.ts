// Port of client-go/tools/events/event_recorder.go (v0.37.2): Eventf builds an
// events.k8s.io/v1 event about `regarding` (and `related`) and queues it on the broadcaster.
// Nothing is returned to the caller but whether it was queued: a reference that cannot be
// made or a type other than Normal and Warning is logged and dropped, as in Go.
import { hostname as osHostname } from 'node:os';
import type { PassiveClock } from '../record/clock';
import { sprintf } from '../record/goFormat';
import type { Logger } from '../record/logger';
import { getReference, type KubernetesObject } from '../record/reference';
import type { ObjectReference } from '../record/types';
import { generateEventName, validateEventType } from '../record/util';
import type { Broadcaster } from '../record/watch/mux';
import type { Event } from './types';

/** metav1.NamespaceDefault: where events about cluster-scoped objects go. */
export const NAMESPACE_DEFAULT = 'default';

/** What Eventf takes as regarding and related: an object as the API returns it, or a reference. */
export type Referent = KubernetesObject | ObjectReference;

export class EventRecorder {
  constructor(
    private readonly broadcaster: Broadcaster<Event>,
    readonly reportingController: string,
    readonly reportingInstance: string,
    /** The time of the event (EventTime) and of its name. */
    private readonly clock: PassiveClock,
    private readonly logger: Logger,
  ) {}

  /** A recorder that logs to `logger` and shares everything else with this one (WithLogger). */
  withLogger(logger: Logger): EventRecorder {
    return new EventRecorder(this.broadcaster, this.reportingController, this.reportingInstance, this.clock, logger);
  }

  /** The note is Go's fmt.Sprintf(note, args...). Resolves true once queued. */
  eventf(regarding: Referent, related: Referent | undefined, eventType: string, reason: string, action: string, note: string, ...args: unknown[]): Promise<boolean> {
    return this.record(regarding, related, undefined, eventType, reason, action, note, args);
  }

  /** Like eventf, with annotations on the event. */
  annotatedEventf(regarding: Referent, related: Referent | undefined, annotations: Record<string, string> | undefined, eventType: string, reason: string, action: string, note: string, ...args: unknown[]): Promise<boolean> {
    return this.record(regarding, related, annotations, eventType, reason, action, note, args);
  }

  private record(regarding: Referent, related: Referent | undefined, annotations: Record<string, string> | undefined, eventType: string, reason: string, action: string, note: string, args: unknown[]): Promise<boolean> {
    const timestamp = this.clock.now();
    const message = sprintf(note, ...args);
    let refRegarding: ObjectReference;
    try {
      refRegarding = getReference(regarding);
    } catch (err) {
      this.logger.error(err, 'Could not construct reference, will not report event', ['eventType', eventType, 'reason', reason, 'message', message]);
      return Promise.resolve(false);
    }
    let refRelated: ObjectReference | undefined;
    if (related !== undefined && related !== null) {
      try {
        refRelated = getReference(related);
      } catch (err) {
        this.logger.info(9, 'Could not construct reference', ['err', err instanceof Error ? err.message : String(err)]);
      }
    }
    if (!validateEventType(eventType)) {
      this.logger.error(undefined, 'Unsupported event type', ['eventType', eventType]);
      return Promise.resolve(false);
    }
    const event = this.makeEvent(refRegarding, refRelated, timestamp, annotations, eventType, reason, message, action);
    return this.broadcaster.action('ADDED', event).then(
      () => true,
      () => false,
    );
  }

  private makeEvent(regarding: ObjectReference, related: ObjectReference | undefined, timestamp: bigint, annotations: Record<string, string> | undefined, eventType: string, reason: string, message: string, action: string): Event {
    const t = this.clock.now();
    const metadata: Event['metadata'] = { name: generateEventName(regarding.name ?? '', t), namespace: regarding.namespace || NAMESPACE_DEFAULT };
    if (annotations) metadata.annotations = annotations;
    const event: Event = {
      metadata,
      eventTime: timestamp,
      reportingController: this.reportingController,
      reportingInstance: this.reportingInstance,
      action,
      reason,
      regarding: { ...regarding },
      note: message,
      type: eventType,
    };
    if (related) event.related = { ...related };
    return event;
  }
}

/** os.Hostname(), or "" when it fails (as Go ignores the error). */
export function hostname(): string {
  try {
    return osHostname();
  } catch {
    return '';
  }
}
