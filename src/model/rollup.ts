// Events rolled up under their workload: each object's group hangs under its owner's node,
// up to the top owner (a Deployment, a CronJob, a StatefulSet, a DaemonSet, or the object
// itself when it has no owner we know of). Every node sums the events, live warnings and
// newest time of everything beneath it.
import { objectKey, type ClusterEvent, type InvolvedObject } from './clusterEvent';
import type { EventGroup } from './eventStore';
import type { SortOrder } from './groupOrder';
import type { OwnerIndex } from './ownerIndex';
import { Slice, yieldToEventLoop } from './slices';

export interface RollupNode {
  /** Unique in the tree: the store's group key when the object has events, else `owner:<uid>`. */
  readonly key: string;
  readonly object: InvolvedObject;
  /** The object's own events (undefined when it has none). */
  group: EventGroup | undefined;
  readonly children: RollupNode[];
  parent: RollupNode | undefined;
  /** Sums over the node and everything beneath it. */
  events: number;
  warnings: number;
  lastSeen: number;
  newest: ClusterEvent | undefined;
}

function identity(o: InvolvedObject): string {
  return o.uid ? `uid:${o.uid}` : `key:${objectKey(o)}`;
}

const ORDER: Record<SortOrder, (a: RollupNode, b: RollupNode) => number> = {
  lastSeen: (a, b) => b.lastSeen - a.lastSeen || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  warnings: (a, b) => b.warnings - a.warnings || b.lastSeen - a.lastSeen || (a.key < b.key ? -1 : 1),
  name: (a, b) => a.object.name.localeCompare(b.object.name) || a.object.kind.localeCompare(b.object.kind) || a.object.namespace.localeCompare(b.object.namespace),
};

/**
 * The workload trees of a view's groups, kept current: after a refresh only the groups that
 * changed, the objects whose owners changed and their ancestors are worked on, so a refresh
 * costs what changed, not the size of the store.
 */
export class Rollup {
  private readonly byIdentity = new Map<string, RollupNode>();
  private readonly identityOf = new Map<RollupNode, string>();
  private readonly byKey = new Map<string, RollupNode>();
  private readonly rootSet = new Set<RollupNode>();
  private sortedRoots: RollupNode[] | undefined;
  private readonly dirty = new Set<RollupNode>();
  private readonly maybeEmpty = new Set<RollupNode>();
  private moved = new Set<string>();
  private ownersSeen: number;

  constructor(
    private readonly owners: OwnerIndex,
    private readonly order: SortOrder,
    groups: Iterable<EventGroup>,
  ) {
    this.ownersSeen = owners.version;
    for (const g of groups) this.place(g);
    this.settle();
    this.moved = new Set();
  }

  /** Top owners first, in the order asked for. */
  get roots(): readonly RollupNode[] {
    return (this.sortedRoots ??= [...this.rootSet].sort(ORDER[this.order]));
  }

  node(key: string): RollupNode | undefined {
    return this.byKey.get(key);
  }

  /**
   * Takes in the groups that changed, appeared or went (`group` reads one through the view)
   * and any change of owners. Returns the keys of nodes that went, moved to another parent,
   * or changed key: rows made for them are stale.
   */
  update(changed: Iterable<string>, group: (key: string) => EventGroup | undefined): ReadonlySet<string> {
    for (const key of changed) {
      const g = group(key);
      if (g) this.place(g);
      else this.removeGroup(key);
    }
    if (this.owners.version !== this.ownersSeen) {
      const uids = this.owners.changedSince(this.ownersSeen);
      this.ownersSeen = this.owners.version;
      const relink = uids ? uids.map((uid) => this.byIdentity.get(`uid:${uid}`)) : [...this.byIdentity.values()];
      for (const n of relink) if (n && this.byKey.get(n.key) === n) this.link(n);
    }
    this.settle();
    const moved = this.moved;
    this.moved = new Set();
    return moved;
  }

  private place(g: EventGroup): void {
    const known = this.byKey.get(g.key);
    if (known) {
      known.group = g;
      this.markDirty(known);
      return;
    }
    let id = identity(g.object);
    const same = this.byIdentity.get(id);
    // Two groups of one uid (seldom: a kind spelt two ways) keep a node each.
    if (same?.group) id = `key:${g.key}`;
    const node = this.nodeFor(g.object, id);
    this.rekey(node, g.key);
    node.group = g;
    (node as { object: InvolvedObject }).object = g.object;
    this.link(node);
    this.markDirty(node);
  }

  private removeGroup(key: string): void {
    const node = this.byKey.get(key);
    if (!node?.group) return;
    node.group = undefined;
    const placeholder = ownerKey(node.object);
    // A second node of the same uid (see place) takes a key of its own.
    this.rekey(node, this.byKey.has(placeholder) ? `owner:${key}` : placeholder);
    this.markDirty(node);
    this.maybeEmpty.add(node);
  }

  private nodeFor(o: InvolvedObject, id = identity(o)): RollupNode {
    let node = this.byIdentity.get(id);
    if (!node) {
      node = { key: ownerKey(o), object: o, group: undefined, children: [], parent: undefined, events: 0, warnings: 0, lastSeen: 0, newest: undefined };
      this.byIdentity.set(id, node);
      this.identityOf.set(node, id);
      this.byKey.set(node.key, node);
      this.rootSet.add(node);
      this.sortedRoots = undefined;
      this.maybeEmpty.add(node);
    }
    return node;
  }

