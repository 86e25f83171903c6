// The timeline's one view of the event store. The store is being rebuilt (incremental views,
// eviction, a history log); the timeline uses only its public surface, and only here, so a
// change there is a change in this file.
import type { IDisposable } from '../../common/lifecycle';
import type { ClusterEvent } from '../../model/clusterEvent';
import type { EventGroup, EventStore } from '../../model/eventStore';
import type { EventFilter } from '../../model/filters';

/**
 * The events of one involved object that pass a filter, as the store gives them (key,
 * object, events newest first, live warnings, newest time): the workload roll-up is built
 * from these.
 */
export type SourceGroup = EventGroup;

/** What changed in the store: the keys of the groups touched, or everything. */
export interface SourceChange {
  readonly groups: ReadonlySet<string>;
  readonly all: boolean;
}

export interface TimelineSource {
  /** Every group with events passing the filter, newest first. */
  groups(filter: EventFilter): readonly SourceGroup[];
  group(key: string, filter: EventFilter): SourceGroup | undefined;
  get(uid: string): ClusterEvent | undefined;
  onDidChange(listener: (change: SourceChange) => void): IDisposable;
}

export function storeSource(store: EventStore): TimelineSource {
  return {
    groups: (filter) => store.view(filter),
    group: (key, filter) => store.group(key, filter),
    get: (uid) => store.get(uid),
    onDidChange: (listener) => store.onDidChange((c) => listener({ groups: c.groups, all: c.all })),
  };
}
