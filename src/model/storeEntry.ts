// One stored event with what the store's indexes sort it by, computed once. An entry is never
// changed once made (an update makes a new one), so every sorted index can find it again by
// the values it was inserted under.
import { holdShape } from '../common/heldShape';
import { objectKey, sortTime, type ClusterEvent } from './clusterEvent';

export interface StoreEntry {
  readonly event: ClusterEvent;
  /** The involved object's key: the group the event belongs to. */
  readonly key: string;
  /** Last seen, else first seen, else 0 (sortTime). */
  readonly time: number;
  /** The resourceVersion as a number (0 when it is not one): the later write first at equal times. */
  readonly rv: number;
  /** When the store received it: a counter, so equal times still have an order. */
  readonly seq: number;
  /** Read back from the history file (not received in this session). */
  readonly fromHistory: boolean;
  /** Where the entry sits in the eviction heap (owned by EvictionOrder). */
  heapIndex: number;
}

export function newEntry(event: ClusterEvent, seq: number, fromHistory: boolean): StoreEntry {
  const rv = Number(event.resourceVersion || 0);
  return entry(event, objectKey(event.involvedObject), sortTime(event), Number.isFinite(rv) ? rv : 0, seq, fromHistory);
}

function entry(event: ClusterEvent, key: string, time: number | undefined, rv: number, seq: number, fromHistory: boolean): StoreEntry {
  return { event, key, time: time as number, rv, seq, fromHistory, heapIndex: -1 };
}

/**
 * One entry made with no time, first, and held (heldShape.ts): V8 then keeps every entry's
 * time as a reference to the event's own number (shared by the events of one second) instead
 * of boxing a copy per entry.
 */
holdShape(entry(undefined as unknown as ClusterEvent, '', undefined, 0, 0, false));

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Events of one object, newest first: time, then the later resourceVersion, then the name,
 * then the uid (so two different events never compare equal).
 */
export function newestFirst(a: StoreEntry, b: StoreEntry): number {
  return b.time - a.time || b.rv - a.rv || compareStrings(a.event.name, b.event.name) || compareStrings(a.event.uid, b.event.uid);
}

/** A Warning not yet deleted on the server: what the warning counts and the badge count. */
export function isLiveWarning(e: ClusterEvent): boolean {
  return e.type === 'Warning' && e.expiredAt === undefined;
}
