// The store through one filter, in one order, kept up to date event by event: the store
// hands every view each entry it adds or removes, the view files it under its group (a
// sorted index, newest first) and, when the store's change is complete, moves only the
// groups that changed in its order of groups. A change touching k groups costs
// O(k log G), never a pass over the store. A new view over a large store is built in
// slices that yield to the event loop, and shows what it has so far while it builds.
import type { ClusterEvent, InvolvedObject } from './clusterEvent';
import { isFilterActive, matchesFilter, type EventFilter } from './filters';
import { ShardedMap } from './shardedMap';
import { Slice, yieldToEventLoop } from './slices';
import { SortedList } from './sortedList';
import { isLiveWarning, newestFirst, type StoreEntry } from './storeEntry';
import { GROUP_ORDER, type OrderedGroup, type SortOrder } from './groupOrder';

/**
 * Up to this share of the groups changed at once, each changed group is moved in the order
 * on its own (a search each); past it, the order is made again by one sort, which is then
 * the cheaper way.
 */
const ORDER_CHECK_SHARE = 1 / 8;

/** The events of one object that pass the view's filter. */
export interface EventGroup {
  readonly key: string;
  readonly object: InvolvedObject;
  /** Newest first (built on first read; `newest` reads a few without building the rest). */
  readonly events: readonly ClusterEvent[];
  /** How many events: events.length without building the list. */
  readonly count: number;
  /** The newest event's time. */
  readonly lastSeen: number;
  /** Live (not expired) Warning events among them. */
  readonly warnings: number;
  /** The newest `limit` events. */
  newest(limit: number): readonly ClusterEvent[];
}

/** What one store change did to a view. */
export interface ViewChange {
  /** Keys of the groups whose events or counts changed, or that appeared or went. */
  readonly groups: ReadonlySet<string>;
  /** Whether the top level changed: groups appeared, went, or moved. */
  readonly orderChanged: boolean;
  /** Everything may have changed (the store was cleared, or the view is being built). */
  readonly all: boolean;
  /** Events the store's memory cap dropped in this change (of any view). */
  readonly evicted: number;
}

/** What a live view needs of the store it watches. */
export interface ViewSource {
  /** Every entry held now, as a live iterator (entries added later come at its end). */
  entries(): IterableIterator<StoreEntry>;
  /** The seq of the latest entry: the view is built from entries up to it, later ones come as changes. */
  lastSeq(): number;
  detach(view: LiveView): void;
}

/** A group as the view holds it. */
class GroupState implements OrderedGroup {
  readonly events = new SortedList<StoreEntry>(newestFirst);
  /** Live Warning events now (kept as events come and go). */
  liveWarnings = 0;
  /** The values it was put in the order under; only changed while it is out of the order. */
  lastSeen = 0;
  warnings = 0;
  inOrder = false;
  face: GroupFace | undefined;

  constructor(
    readonly key: string,
    readonly object: InvolvedObject,
  ) {}
}

/** The read-only face of a group, made after a change and valid until the group's next one. */
class GroupFace implements EventGroup {
  readonly key: string;
  readonly object: InvolvedObject;
  readonly count: number;
  readonly lastSeen: number;
  readonly warnings: number;
  private list: readonly ClusterEvent[] | undefined;

  constructor(private readonly state: GroupState) {
    this.key = state.key;
    this.object = state.object;
    this.count = state.events.size;
    this.lastSeen = state.lastSeen;
    this.warnings = state.liveWarnings;
  }

  get events(): readonly ClusterEvent[] {
    return (this.list ??= this.state.events.toArray().map((e) => e.event));
  }

  newest(limit: number): readonly ClusterEvent[] {
    return this.list ? this.list.slice(0, limit) : this.state.events.slice(0, limit).map((e) => e.event);
  }
}

export class LiveView {
  private readonly states = new ShardedMap<GroupState>();
  private readonly order: SortedList<GroupState>;
  private readonly everything: boolean;
  private dirty = new Set<GroupState>();
  private evicted = 0;
  private all = true;
  private eventCount = 0;
  private ordered: readonly EventGroup[] | undefined;
  private readonly listeners = new Set<(c: ViewChange) => void>();
  /** The store's entries still to go through while the view is being built. */
  private pending: IterableIterator<StoreEntry> | undefined;
  private readonly builtUpTo: number;
  /** Settles when the view holds every entry of the store. */
  readonly ready: Promise<void>;

  /** Made by EventStore.liveView (sliced) or EventStore.view (at once). */
  constructor(
    private readonly source: ViewSource,
    readonly filter: EventFilter,
    readonly orderBy: SortOrder,
    build: 'sliced' | 'atOnce',
  ) {
    this.order = new SortedList<GroupState>(GROUP_ORDER[orderBy]);
    this.everything = !isFilterActive(filter);
    this.builtUpTo = source.lastSeq();
    this.pending = source.entries();
    if (build === 'atOnce') {
      this.buildSome(undefined);
      this.flush(0);
      this.ready = Promise.resolve();
    } else {
      this.ready = this.buildInSlices();
    }
  }

  /** Still going through the store's entries (what it shows is partial). */
  get building(): boolean {
    return this.pending !== undefined;
  }

  get groupCount(): number {
    return this.order.size;
  }

  /** Events that pass the filter. */
  get size(): number {
    return this.eventCount;
  }

