// What the user muted for warning notifications: objects (by kind, namespace and name, so a
// pod's replacement under the same name stays muted) and reasons.
import type { ClusterEvent } from './clusterEvent';

export interface Mutes {
  readonly objects: readonly string[];
  readonly reasons: readonly string[];
}

export const NO_MUTES: Mutes = { objects: [], reasons: [] };

export function objectMuteKey(o: { kind: string; namespace: string; name: string }): string {
  return `${o.kind}/${o.namespace}/${o.name}`;
}

export function isMuted(m: Mutes, e: ClusterEvent): boolean {
  return m.reasons.includes(e.reason) || m.objects.includes(objectMuteKey(e.involvedObject));
}
