// The events Diagnose shows for an object: its own, and for a workload those of everything
// it owns (its ReplicaSets' and Pods', by the owner chains), newest first, as the roll-up
// counts them.
import type { ClusterEvent, InvolvedObject } from '../clusterEvent';
import type { EventGroup } from '../liveView';

/** Events listed at most (the newest); the panel says how many there are in all. */
export const MAX_EVENTS_SHOWN = 200;

export interface ObjectName {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly uid?: string;
}

export function isObject(link: InvolvedObject, o: ObjectName): boolean {
  if (o.uid && link.uid) return o.uid === link.uid;
  return link.kind === o.kind && link.name === o.name && (link.namespace || '') === (o.namespace || '');
}

export interface EventsAbout {
  readonly events: readonly ClusterEvent[];
  /** All there are, listed or not. */
  readonly total: number;
  readonly warnings: number;
}

/** Events about `o` or what it owns; `chain` gives an object's owners, itself first. */
export function eventsAbout(groups: readonly EventGroup[], chain: (o: InvolvedObject) => readonly InvolvedObject[], o: ObjectName, limit = MAX_EVENTS_SHOWN): EventsAbout {
  const mine = groups.filter((g) => chain(g.object).some((link) => isObject(link, o)));
  const all: ClusterEvent[] = [];
  let warnings = 0;
  for (const g of mine) {
    warnings += g.warnings;
    for (const e of g.events) all.push(e);
  }
  all.sort((a, b) => (b.lastSeen ?? b.firstSeen ?? b.created ?? 0) - (a.lastSeen ?? a.firstSeen ?? a.created ?? 0));
  return { events: all.slice(0, limit), total: all.length, warnings };
}