  onDidChange(listener: (c: ViewChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The groups in the view's order (the same array until the next change). */
  groups(): readonly EventGroup[] {
    return (this.ordered ??= Array.from(this.order, (g) => this.face(g)));
  }

  /** Groups from `start` to `end` in order, without building the whole list. */
  slice(start: number, end: number): EventGroup[] {
    return this.order.slice(start, end).map((g) => this.face(g));
  }

  group(key: string): EventGroup | undefined {
    const g = this.states.get(key);
    return g?.inOrder ? this.face(g) : undefined;
  }

  /** The group's place in the order, or -1. */
  indexOf(key: string): number {
    const g = this.states.get(key);
    return g?.inOrder ? this.order.indexOf(g) : -1;
  }

  dispose(): void {
    this.pending = undefined;
    this.listeners.clear();
    this.source.detach(this);
  }

  // What the store tells its views (not for other callers).

  /** @internal An entry was added to the store. */
  added(entry: StoreEntry): void {
    if (!this.everything && !matchesFilter(entry.event, this.filter)) return;
    let g = this.states.get(entry.key);
    if (!g) {
      g = new GroupState(entry.key, entry.event.involvedObject);
      this.states.set(entry.key, g);
    }
    g.events.insert(entry);
    this.eventCount++;
    if (isLiveWarning(entry.event)) g.liveWarnings++;
    this.dirty.add(g);
  }

  /** @internal An entry left the store (replaced, expired into a new entry, evicted, pruned). */
  removed(entry: StoreEntry): void {
    const g = this.states.get(entry.key);
    // Not found: it did not pass the filter, or the view is being built and has not reached it.
    if (!g || !g.events.remove(entry)) return;
    this.eventCount--;
    if (isLiveWarning(entry.event)) g.liveWarnings--;
    this.dirty.add(g);
  }

  /** @internal The store forgot everything. */
  cleared(): void {
    this.states.clear();
    this.order.clear();
    this.dirty.clear();
    this.eventCount = 0;
    this.pending = undefined;
    this.ordered = undefined;
    this.all = true;
  }

  /** @internal The store's change is complete: move the changed groups and tell listeners. */
  flush(evicted: number): void {
    this.evicted += evicted;
    if (this.dirty.size === 0 && !this.all && this.evicted === 0) return;
    const dirty = this.dirty;
    this.dirty = new Set();
    const keys = new Set<string>();
    // Many changed groups (a relist, a slice of a build): one sort of every group, and the
    // order compared whole. Few: each moved on its own, and compared by their places.
    const many = dirty.size > Math.max(1, this.order.size * ORDER_CHECK_SHARE);
    const orderBefore = !this.all && many ? this.order.toArray() : undefined;
    const placeBefore = new Map<GroupState, number>();
    if (!this.all && !many) for (const g of dirty) if (g.inOrder) placeBefore.set(g, this.order.indexOf(g));
    let orderChanged = this.all;
    for (const g of dirty) {
      keys.add(g.key);
      g.face = undefined;
      if (g.inOrder && !many) {
        this.order.remove(g);
        g.inOrder = false;
      }
      const newest = g.events.first();
      if (!newest) {
        if (g.inOrder || placeBefore.has(g)) orderChanged = true;
        g.inOrder = false;
        if (this.states.get(g.key) === g) this.states.delete(g.key);
        continue;
      }
      if (!g.inOrder && !placeBefore.has(g) && !many) orderChanged = true;
      g.lastSeen = newest.time;
      g.warnings = g.liveWarnings;
      if (!many) {
        this.order.insert(g);
        g.inOrder = true;
      }
    }
    if (many) {
      const all = [...this.states.values()].sort(GROUP_ORDER[this.orderBy]);
      for (const g of all) g.inOrder = true;
      this.order.reset(all);
    }
    if (!orderChanged && orderBefore) {
      let i = 0;
      if (orderBefore.length !== this.order.size) orderChanged = true;
      else for (const g of this.order) if (orderBefore[i++] !== g) orderChanged = true;
    } else if (!orderChanged) {
      for (const [g, i] of placeBefore) {
        if (this.order.indexOf(g) !== i) {
          orderChanged = true;
          break;
        }
      }
    }
    if (keys.size > 0 || this.all) this.ordered = undefined;
    const change: ViewChange = { groups: keys, orderChanged, all: this.all, evicted: this.evicted };
    this.all = false;
    this.evicted = 0;
    for (const l of this.listeners) l(change);
  }

  private face(g: GroupState): GroupFace {
    return (g.face ??= new GroupFace(g));
  }

  /** Files entries the store held when the view was made; true when there are none left. */
  private buildSome(slice: Slice | undefined): boolean {
    const it = this.pending;
    if (!it) return true;
    for (;;) {
      const next = it.next();
      if (next.done) {
        this.pending = undefined;
        return true;
      }
      // Later entries (new events, or updates of older ones) already came through added().
      if (next.value.seq <= this.builtUpTo) this.added(next.value);
      if (slice?.spent()) return false;
    }
  }

  private async buildInSlices(): Promise<void> {
    for (;;) {
      const done = this.buildSome(new Slice());
      this.all = true;
      this.flush(0);
      if (done) return;
      await yieldToEventLoop();
      if (!this.pending) return; // cleared or disposed meanwhile
    }
  }
}
