// The orders the view offers for objects: newest activity first (kubectl's events are read
// newest first), most live warnings first, or by name.
import type { EventGroup } from './eventStore';

/** What the orders read of a group (a live view orders its groups by the values they were filed under). */
export type OrderedGroup = Pick<EventGroup, 'key' | 'object' | 'lastSeen' | 'warnings'>;

export type SortOrder = 'lastSeen' | 'warnings' | 'name';
export const SORT_ORDERS: readonly SortOrder[] = ['lastSeen', 'warnings', 'name'];

const byKey = (a: OrderedGroup, b: OrderedGroup) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const byName = (a: OrderedGroup, b: OrderedGroup) =>
  a.object.name.localeCompare(b.object.name) || a.object.kind.localeCompare(b.object.kind) || a.object.namespace.localeCompare(b.object.namespace) || byKey(a, b);

export const GROUP_ORDER: Record<SortOrder, (a: OrderedGroup, b: OrderedGroup) => number> = {
  lastSeen: (a, b) => b.lastSeen - a.lastSeen || byKey(a, b),
  warnings: (a, b) => b.warnings - a.warnings || b.lastSeen - a.lastSeen || byKey(a, b),
  name: byName,
};

export function isSortOrder(s: unknown): s is SortOrder {
  return typeof s === 'string' && (SORT_ORDERS as readonly string[]).includes(s);
}
