// An event the user asks to record, and what the apiserver would accept of it: the
// apiserver's limits for an event's reason and message (ReasonLengthLimit and
// NoteLengthLimit in k8s.io/kubernetes pkg/apis/core/validation/events.go) count bytes of
// UTF-8, as Go's len does, and bind every event that has an eventTime; events recorded here
// are held to them too, so they fit either event API.

export const MAX_REASON_BYTES = 128;
/** ActionLengthLimit: an events.k8s.io/v1 event's action, which that API requires. */
export const MAX_ACTION_BYTES = 128;
export const MAX_MESSAGE_BYTES = 1024;
/** Our convention for reasons, as Kubernetes' own components write them (BackOff, FailedMount). */
const REASON_FORMAT = /^[A-Za-z][A-Za-z0-9_.-]*$/;

/** An object as the apiserver names it, enough to make an event's involvedObject. */
export interface ObjectSummary {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly uid?: string };
}

export type EventType = 'Normal' | 'Warning';

/** The events API an event is recorded through. */
export type RecordApi = 'core/v1' | 'events.k8s.io/v1';

export interface RecordRequest {
  readonly object: ObjectSummary;
  readonly type: EventType;
  readonly reason: string;
  readonly message: string;
  /** core/v1 (client-go's tools/record) unless asked; events.k8s.io/v1 is tools/events. */
  readonly api?: RecordApi;
  /** events.k8s.io/v1 only, and required there: what was being done (Scheduling, Backup). */
  readonly action?: string;
  /** events.k8s.io/v1 only: a second object the event is about (the Node a Pod was bound to). */
  readonly related?: ObjectSummary;
}

export interface RecordResult {
  readonly ok: boolean;
  /** A sentence for the user: where the event went, or why it was not recorded. */
  readonly text: string;
  /** Also written to the cluster (the sink is on). */
  readonly toCluster: boolean;
}

export const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Why a reason cannot be used, or undefined. */
export function reasonProblem(reason: string): string | undefined {
  if (!reason.trim()) return 'The reason is empty: give a short UpperCamelCase word such as Deployed.';
  if (utf8Bytes(reason) > MAX_REASON_BYTES) return `The reason has ${utf8Bytes(reason)} bytes; the apiserver accepts at most ${MAX_REASON_BYTES}.`;
  if (!REASON_FORMAT.test(reason)) return 'A reason is one word: letters, digits, dots, dashes or underscores, starting with a letter (for example BackupFailed).';
  return undefined;
}

export function messageProblem(message: string): string | undefined {
  if (utf8Bytes(message) > MAX_MESSAGE_BYTES) return `The message has ${utf8Bytes(message)} bytes of UTF-8; the apiserver accepts at most ${MAX_MESSAGE_BYTES} in an event.`;
  return undefined;
}

export function actionProblem(action: string): string | undefined {
  if (!action.trim()) return 'The action is empty: an events.k8s.io/v1 event says what was being done, in one word such as Backup.';
  if (utf8Bytes(action) > MAX_ACTION_BYTES) return `The action has ${utf8Bytes(action)} bytes; the apiserver accepts at most ${MAX_ACTION_BYTES}.`;
  return undefined;
}

/** Why the request cannot be recorded, or undefined. */
export function requestProblem(r: RecordRequest): string | undefined {
  const api = r.api ?? 'core/v1';
  if (api !== 'core/v1' && api !== 'events.k8s.io/v1') return `The API must be core/v1 or events.k8s.io/v1, not ${String(api)}.`;
  if (api === 'core/v1' && (r.action || r.related)) return 'An action and a related object are for events.k8s.io/v1 events: record it with api events.k8s.io/v1.';
  return (
    reasonProblem(r.reason) ??
    messageProblem(r.message) ??
    (r.type !== 'Normal' && r.type !== 'Warning' ? `The type must be Normal or Warning, not ${String(r.type)}.` : undefined) ??
    (api === 'events.k8s.io/v1' ? actionProblem(r.action ?? '') : undefined)
  );
}

/** "Pod/web-1 in shop": the object as a sentence names it. */
export function objectPlace(o: ObjectSummary): string {
  return `${o.kind}/${o.metadata.name}${o.metadata.namespace ? ` in ${o.metadata.namespace}` : ''}`;
}
