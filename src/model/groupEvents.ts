import type { CoreV1Event } from '@kubernetes/client-node';

/** The events of one involved object, newest first. */
export interface EventGroup {
  readonly key: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly events: CoreV1Event[];
  readonly warnings: number;
}

/** When an event was last seen: lastTimestamp, else eventTime, else firstTimestamp, else creation. */
export function lastSeen(e: CoreV1Event): number {
  const t = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? e.metadata?.creationTimestamp;
  return t === undefined ? 0 : new Date(t as unknown as string).getTime();
}

/** Groups events by involved object (kind, namespace, name, uid); groups and events newest first. */
export function groupEvents(events: readonly CoreV1Event[]): EventGroup[] {
  const groups = new Map<string, { kind: string; namespace: string; name: string; events: CoreV1Event[] }>();
  for (const e of events) {
    const o = e.involvedObject;
    const key = [o.kind ?? '', o.namespace ?? '', o.name ?? '', o.uid ?? ''].join('/');
    let g = groups.get(key);
    if (!g) {
      g = { kind: o.kind ?? '', namespace: o.namespace ?? '', name: o.name ?? '', events: [] };
      groups.set(key, g);
    }
    g.events.push(e);
  }
  const result: EventGroup[] = [];
  for (const [key, g] of groups) {
    g.events.sort((a, b) => lastSeen(b) - lastSeen(a));
    result.push({ key, ...g, warnings: g.events.filter((e) => e.type === 'Warning').length });
  }
  return result.sort((a, b) => lastSeen(b.events[0]) - lastSeen(a.events[0]) || a.key.localeCompare(b.key));
}
