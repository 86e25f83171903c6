// Events for model tests, built through the real normaliser.
import { normalizeEvent, type RawEvent } from '../../../src/cluster/normalize';
import type { ClusterEvent } from '../../../src/model/clusterEvent';

export const T0 = Date.parse('2026-01-01T00:00:00Z');

export function coreEvent(o: { uid: string; name?: string; ns?: string; kind?: string; object?: string; objectUid?: string; type?: string; reason?: string; message?: string; count?: number; first?: number; last?: number; source?: string; rv?: string }): ClusterEvent {
  const raw: RawEvent = {
    metadata: { uid: o.uid, name: o.name ?? `ev-${o.uid}`, namespace: o.ns ?? 'default', resourceVersion: o.rv ?? '1' },
    involvedObject: { kind: o.kind ?? 'Pod', name: o.object ?? 'web-1', namespace: o.ns ?? 'default', uid: o.objectUid ?? `uid-${o.object ?? 'web-1'}`, apiVersion: 'v1' },
    type: o.type ?? 'Normal',
    reason: o.reason ?? 'Started',
    message: o.message ?? 'Started container',
    count: o.count ?? 1,
    firstTimestamp: new Date(o.first ?? T0).toISOString(),
    lastTimestamp: new Date(o.last ?? o.first ?? T0).toISOString(),
    source: { component: o.source ?? 'kubelet' },
  };
  return normalizeEvent(raw, 'core/v1');
}
