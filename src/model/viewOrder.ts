// The orders the Events view offers for its objects. Each is a total order (the group key
// breaks every tie), so a group can be found again in a sorted index by its values.
import type { InvolvedObject } from './clusterEvent';

/** Last seen (newest first, the default), most warnings first, or by name. */
export type ViewOrder = 'lastSeen' | 'warnings' | 'name';

export const DEFAULT_VIEW_ORDER: ViewOrder = 'lastSeen';

/** What a group is ordered by, as it was when it was put in the order (it is not changed there). */
export interface OrderedGroup {
  readonly key: string;
  readonly object: InvolvedObject;
  readonly orderLastSeen: number;
  readonly orderWarnings: number;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const byKey = (a: OrderedGroup, b: OrderedGroup) => compareStrings(a.key, b.key);
const byLastSeen = (a: OrderedGroup, b: OrderedGroup) => b.orderLastSeen - a.orderLastSeen;

export const GROUP_ORDERS: Readonly<Record<ViewOrder, (a: OrderedGroup, b: OrderedGroup) => number>> = {
  lastSeen: (a, b) => byLastSeen(a, b) || byKey(a, b),
  warnings: (a, b) => b.orderWarnings - a.orderWarnings || byLastSeen(a, b) || byKey(a, b),
  name: (a, b) =>
    compareStrings(a.object.name, b.object.name) || compareStrings(a.object.namespace, b.object.namespace) || compareStrings(a.object.kind, b.object.kind) || byKey(a, b),
};
