// The event store: events by UID, grouped by the object they are about, newest first by
// time. Deleted or expired events stay as history for a while; memory is capped, oldest
// groups going first. A filtered view is kept up to date group by group.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { objectKey, sortTime, type ClusterEvent, type InvolvedObject } from './clusterEvent';
import { matchesFilter, NO_FILTER, type EventFilter } from './filters';

/** The history file's format version; a file of another version is ignored. */
const HISTORY_FORMAT = 1;
/** Evicting goes down to this share of the cap, so a burst does not evict on every event. */
const EVICT_TO = 0.95;

/** Events the store holds at most by default (live and history together). */
export const DEFAULT_MAX_EVENTS = 20_000;
/** How long a deleted or expired event stays as history by default. */
export const DEFAULT_HISTORY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface StoreOptions {
  readonly maxEvents?: number;
  readonly historyWindowMs?: number;
  /** Milliseconds since the epoch. */
  readonly now?: () => number;
  /** A folder to keep the history in across restarts (the extension's storage folder). */
  readonly historyFolder?: string;
}

/** The events of one involved object, newest first. */
export interface EventGroup {
  readonly key: string;
  readonly object: InvolvedObject;
  /** Newest first. */
  readonly events: readonly ClusterEvent[];
  /** The newest event's time. */
  readonly lastSeen: number;
  readonly warnings: number;
}

/** What changed: the keys of the groups touched, and whether everything may have. */
export interface StoreChange {
  readonly groups: ReadonlySet<string>;
  readonly all: boolean;
}

interface MutableGroup {
  readonly key: string;
  object: InvolvedObject;
  readonly events: Map<string, ClusterEvent>;
  /** Set when events changed; the sorted list is rebuilt on the next read. */
  sorted: ClusterEvent[] | undefined;
  lastSeen: number;
  /** The last filtered result and the filter it was for, until the group changes. */
  filtered: { filter: EventFilter; group: EventGroup | undefined } | undefined;
}

