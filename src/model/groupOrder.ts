// The orders the view offers for objects: newest activity first (kubectl's events are read
// newest first), most live warnings first, or by name.
import type { EventGroup } from './eventStore';

export type SortOrder = 'lastSeen' | 'warnings' | 'name';
export const SORT_ORDERS: readonly SortOrder[] = ['lastSeen', 'warnings', 'name'];

const byKey = (a: EventGroup, b: EventGroup) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const byName = (a: EventGroup, b: EventGroup) =>
  a.object.name.localeCompare(b.object.name) || a.object.kind.localeCompare(b.object.kind) || a.object.namespace.localeCompare(b.object.namespace) || byKey(a, b);

export const GROUP_ORDER: Record<SortOrder, (a: EventGroup, b: EventGroup) => number> = {
  lastSeen: (a, b) => b.lastSeen - a.lastSeen || byKey(a, b),
  warnings: (a, b) => b.warnings - a.warnings || b.lastSeen - a.lastSeen || byKey(a, b),
  name: byName,
};

export function isSortOrder(s: unknown): s is SortOrder {
  return typeof s === 'string' && (SORT_ORDERS as readonly string[]).includes(s);
}