  private rekey(node: RollupNode, key: string): void {
    if (node.key === key) return;
    this.byKey.delete(node.key);
    this.moved.add(node.key);
    (node as { key: string }).key = key;
    this.byKey.set(key, node);
  }

  /** Hangs the node under its owner, its owner under its own, up to the top. */
  private link(node: RollupNode): void {
    const chain = this.owners.chain(node.object);
    let child = node;
    for (let i = 1; i < chain.length; i++) {
      const parent = this.nodeFor(chain[i]);
      if (!this.attach(child, parent)) return;
      child = parent;
    }
    this.attach(child, undefined);
  }

  /** False when the parent is the child or beneath it (a loop in ownerReferences). */
  private attach(child: RollupNode, parent: RollupNode | undefined): boolean {
    if (child.parent === parent) return true;
    for (let p = parent; p; p = p.parent) if (p === child) return false;
    const old = child.parent;
    if (old) {
      old.children.splice(old.children.indexOf(child), 1);
      this.markDirty(old);
      this.maybeEmpty.add(old);
    } else {
      this.rootSet.delete(child);
    }
    child.parent = parent;
    if (parent) {
      parent.children.push(child);
      this.markDirty(parent);
    } else {
      this.rootSet.add(child);
    }
    this.sortedRoots = undefined;
    this.moved.add(child.key);
    this.markDirty(child);
    return true;
  }

  private markDirty(node: RollupNode): void {
    for (let n: RollupNode | undefined = node; n && !this.dirty.has(n); n = n.parent) this.dirty.add(n);
  }

  /** Drops owners left with nothing beneath them, then sums and sorts what changed, deepest first. */
  private settle(): void {
    for (const step of this.settling()) void step;
  }

  /** settle() one node at a time, for a build in slices. */
  private *settling(): Generator<void> {
    for (let n of this.maybeEmpty) {
      while (n && !n.group && n.children.length === 0 && this.byKey.get(n.key) === n) {
        const parent = n.parent;
        this.attach(n, undefined);
        this.rootSet.delete(n);
        this.byKey.delete(n.key);
        this.byIdentity.delete(this.identityOf.get(n) ?? '');
        this.identityOf.delete(n);
        this.moved.add(n.key);
        this.dirty.delete(n);
        if (!parent) break;
        n = parent;
      }
    }
    this.maybeEmpty.clear();
    const depth = (n: RollupNode) => {
      let d = 0;
      for (let p = n.parent; p; p = p.parent) d++;
      return d;
    };
    const work = [...this.dirty].map((n) => ({ n, d: depth(n) })).sort((a, b) => b.d - a.d);
    this.dirty.clear();
    for (const { n } of work) {
      if (this.byKey.get(n.key) !== n) continue;
      total(n, this.order);
      if (!n.parent) this.sortedRoots = undefined;
      yield;
    }
  }

  /** The steps of building a roll-up of these groups: one per group placed, then one per node summed. */
  static *building(owners: OwnerIndex, order: SortOrder, groups: readonly EventGroup[]): Generator<void, Rollup> {
    const r = new Rollup(owners, order, []);
    for (const g of groups) {
      r.place(g);
      yield;
    }
    yield* r.settling();
    r.moved = new Set();
    // Sorting the top level is part of the build, not of the first read.
    void r.roots;
    return r;
  }
}

/**
 * A roll-up built in slices, so a large store never holds the event loop for long: `step`
 * works until its slice is spent (a small store is done at once); `finish` goes on between
 * turns of the event loop until done or cancelled. Changes made to the view meanwhile are
 * for `Rollup.update` once it is built.
 */
export class RollupBuild {
  private readonly steps: Generator<void, Rollup>;
  private result: Rollup | undefined;
  private running: Promise<Rollup | undefined> | undefined;
  cancelled = false;

  constructor(owners: OwnerIndex, order: SortOrder, groups: readonly EventGroup[]) {
    this.steps = Rollup.building(owners, order, groups);
  }

  /** Works for one slice; the roll-up once it is built. */
  step(slice = new Slice()): Rollup | undefined {
    while (!this.result) {
      const next = this.steps.next();
      if (next.done) this.result = next.value;
      else if (slice.spent()) break;
    }
    return this.result;
  }

  /** Steps between turns of the event loop until built (undefined when cancelled first). */
  finish(): Promise<Rollup | undefined> {
    return (this.running ??= (async () => {
      for (;;) {
        const done = this.step();
        if (done || this.cancelled) return this.cancelled ? undefined : done;
        await yieldToEventLoop();
      }
    })());
  }
}

/** Sums the node's own group and its children's sums (already current), and orders its children. */
function total(n: RollupNode, order: SortOrder): void {
  // count and newest(1) read the group without building its list of events.
  n.events = n.group?.count ?? 0;
  n.warnings = n.group?.warnings ?? 0;
  n.newest = n.group?.newest(1)[0];
  n.lastSeen = n.group?.lastSeen ?? 0;
  for (const c of n.children) {
    n.events += c.events;
    n.warnings += c.warnings;
    if (c.lastSeen > n.lastSeen) {
      n.lastSeen = c.lastSeen;
      n.newest = c.newest;
    }
  }
  n.children.sort(ORDER[order]);
}

function ownerKey(o: InvolvedObject): string {
  return `owner:${o.uid || objectKey(o)}`;
}

/** The workload trees of these groups, top owners first in the given order (built once). */
export function buildRollup(groups: readonly EventGroup[], owners: OwnerIndex, order: SortOrder): RollupNode[] {
  return [...new Rollup(owners, order, groups).roots];
}