function byTimeNewestFirst(a: ClusterEvent, b: ClusterEvent): number {
  // Time first; at equal times the later resourceVersion, then the name, keep the order stable.
  return sortTime(b) - sortTime(a) || Number(b.resourceVersion || 0) - Number(a.resourceVersion || 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

export class EventStore {
  private readonly events = new Map<string, ClusterEvent>();
  /** namespace/name → uid, so a local event is replaced by its copy from the server. */
  private readonly byName = new Map<string, string>();
  private readonly groups = new Map<string, MutableGroup>();
  private readonly listeners = new Set<(c: StoreChange) => void>();
  private readonly maxEvents: number;
  private readonly historyWindowMs: number;
  private readonly now: () => number;
  private readonly historyFolder: string | undefined;
  /** Events dropped to stay under maxEvents. */
  evictions = 0;
  private pending: Set<string> | undefined;
  private pendingAll = false;
  private batchDepth = 0;

  constructor(options: StoreOptions = {}) {
    this.maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.historyWindowMs = options.historyWindowMs ?? DEFAULT_HISTORY_WINDOW_MS;
    this.now = options.now ?? Date.now;
    this.historyFolder = options.historyFolder;
  }

  /** The history file of one cluster context: a safe file name derived from the context's. */
  private historyFile(name: string): string | undefined {
    return this.historyFolder && path.join(this.historyFolder, `history-${encodeURIComponent(name).replace(/%/g, '_')}.json`);
  }

  /**
   * Reads the saved history: every event comes back as it was, and those that were live are
   * taken as live until the next list says otherwise. Returns how many were read.
   */
  loadHistory(name: string): number {
    const file = this.historyFile(name);
    if (!file || !fs.existsSync(file)) return 0;
    let saved: { format?: number; events?: ClusterEvent[] };
    try {
      saved = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof saved;
    } catch {
      return 0; // A damaged file loses the history, never the live view.
    }
    if (saved.format !== HISTORY_FORMAT || !Array.isArray(saved.events)) return 0;
    this.batch(() => {
      for (const e of saved.events as ClusterEvent[]) this.upsert(e);
    });
    this.pruneHistory();
    return saved.events.length;
  }

  /** Writes every event (live and history) to the history file, atomically. */
  saveHistory(name: string): void {
    const file = this.historyFile(name);
    if (!file) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ format: HISTORY_FORMAT, savedAt: this.now(), events: [...this.events.values()] }));
    fs.renameSync(tmp, file);
  }

  get size(): number {
    return this.events.size;
  }

  get groupCount(): number {
    return this.groups.size;
  }

  get(uid: string): ClusterEvent | undefined {
    return this.events.get(uid);
  }

  all(): IterableIterator<ClusterEvent> {
    return this.events.values();
  }

  onDidChange(listener: (c: StoreChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
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

  /** Adds or replaces an event (ADDED, MODIFIED, or a list item). */
  upsert(e: ClusterEvent): void {
    const nameKey = `${e.namespace}/${e.name}`;
    const previousUid = this.byName.get(nameKey);
    // The server's copy of an event we recorded locally takes the local one's place.
    if (previousUid !== undefined && previousUid !== e.uid) {
      const previous = this.events.get(previousUid);
      if (previous && (previous.origin === 'local' || e.origin === 'local')) {
        if (e.origin === 'local' && previous.origin !== 'local' && !previous.expiredAt) return;
        this.delete(previousUid);
      }
    }
    const old = this.events.get(e.uid);
    if (old && objectKey(old.involvedObject) !== objectKey(e.involvedObject)) this.delete(e.uid);
    this.events.set(e.uid, e);
    this.byName.set(nameKey, e.uid);
    const key = objectKey(e.involvedObject);
    let group = this.groups.get(key);
    if (!group) {
      group = { key, object: e.involvedObject, events: new Map(), sorted: undefined, lastSeen: 0, filtered: undefined };
      this.groups.set(key, group);
    }
    group.events.set(e.uid, e);
    group.sorted = undefined;
    group.filtered = undefined;
    group.lastSeen = Math.max(group.lastSeen, sortTime(e));
    this.changed(key);
    if (this.events.size > this.maxEvents) this.evictOldestGroups();
  }

  /** A DELETED event (TTL or by hand): kept as history, marked expired. */
  expire(uid: string): void {
    const e = this.events.get(uid);
    if (!e || e.expiredAt !== undefined) return;
    this.upsert({ ...e, expiredAt: this.now() });
  }

  /**
   * After a (re)list of one origin (and namespace, if the list was of one): events it no
   * longer has were deleted while we were not watching, so they become history. Returns how many.
   */
  reconcile(origin: ClusterEvent['origin'], listed: ReadonlySet<string>, namespace?: string): number {
    let expired = 0;
    this.batch(() => {
      for (const e of [...this.events.values()]) {
        if (e.origin === origin && e.expiredAt === undefined && !listed.has(e.uid) && (namespace === undefined || e.namespace === namespace)) {
          this.expire(e.uid);
          expired++;
        }
      }
    });
    return expired;
  }

  /** Drops history older than the window. */
  pruneHistory(): number {
    const cutoff = this.now() - this.historyWindowMs;
    let pruned = 0;
    this.batch(() => {
      for (const e of [...this.events.values()]) {
        if (e.expiredAt !== undefined && e.expiredAt < cutoff) {
          this.delete(e.uid);
          pruned++;
        }
      }
    });
    return pruned;
  }

  /** Forgets everything (a context switch). */
  clear(): void {
    this.events.clear();
    this.byName.clear();
    this.groups.clear();
    this.pendingAll = true;
    this.flushUnlessBatching();
  }

  /** Every group, newest first, with the events the filter lets through (groups left empty are left out). */
  view(filter: EventFilter = NO_FILTER): EventGroup[] {
    const out: EventGroup[] = [];
    for (const g of this.groups.values()) {
      const group = this.filteredGroup(g, filter);
      if (group) out.push(group);
    }
    return out.sort((a, b) => b.lastSeen - a.lastSeen || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** One group through a filter, or undefined when none of its events pass. */
  group(key: string, filter: EventFilter = NO_FILTER): EventGroup | undefined {
    const g = this.groups.get(key);
    return g && this.filteredGroup(g, filter);
  }

  /** Only groups that changed since the last read with this filter are filtered again. */
  private filteredGroup(g: MutableGroup, filter: EventFilter): EventGroup | undefined {
    if (g.filtered?.filter === filter) return g.filtered.group;
    const group = this.filterGroup(g, filter);
    g.filtered = { filter, group };
    return group;
  }

  private filterGroup(g: MutableGroup, filter: EventFilter): EventGroup | undefined {
    g.sorted ??= [...g.events.values()].sort(byTimeNewestFirst);
    const events = filter === NO_FILTER ? g.sorted : g.sorted.filter((e) => matchesFilter(e, filter));
    if (events.length === 0) return undefined;
    let warnings = 0;
    for (const e of events) if (e.type === 'Warning' && e.expiredAt === undefined) warnings++;
    return { key: g.key, object: g.object, events, lastSeen: sortTime(events[0]), warnings };
  }

  private delete(uid: string): void {
    const e = this.events.get(uid);
    if (!e) return;
    this.events.delete(uid);
    const nameKey = `${e.namespace}/${e.name}`;
    if (this.byName.get(nameKey) === uid) this.byName.delete(nameKey);
    const key = objectKey(e.involvedObject);
    const g = this.groups.get(key);
    if (g) {
      g.events.delete(uid);
      g.sorted = undefined;
      g.filtered = undefined;
      if (g.events.size === 0) this.groups.delete(key);
      else {
        let last = 0;
        for (const x of g.events.values()) last = Math.max(last, sortTime(x));
        g.lastSeen = last;
      }
    }
    this.changed(key);
  }

  /** Drops whole groups, the ones seen longest ago first, until under the cap. */
  private evictOldestGroups(): void {
    const target = Math.floor(this.maxEvents * EVICT_TO);
    const oldestFirst = [...this.groups.values()].sort((a, b) => a.lastSeen - b.lastSeen);
    for (const g of oldestFirst) {
      if (this.events.size <= target) break;
      for (const uid of [...g.events.keys()]) {
        this.delete(uid);
        this.evictions++;
      }
    }
  }

  private changed(key: string): void {
    (this.pending ??= new Set()).add(key);
    this.flushUnlessBatching();
  }

  private flushUnlessBatching(): void {
    if (this.batchDepth === 0) this.flush();
  }

  private flush(): void {
    if (!this.pending && !this.pendingAll) return;
    const change: StoreChange = { groups: this.pending ?? new Set(), all: this.pendingAll };
    this.pending = undefined;
    this.pendingAll = false;
    for (const l of this.listeners) l(change);
  }
}
