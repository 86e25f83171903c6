// What the cluster says about each manifest resource: the stored events about the objects it
// may be, and about what those objects own (a Deployment's ReplicaSets and Pods, through the
// owner index), so a workload's manifest carries its pods' warnings. Kept per object as the
// store changes: a new event costs its object's owner chain and the resources that chain
// names, never a walk of the workspace.
import { sortTime, type ClusterEvent, type InvolvedObject } from '../clusterEvent';
import type { EventGroup, StoreChange } from '../eventStore';
import type { OwnerIndex } from '../ownerIndex';
import { Slice, yieldToEventLoop } from '../slices';
import type { IndexEntry, ManifestIndex } from './manifestIndex';

/** One warning reason about a resource, as the Problems panel shows it. */
export interface WarningLine {
  readonly reason: string;
  /** The events' counts added up (how often it happened). */
  readonly count: number;
  readonly lastSeen: number;
  /** The newest event's message and object. */
  readonly message: string;
  readonly object: InvolvedObject;
}

export interface ResourceStatus {
  /** Events stored about it and what it owns. */
  readonly events: number;
  /** Live warnings seen within the window, the newest reason first. */
  readonly warnings: readonly WarningLine[];
  readonly lastSeen: number | undefined;
  /** The live objects its events are about, the resource's own first (what Show Events shows). */
  readonly objects: readonly InvolvedObject[];
}

export interface StatusSource {
  group(key: string): EventGroup | undefined;
  view(): readonly EventGroup[];
}

const resourceKey = (file: string, index: number) => `${file}\u0000${index}`;

/** Which event groups count for which resources, both ways. */
class Mapping {
  /** Event group → the resources it counts for. */
  readonly byGroup = new Map<string, IndexEntry[]>();
  /** Resource → the event groups counted for it. */
  readonly byResource = new Map<string, Set<string>>();

  files(): Set<string> {
    const files = new Set<string>();
    for (const entries of this.byGroup.values()) for (const e of entries) files.add(e.file);
    return files;
  }

  place(key: string, entries: readonly IndexEntry[], files: Set<string>): void {
    for (const e of this.byGroup.get(key) ?? []) {
      files.add(e.file);
      this.byResource.get(resourceKey(e.file, e.index))?.delete(key);
    }
    this.byGroup.delete(key);
    if (!entries.length) return;
    this.byGroup.set(key, [...entries]);
    for (const e of entries) {
      files.add(e.file);
      const rk = resourceKey(e.file, e.index);
      let set = this.byResource.get(rk);
      if (!set) this.byResource.set(rk, (set = new Set()));
      set.add(key);
    }
  }
}

export class ManifestStatus {
  private mapping = new Mapping();
  /** Groups changed while a rebuild was under way: placed again once it is done. */
  private changedDuringRebuild: Set<string> | undefined;

  constructor(
    private readonly source: StatusSource,
    private readonly owners: OwnerIndex,
    private readonly index: ManifestIndex,
  ) {}

  private get byResource(): Map<string, Set<string>> {
    return this.mapping.byResource;
  }

  /** The store changed: maps the changed groups again; returns the files whose status may have changed. */
  update(change: Pick<StoreChange, 'groups' | 'all'>): Set<string> {
    if (change.all) return this.rebuild();
    const files = new Set<string>();
    for (const key of change.groups) {
      this.mapping.place(key, this.entriesOf(this.source.group(key)), files);
      this.changedDuringRebuild?.add(key);
    }
    return files;
  }

  /** Maps every group again (the manifests, the owners or the context changed), at once. */
  rebuild(): Set<string> {
    const before = this.mapping;
    const files = before.files();
    this.mapping = new Mapping();
    for (const g of this.source.view()) this.mapping.place(g.key, this.entriesOf(g), files);
    return files;
  }

  /**
   * The same in slices that yield to the event loop (at 15,000 objects it takes 100 ms in one
   * go): built aside and swapped in whole, so nothing reads a half-built mapping; groups the
   * store changed meanwhile are placed again after.
   */
  async rebuildInSlices(): Promise<Set<string>> {
    const next = new Mapping();
    const files = this.mapping.files();
    this.changedDuringRebuild = new Set();
    let slice = new Slice();
    for (const key of this.source.view().map((g) => g.key)) {
      next.place(key, this.entriesOf(this.source.group(key)), files);
      if (slice.spent()) {
        await yieldToEventLoop();
        slice = new Slice();
      }
    }
    const changed = this.changedDuringRebuild;
    this.changedDuringRebuild = undefined;
    this.mapping = next;
    for (const key of changed) next.place(key, this.entriesOf(this.source.group(key)), files);
    return files;
  }

  private entriesOf(group: EventGroup | undefined): IndexEntry[] {
    if (!group) return [];
    const entries: IndexEntry[] = [];
    for (const link of this.owners.chain(group.object)) entries.push(...this.index.find(link));
    return entries;
  }

  /** Whether any stored event maps to the resource. */
  hasEvents(file: string, index: number): boolean {
    return (this.byResource.get(resourceKey(file, index))?.size ?? 0) > 0;
  }

  /** The resource's events and its live warnings seen since `since` (ms). */
  status(file: string, index: number, since: number): ResourceStatus {
    const keys = this.byResource.get(resourceKey(file, index));
    let events = 0;
    let lastSeen: number | undefined;
    const objects: InvolvedObject[] = [];
    const byReason = new Map<string, { count: number; newest: ClusterEvent }>();
    const own = this.index.liveNames(file, index);
    for (const key of keys ?? []) {
      const g = this.source.group(key);
      if (!g) continue;
      events += g.count;
      lastSeen = Math.max(lastSeen ?? 0, g.lastSeen);
      if (own.some((n) => n.kind === g.object.kind && n.name === g.object.name)) objects.unshift(g.object);
      else objects.push(g.object);
      if (!g.warnings) continue;
      for (const e of g.events) {
        if (e.type !== 'Warning' || e.expiredAt !== undefined || sortTime(e) < since) continue;
        const w = byReason.get(e.reason);
        if (!w) byReason.set(e.reason, { count: e.count, newest: e });
        else {
          w.count += e.count;
          if (sortTime(e) > sortTime(w.newest)) w.newest = e;
        }
      }
    }
    const warnings = [...byReason].map(([reason, w]): WarningLine => ({ reason, count: w.count, lastSeen: sortTime(w.newest), message: w.newest.message, object: w.newest.involvedObject }));
    warnings.sort((a, b) => b.lastSeen - a.lastSeen || a.reason.localeCompare(b.reason));
    return { events, warnings, lastSeen, objects };
  }

  /** The newest `limit` events about the resource and what it owns, newest first. */
  newest(file: string, index: number, limit: number): ClusterEvent[] {
    const out: ClusterEvent[] = [];
    for (const key of this.byResource.get(resourceKey(file, index)) ?? []) out.push(...(this.source.group(key)?.newest(limit) ?? []));
    return out.sort((a, b) => sortTime(b) - sortTime(a)).slice(0, limit);
  }

  /** How many live warning reasons since `since` a file's resources carry. */
  fileWarnings(file: string, since: number): number {
    let n = 0;
    const resources = this.index.resources(file);
    for (let i = 0; i < resources.length; i++) if (this.hasEvents(file, i)) n += this.status(file, i, since).warnings.length;
    return n;
  }
}
