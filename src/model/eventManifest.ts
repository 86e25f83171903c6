// An event as a Kubernetes manifest, for events only the store holds (recorded in this
// window, or kept as history after the apiserver deleted them): core/v1 Event with RFC 3339
// times, in the shape `kubectl get event -o yaml` prints, never the internal model.
import type { ClusterEvent } from './clusterEvent';

const rfc3339 = (t: number | undefined) => (t === undefined ? undefined : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z'));
const micro = (t: number | undefined) => (t === undefined ? undefined : new Date(t).toISOString().replace(/Z$/, '000Z'));

/** Annotations that say where a copy came from (kubectl shows annotations as they are). */
export const ORIGIN_ANNOTATION = 'kubernetes-events.vscode/origin';
export const EXPIRED_ANNOTATION = 'kubernetes-events.vscode/expired-at';

export function toCoreV1Event(e: ClusterEvent): Record<string, unknown> {
  const o = e.involvedObject;
  const annotations: Record<string, string> = { [ORIGIN_ANNOTATION]: e.origin === 'local' ? 'recorded in this window (not on the server unless the sink wrote it)' : `history of ${e.origin} (the apiserver has deleted it)` };
  if (e.expiredAt !== undefined) annotations[EXPIRED_ANNOTATION] = rfc3339(e.expiredAt) as string;
  const drop = <T extends Record<string, unknown>>(x: T) => Object.fromEntries(Object.entries(x).filter(([, v]) => v !== undefined && v !== '')) as T;
  return drop({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: drop({ name: e.name, namespace: e.namespace, uid: e.uid.startsWith('local:') ? undefined : e.uid, resourceVersion: e.resourceVersion, creationTimestamp: rfc3339(e.created), annotations }),
    involvedObject: drop({ apiVersion: o.apiVersion, kind: o.kind, name: o.name, namespace: o.namespace, uid: o.uid, fieldPath: o.fieldPath }),
    reason: e.reason,
    message: e.message,
    type: e.type,
    count: e.count,
    firstTimestamp: e.origin === 'events.k8s.io/v1' ? undefined : rfc3339(e.firstSeen),
    lastTimestamp: e.origin === 'events.k8s.io/v1' ? undefined : rfc3339(e.lastSeen),
    eventTime: e.origin === 'events.k8s.io/v1' ? micro(e.firstSeen) : undefined,
    source: e.source || e.sourceHost ? drop({ component: e.source, host: e.sourceHost }) : undefined,
    action: e.action,
    reportingInstance: e.reportingInstance,
  });
}
