// The event store: events by UID, grouped by the object they are about. Deleted or expired
// events stay as history for a while, and across restarts in a log per cluster
// (storeHistory.ts). Memory is capped by dropping the events seen longest ago first
// (evictionOrder.ts). Views through a filter and in an order are kept up to date as events
// come and go (liveView.ts); the badge's count of new warnings too (unseenWarnings.ts).
import { sortTime, type ClusterEvent } from './clusterEvent';
import { EventNames } from './eventNames';
import { EvictionOrder } from './evictionOrder';
import { NO_FILTER, type EventFilter } from './filters';
import { LiveView, type EventGroup, type ViewSource } from './liveView';
import { ShardedMap } from './shardedMap';
import { Slice, yieldToEventLoop } from './slices';
import { StoreHistory, type HistoryErrorHandler } from './storeHistory';
import { isLiveWarning, newEntry, type StoreEntry } from './storeEntry';
import { UnseenWarnings } from './unseenWarnings';
import type { SortOrder } from './groupOrder';

export type { EventGroup, ViewChange } from './liveView';
export { LiveView } from './liveView';
export type { SortOrder } from './groupOrder';

/** Events the store holds at most by default (live and history together). */
export const DEFAULT_MAX_EVENTS = 20_000;
/** How long a deleted or expired event stays as history by default. */
export const DEFAULT_HISTORY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Views `view(filter)` keeps for the filters read last (the tree's, and the unfiltered one). */
const KEPT_VIEWS = 2;

export interface StoreOptions {
  readonly maxEvents?: number;
  readonly historyWindowMs?: number;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
  /** A folder to keep the history in across restarts (the extension's storage folder). */
  readonly historyFolder?: string;
  /** Where history read and write errors go (they are never thrown). */
  readonly onHistoryError?: HistoryErrorHandler;
}

/** What changed: the keys of the groups touched, whether everything may have, and what the cap dropped. */
export interface StoreChange {
  readonly groups: ReadonlySet<string>;
  readonly all: boolean;
  /** Events the memory cap dropped in this change (the oldest first). */
  readonly evicted: number;
}

export class EventStore {
  private readonly entries = new ShardedMap<StoreEntry>();
  /** namespace and name → uid, so a local event is replaced by its copy from the server. */
  private readonly byName = new EventNames();
  /** Events per group key. */
  private readonly groupSizes = new ShardedMap<number>();
  private readonly evictionOrder = new EvictionOrder();
  private readonly views = new Set<LiveView>();
  /** Views made by view(filter), the last read last. */
  private readonly keptViews = new Map<EventFilter, LiveView>();
  private readonly listeners = new Set<(c: StoreChange) => void>();
  private readonly storedListeners = new Set<(e: ClusterEvent) => void>();
  /** The cap asked for (the storeCap setting). */
  private maxEvents: number;
  /**
   * The cap a write keeps to: maxEvents, or more while a lowered cap is being reached in
   * slices (a write then drops at most what it adds, never the whole excess at once).
   */
  private cap: number;
  private historyWindowMs: number;
  private readonly now: () => number;
  private readonly historyFolder: string | undefined;
  private readonly onHistoryError: HistoryErrorHandler;
  private history: StoreHistory | undefined;
  /** New warnings since the user last looked: the view's badge. */
  readonly unseenWarnings = new UnseenWarnings();
  /** Events dropped to stay under maxEvents, since the store was made. */
  evictions = 0;
  /** Live (not expired) Warning events held now: the status bar's count, kept as events come and go. */
  liveWarnings = 0;
  private seq = 0;
  private pending: Set<string> | undefined;
  private pendingAll = false;
  private pendingEvicted = 0;
  private batchDepth = 0;
  /** A batchUntilNextTurn() is open. */
  private turnBatch = false;
  private readonly source: ViewSource;

  constructor(options: StoreOptions = {}) {
    this.maxEvents = Math.max(1, options.maxEvents ?? DEFAULT_MAX_EVENTS);
    this.cap = this.maxEvents;
    this.historyWindowMs = options.historyWindowMs ?? DEFAULT_HISTORY_WINDOW_MS;
    this.now = options.now ?? Date.now;
    this.historyFolder = options.historyFolder;
    this.onHistoryError = options.onHistoryError ?? ((e, action) => console.error(`Kubernetes Events: history ${action} failed: ${e.message}`));
    this.source = {
      entries: () => this.entries.values(),
      lastSeq: () => this.seq,
      detach: (view) => this.views.delete(view),
    };
  }

  get size(): number {
    return this.entries.size;
  }

  get groupCount(): number {
    return this.groupSizes.size;
  }

  get(uid: string): ClusterEvent | undefined {
    return this.entries.get(uid)?.event;
  }

  *all(): IterableIterator<ClusterEvent> {
    for (const e of this.entries.values()) yield e.event;
  }

  onDidChange(listener: (c: StoreChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Each event as it is stored (new, changed, or read from the history), at once, not batched. */
  onDidStore(listener: (e: ClusterEvent) => void): { dispose(): void } {
    this.storedListeners.add(listener);
    return { dispose: () => this.storedListeners.delete(listener) };
  }

  /** Runs f with change notifications held back, then sends one. */
  batch<T>(f: () => T): T {
    this.batchDepth++;
    try {
      return f();
    } finally {
      if (--this.batchDepth === 0) this.flush();
    }
  }

  /**
   * Holds change notifications back until the event loop's next turn: what is written
   * meanwhile (a burst of recorded events, each its own write) becomes one change, so the
   * views and the tree move once per burst, not once per event.
   */
  batchUntilNextTurn(): void {
    if (this.turnBatch) return;
    this.turnBatch = true;
    this.batchDepth++;
    setImmediate(() => {
      this.turnBatch = false;
      if (--this.batchDepth === 0) this.flush();
    });
  }

  /** Adds or replaces an event (ADDED, MODIFIED, or a list item). */
  upsert(e: ClusterEvent): void {
    this.put(e, false);
    this.flushUnlessBatching();
  }

  /** A DELETED event (TTL or by hand): kept as history, marked expired. */
  expire(uid: string): void {
    const e = this.get(uid);
    if (!e || e.expiredAt !== undefined) return;
    this.upsert({ ...e, expiredAt: this.now() });
  }

  /**
   * Where the store's changes have got to: taken before a list's first page, it tells
   * reconcile() which events the list stored (every event stored makes a new entry).
   */
  get sequence(): number {
    return this.seq;
  }

  /**
   * After a (re)list of one origin (and namespace, if the list was of one): events it did not
   * store since `listStart` (sequence, before its first page) were deleted while we were not
   * watching, so they become history. Resolves with how many. No set of the listed uids is
   * kept or looked up (at 200,000 events those lookups alone blocked for 40-80 ms), and the
   * store is gone through in slices that yield to the event loop (in one go it blocked for 20 ms).
   */
  reconcile(origin: ClusterEvent['origin'], listStart: number, namespace?: string): Promise<number> {
    return this.inSlices(
      (entry) => entry.seq <= listStart && entry.event.origin === origin && entry.event.expiredAt === undefined && (namespace === undefined || entry.event.namespace === namespace),
      (entry) => this.expire(entry.event.uid),
    );
  }

  /**
   * Drops history older than the window, in slices that yield to the event loop: at 200,000
   * events the scan alone took 12-20 ms in one go, and dropping 100,000 that aged out
   * together (a relist that expired them, a day before) 206 ms. Resolves with how many.
   */
  pruneHistory(): Promise<number> {
    const cutoff = this.now() - this.historyWindowMs;
    return this.inSlices(
      (entry) => entry.event.expiredAt !== undefined && entry.event.expiredAt < cutoff,
      (entry) => this.drop(entry, false),
    );
  }

  /**
   * Goes through every entry held now in slices that yield to the event loop, each slice one
   * change notification, and applies `act` to those `matches` picks that are still the entry
   * held (the slices leave room for other writes). Resolves with how many it acted on.
   */
  private async inSlices(matches: (entry: StoreEntry) => boolean, act: (entry: StoreEntry) => void): Promise<number> {
    const entries = this.entries.snapshot();
    let acted = 0;
    let i = 0;
    while (i < entries.length) {
      const slice = new Slice();
      this.batch(() => {
        while (i < entries.length) {
          const entry = entries[i++];
          if (matches(entry) && this.entries.get(entry.event.uid) === entry) {
            act(entry);
            acted++;
          }
          if (slice.spent()) break;
        }
      });
      if (i < entries.length) await yieldToEventLoop();
    }
    return acted;
  }

  /**
   * A new cap (the storeCap setting changed). Raised, later events are kept; lowered, the
   * events seen longest ago go, in slices that yield to the event loop (at 200,000 events
   * dropping 180,000 at once would block for a second), the views moving as they go.
   * Resolves with how many were dropped.
   */
  async setMaxEvents(maxEvents: number): Promise<number> {
    this.maxEvents = Math.max(1, maxEvents);
    if (this.maxEvents >= this.cap) {
      this.cap = this.maxEvents;
      return 0;
    }
    this.cap = Math.max(this.maxEvents, Math.min(this.cap, this.size));
    let dropped = 0;
    while (this.cap > this.maxEvents) {
      const slice = new Slice();
      this.batch(() => {
        while (this.cap > this.maxEvents && !slice.spent()) {
          this.cap--;
          while (this.entries.size > this.cap) {
            this.evictOldest();
            dropped++;
          }
        }
      });
      if (this.cap > this.maxEvents) await yieldToEventLoop();
    }
    return dropped;
  }

  /** A new history window (the historyWindowHours setting changed): history now older than it goes. */
  setHistoryWindow(ms: number): Promise<number> {
    this.historyWindowMs = ms;
    return this.pruneHistory();
  }

  /** Forgets everything (a context switch) and lets go of the history file: save it first. */
  clear(): void {
    this.history?.detach();
    this.history = undefined;
    this.entries.clear();
    this.byName.clear();
    this.groupSizes.clear();
    this.evictionOrder.clear();
    this.liveWarnings = 0;
    this.unseenWarnings.markSeen();
    for (const v of this.views) v.cleared();
    this.pendingAll = true;
    this.flushUnlessBatching();
  }

  /**
   * A view through `filter` in `order`, kept up to date until disposed. It is built in
   * slices that yield to the event loop: it shows what it has so far, and `ready` settles
   * when it holds everything.
   */
  liveView(filter: EventFilter = NO_FILTER, order: SortOrder = 'lastSeen'): LiveView {
    const view = new LiveView(this.source, filter, order, 'sliced');
    this.views.add(view);
    return view;
  }

  /**
   * Every group, newest first, with the events the filter lets through (groups left empty
   * are left out). The view of the last few filters read is kept up to date, so reading it
   * again costs only what changed; a new filter builds its view at once (see liveView for
   * one that does not block).
   */
  view(filter: EventFilter = NO_FILTER): EventGroup[] {
    return [...this.keptView(filter).groups()];
  }

  /** One group through a filter, or undefined when none of its events pass. */
  group(key: string, filter: EventFilter = NO_FILTER): EventGroup | undefined {
    return this.keptView(filter).group(key);
  }

  /**
   * Reads the history of a cluster (an opaque identity: the connection passes server,
   * user and context) in slices, its events visible as they come; from then on saves go to
   * that cluster's log. Events that were live are taken as live until the next list says
   * otherwise. Returns how many events the log held.
   */
  async loadHistory(identity: string): Promise<number> {
    this.history?.detach();
    this.history = undefined;
    if (!this.historyFolder) return 0;
    const history = new StoreHistory(identity, this.historyFolder, this.historyTarget(), this.onHistoryError);
    this.history = history;
    return history.load();
  }

  /** Writes what changed since the last save to the cluster's log; nothing if nothing changed. Never rejects. */
  saveHistory(): Promise<void> {
    return this.history?.save() ?? Promise.resolve();
  }

  /** The history log in use, if any (for tests and the benchmark). */
  get historyLog(): StoreHistory | undefined {
    return this.history;
  }

  private historyTarget(): ConstructorParameters<typeof StoreHistory>[2] {
    return {
      size: () => this.size,
      events: () => Array.from(this.entries.values(), (e) => e.event),
      batch: (f) => this.batch(f),
      replayPut: (e) => {
        const current = this.entries.get(e.uid);
        if (!current || current.fromHistory) this.put(e, true);
      },
      replayDelete: (uid) => {
        const current = this.entries.get(uid);
        if (current?.fromHistory) this.drop(current, true);
      },
      pruneHistory: () => this.pruneHistory(),
    };
  }

  private keptView(filter: EventFilter): LiveView {
    let view = this.keptViews.get(filter);
    if (view) {
      this.keptViews.delete(filter);
    } else {
      view = new LiveView(this.source, filter, 'lastSeen', 'atOnce');
      this.views.add(view);
      if (this.keptViews.size >= KEPT_VIEWS) {
        const [oldest, old] = this.keptViews.entries().next().value as [EventFilter, LiveView];
        this.keptViews.delete(oldest);
        old.dispose();
      }
    }
    this.keptViews.set(filter, view);
    return view;
  }

  /** Stores an event; `replay`: read from the history log (not a change to save or to badge). */
  private put(e: ClusterEvent, replay: boolean): void {
    const previousUid = this.byName.get(e.namespace, e.name);
    // The server's copy of an event we recorded locally takes the local one's place.
    if (previousUid !== undefined && previousUid !== e.uid) {
      const previous = this.entries.get(previousUid);
      if (previous && (previous.event.origin === 'local' || e.origin === 'local')) {
        if (e.origin === 'local' && previous.event.origin !== 'local' && !previous.event.expiredAt) return;
        this.drop(previous, replay);
      }
    }
    const old = this.entries.get(e.uid);
    // At the cap, a new event older than all it holds would be the one dropped at once: it is
    // counted as dropped and never linked. A capped list of 200,000 is two thirds these, each
    // otherwise put into every view and taken out again. No entry is made for it: its object's
    // key, cached on the shared object and never hashed, would stay an unflattened chain of
    // concatenations (8 MiB more heap after that list).
    if (!old && this.entries.size === this.cap && this.evictionOrder.olderThanAll(sortTime(e))) {
      this.history?.noteDelete(e.uid);
      this.unseenWarnings.removed(e.uid);
      this.countEviction();
      this.pending ??= new Set();
      return;
    }
    if (old) this.unlink(old);
    this.link(newEntry(e, ++this.seq, replay));
    if (!replay) {
      this.history?.noteSet(e);
      this.unseenWarnings.stored(old?.event, e);
    }
    // The oldest go first, one for one: never the newest, never more than needed.
    while (this.entries.size > this.cap) this.evictOldest();
  }

  /** Drops the event seen longest ago, to stay under the cap. */
  private evictOldest(): void {
    this.drop(this.evictionOrder.peek() as StoreEntry, false);
    this.countEviction();
  }

  private countEviction(): void {
    this.evictions++;
    this.pendingEvicted++;
  }

  /** Removes an event: pruned, evicted, or replaced by its server copy. */
  private drop(entry: StoreEntry, replay: boolean): void {
    this.unlink(entry);
    if (!replay) this.history?.noteDelete(entry.event.uid);
    this.unseenWarnings.removed(entry.event.uid);
  }

  private link(entry: StoreEntry): void {
    const e = entry.event;
    this.entries.set(e.uid, entry);
    this.byName.set(e.namespace, e.name, e.uid);
    this.groupSizes.set(entry.key, (this.groupSizes.get(entry.key) ?? 0) + 1);
    this.evictionOrder.push(entry);
    if (isLiveWarning(e)) this.liveWarnings++;
    for (const v of this.views) v.added(entry);
    for (const l of this.storedListeners) l(e);
    this.changed(entry.key);
  }

  private unlink(entry: StoreEntry): void {
    const e = entry.event;
    this.entries.delete(e.uid);
    this.byName.deleteIf(e.namespace, e.name, e.uid);
    const n = (this.groupSizes.get(entry.key) ?? 1) - 1;
    if (n > 0) this.groupSizes.set(entry.key, n);
    else this.groupSizes.delete(entry.key);
    this.evictionOrder.remove(entry);
    if (isLiveWarning(e)) this.liveWarnings--;
    for (const v of this.views) v.removed(entry);
    this.changed(entry.key);
  }

  private changed(key: string): void {
    (this.pending ??= new Set()).add(key);
  }

  private flushUnlessBatching(): void {
    if (this.batchDepth === 0) this.flush();
  }

  private flush(): void {
    if (!this.pending && !this.pendingAll) return;
    const change: StoreChange = { groups: this.pending ?? new Set(), all: this.pendingAll, evicted: this.pendingEvicted };
    this.pending = undefined;
    this.pendingAll = false;
    this.pendingEvicted = 0;
    for (const v of this.views) v.flush(change.evicted);
    for (const l of this.listeners) l(change);
  }
}
