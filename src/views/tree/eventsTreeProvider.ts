// The Events view's data: status rows, then involved objects (each on its own, under their
// namespace, or rolled up under their workload), their events beneath, newest first. What
// it shows comes from one of the store's live views (filtered and ordered as the view is),
// so a refresh costs what changed, not the store; a new filter or order is built in slices
// and shown when ready. Nodes are kept by id so partial refreshes and reveal work, and
// pruned as objects go. Changes are batched into a few refreshes a second; a pause holds
// them back so rows stay where they are while someone reads.
import * as vscode from 'vscode';
import { objectKey, type ClusterEvent, type InvolvedObject } from '../../model/clusterEvent';
import type { EventGroup, EventStore, LiveView, ViewChange } from '../../model/eventStore';
import { NO_FILTER, type EventFilter } from '../../model/filters';
import type { GroupBy } from '../../common/settingsValidation';
import type { SortOrder } from '../../model/groupOrder';
import { OwnerIndex } from '../../model/ownerIndex';
import { RollupBuild, type Rollup } from '../../model/rollup';
import { AgeTicker } from './ageTicker';
import { FrozenGroup } from './frozenGroup';
import { EventNode } from './nodes/eventNode';
import { GroupNode } from './nodes/groupNode';
import { MoreNode } from './nodes/moreNode';
import { NamespaceNode } from './nodes/namespaceNode';
import type { RenderContext, TreeNode } from './nodes/treeNode';

/** Refreshes are batched this long, so a burst of events costs a few redraws, not one each. */
export const REFRESH_DEBOUNCE_MS = 250;
/** The longest a quick input waits for the tree's last redraw (a slow window shows it anyway). */
const DRAWN_WAIT_MS = 2_000;

export interface TreeOptions {
  readonly groupBy: GroupBy;
  readonly maxChildren: number;
  readonly sortOrder: SortOrder;
}

export class EventsTreeProvider implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly settled = new vscode.EventEmitter<void>();
  /** Fires after a batched refresh has been sent to the view. */
  readonly onDidSettle = this.settled.event;
  private filterNow: EventFilter = NO_FILTER;
  private status: TreeNode[] = [];
  private readonly groupNodes = new Map<string, GroupNode>();
  private readonly eventNodes = new Map<string, Map<string, EventNode>>();
  private readonly namespaceNodes = new Map<string, NamespaceNode>();
  private readonly expanded = new Set<string>();
  /** The live view shown, and the one being built for a new filter or order. */
  private view: LiveView;
  private viewSubscription: { dispose(): void };
  private nextView: LiveView | undefined;
  private pending: Set<string> | undefined;
  private pendingAll = false;
  private timer: NodeJS.Timeout | undefined;
  /** Quick inputs of ours open now (holding), and the age redraws they held back. */
  private holds = 0;
  private readonly heldTicks = new Set<TreeNode>();
  /** While paused: the rows as they were, by key, and the events listed under them, by uid. */
  private frozen: readonly FrozenGroup[] | undefined;
  private frozenByKey: Map<string, FrozenGroup> | undefined;
  private frozenEvents: Map<string, ClusterEvent> | undefined;
  /** In workload mode: the roll-up of the groups shown, kept current with the groups that changed. */
  private rollup: Rollup | undefined;
  /** A roll-up being built in slices (a large store): the rows come when it is done. */
  private rollupBuild: RollupBuild | undefined;
  private readonly rollupChanges = new Set<string>();
  private ownersSeen = -1;
  /** Keys of nodes that moved or left the roll-up since the last prune; undefined: any may have (built afresh). */
  private rollupMoved: Set<string> | undefined = new Set();
  /** Store changes held back by a pause. */
  private heldBack = 0;
  private subscription: { dispose(): void };
  readonly ticker: AgeTicker;
  /** How many refreshes were fired (for tests and the host benchmark). */
  refreshes = 0;

  constructor(
    /** Where the rows come from: the store, or a focused one (see FocusService). */
    public store: EventStore,
    private options: TreeOptions,
    private readonly now: () => number = Date.now,
    /** Who owns what, for the workload roll-up. */
    readonly owners: OwnerIndex = new OwnerIndex(),
  ) {
    // A cleared store (a context switch) leaves no node of the old cluster behind.
    this.subscription = store.onDidChange((c) => c.all && this.forgetAll());
    this.view = store.liveView(NO_FILTER, options.sortOrder);
    this.viewSubscription = this.view.onDidChange((c) => this.schedule(c));
    this.ticker = new AgeTicker((nodes) => this.fireTicked(nodes), () => this.context());
  }

  get filter(): EventFilter {
    return this.filterNow;
  }

  get sortOrder(): SortOrder {
    return this.options.sortOrder;
  }

  get paused(): boolean {
    return this.frozen !== undefined;
  }

  /** Store changes not shown because of a pause. */
  get heldBackChanges(): number {
    return this.heldBack;
  }

  /**
   * Holds every redraw while a quick input of ours is open, and sends what changed when the
   * last one closes. VS Code gives the focus back to a tree view that had it whenever one of
   * its refreshes completes (TreeView.doRefresh), and a quick input that loses the focus
   * closes: one opened from a row, or from a title button (which leaves the focus in the
   * tree), closed by itself as it came when events were arriving.
   */
  private holdRefreshes(): vscode.Disposable {
    this.holds++;
    let released = false;
    return new vscode.Disposable(() => {
      if (released) return;
      released = true;
      if (--this.holds > 0) return;
      if (this.pending || this.pendingAll) this.flushSoon();
      if (this.heldTicks.size === 0) return;
      const ticked = [...this.heldTicks];
      this.heldTicks.clear();
      this.changed.fire(ticked);
    });
  }

  /**
   * Resolves once VS Code has drawn every refresh sent so far (the extension sets it when the
   * view exists). A refresh already on its way when a quick input opens takes the focus back
   * just the same, so the quick input waits for it.
   */
  drawn: () => Promise<void> = () => Promise.resolve();

  /** Asks with a quick input (`ask` shows it and settles when it closes), the tree held meanwhile. */
  async holding<T>(ask: () => Thenable<T>): Promise<T> {
    const hold = this.holdRefreshes();
    try {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.drawn(), new Promise<void>((r) => (timer = setTimeout(r, DRAWN_WAIT_MS)))]);
      clearTimeout(timer);
      return await ask();
    } finally {
      hold.dispose();
    }
  }

  private fireTicked(nodes: TreeNode[]): void {
    if (this.holds > 0) for (const n of nodes) this.heldTicks.add(n);
    else this.changed.fire(nodes);
  }

  /** No change is waiting to be sent to the view. */
  get isSettled(): boolean {
    return this.timer === undefined && !this.pending && !this.pendingAll && !this.rollupBuild;
  }

  /** Shows another store (a focused one, or back to the main one): nothing of the old is kept. */
  setSource(store: EventStore): Promise<void> {
    if (store === this.store) return Promise.resolve();
    this.subscription.dispose();
    this.store = store;
    this.subscription = store.onDidChange((c) => c.all && this.forgetAll());
    this.forgetNodes();
    this.unfreeze();
    return this.useView();
  }

  /** Resolves when the view through the new filter is shown. */
  setFilter(filter: EventFilter): Promise<void> {
    this.filterNow = filter;
    this.unfreeze();
    return this.useView();
  }

  /** A view for the filter and order asked for, built in slices; shown (with one refresh) once ready. */
  private useView(): Promise<void> {
    this.nextView?.dispose();
    const next = this.store.liveView(this.filterNow, this.options.sortOrder);
    this.nextView = next;
    return next.ready.then(() => {
      if (this.nextView !== next) return;
      this.nextView = undefined;
      this.viewSubscription.dispose();
      this.view.dispose();
      this.view = next;
      this.viewSubscription = next.onDidChange((c) => this.schedule(c));
      this.dropRollup();
      this.refreshAll();
    });
  }

  /** The filter is applied (its view is built and shown). */
  get filterApplied(): boolean {
    return this.nextView === undefined;
  }

  get groupBy(): GroupBy {
    return this.options.groupBy;
  }

  setOptions(options: Partial<TreeOptions>): void {
    // Group nodes know their parent: a change of grouping makes new ones.
    const regroup = options.groupBy !== undefined && options.groupBy !== this.options.groupBy;
    const reorder = options.sortOrder !== undefined && options.sortOrder !== this.options.sortOrder;
    if (regroup) this.forgetNodes();
    if (regroup || reorder) this.unfreeze();
    this.options = { ...this.options, ...options };
    if (reorder) void this.useView();
    else this.refreshAll();
  }

  /** The rows above the objects (what the view is doing); an empty list removes them. */
  setStatus(rows: TreeNode[]): void {
    const before = this.status.map((r) => `${r.id}\n${(r as { text?: string }).text ?? ''}`).join('|');
    this.status = rows;
    if (rows.map((r) => `${r.id}\n${(r as { text?: string }).text ?? ''}`).join('|') === before) return;
    if (this.holds > 0) this.refreshAll();
    else this.fireAll();
  }

  /** Holds the rows where they are (the store keeps filling); resume shows what changed. */
  pause(): void {
    if (!this.frozen) {
      const events = new Map<string, ClusterEvent>();
      const view = this.view;
      this.frozen = view.groups().map((g) => new FrozenGroup(g, this.eventNodes.has(g.key), events, () => view.group(g.key)));
      this.frozenByKey = new Map(this.frozen.map((g) => [g.key, g]));
      this.frozenEvents = events;
    }
    this.heldBack = 0;
  }

  resume(): void {
    if (!this.frozen) return;
    this.unfreeze();
    this.dropRollup();
    this.refreshAll();
  }

  /**
   * A pause holds the rows of one view still; asking for another (a filter, warnings only,
   * an object's events, another order or grouping, another cluster) ends it, or the rows
   * held would be the old view's, counted and expanded through the new one.
   */
  private unfreeze(): void {
    this.frozen = undefined;
    this.frozenByKey = undefined;
    this.frozenEvents = undefined;
    this.heldBack = 0;
  }

  /** The groups the view shows now, in its order (a pause keeps the order it had). */
  groups(): readonly EventGroup[] {
    return this.frozen ?? this.view.groups();
  }

  /** How many objects the view shows, without listing them. */
  get shownGroupCount(): number {
    return this.frozen?.length ?? this.view.groupCount;
  }

  /** One group as the view shows it (through its filter). */
  shownGroup(key: string): EventGroup | undefined {
    return this.view.group(key);
  }

  refreshAll(): void {
    this.pendingAll = true;
    this.flushSoon();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.ticker.dispose();
    this.subscription.dispose();
    this.viewSubscription.dispose();
    this.view.dispose();
    this.nextView?.dispose();
    this.changed.dispose();
    this.settled.dispose();
  }

  private schedule(c: ViewChange): void {
    if (this.frozen) {
      // Held back: only the count of what waits is shown (the flush tells the status row).
      this.heldBack += c.all ? 1 : c.groups.size;
      this.flushSoon();
      return;
    }
    if (this.options.groupBy === 'workload') {
      if (c.all) this.dropRollup();
      else for (const key of c.groups) this.rollupChanges.add(key);
    }
    // Namespace rows and workload sums depend on more than the groups that changed.
    if (c.all || c.orderChanged || this.options.groupBy === 'workload') this.pendingAll = true;
    else for (const key of c.groups) (this.pending ??= new Set()).add(key);
    this.flushSoon();
  }

  private flushSoon(): void {
    this.timer ??= setTimeout(() => this.flush(), REFRESH_DEBOUNCE_MS);
  }

  private fireAll(): void {
    this.ticker.forget();
    this.refreshes++;
    this.changed.fire(undefined);
  }

  /** One refresh for everything that changed: the changed groups alone when the top level kept its order. */
  private flush(): void {
    this.timer = undefined;
    // Kept pending: sent when the quick input closes.
    if (this.holds > 0) return;
    const keys = this.pending;
    this.pending = undefined;
    if (this.frozen && !this.pendingAll) {
      this.settled.fire();
      return;
    }
    const all = this.pendingAll;
    this.pendingAll = false;
    if (all) {
      this.pruneNodes();
      this.fireAll();
    } else if (keys && keys.size > 0) {
      const nodes = [...keys].map((k) => this.groupNodes.get(k)).filter((n): n is GroupNode => n !== undefined);
      if (nodes.length > 0) {
        this.refreshes++;
        this.changed.fire(nodes);
      }
    }
    this.settled.fire();
  }

  /** The store was emptied (another cluster): no node, and no paused row, is of it any more. */
  private forgetAll(): void {
    const wasPaused = this.paused;
    this.unfreeze();
    this.forgetNodes();
    // The view told us of the change before the store did, while we were still paused.
    if (wasPaused) this.refreshAll();
  }

  /** A context switch or a new grouping: no node made before is kept. */
  private forgetNodes(): void {
    this.dropRollup();
    this.groupNodes.clear();
    this.eventNodes.clear();
    this.namespaceNodes.clear();
    this.expanded.clear();
    this.ticker.forget();
  }

  /** Nodes held (objects, namespaces, events): as many as the view shows, never more. */
  nodeCount(): number {
    let events = 0;
    for (const m of this.eventNodes.values()) events += m.size;
    return this.groupNodes.size + this.namespaceNodes.size + events;
  }

  /** Owners changed (the roll-up's shape may have): redraw everything in workload mode. */
  ownersChanged(): void {
    if (this.options.groupBy === 'workload') this.refreshAll();
  }

  /** Nodes of objects that left the view are dropped, so the maps stay as large as the view. */
  private pruneNodes(): void {
    if (this.options.groupBy === 'workload') {
      // Nodes whose place in the roll-up changed, or that left it, are made anew.
      this.updateRollup();
      // Still building: its end refreshes everything again.
      if (!this.rollup) return;
      const moved = this.rollupMoved;
      this.rollupMoved = new Set();
      const stale = (key: string, node: GroupNode) => {
        const r = this.rollup?.node(key);
        return !r || (r.parent?.key ?? undefined) !== (node.parent as GroupNode | undefined)?.key;
      };
      for (const key of moved ?? [...this.groupNodes.keys()]) {
        const node = this.groupNodes.get(key);
        if (node && stale(key, node)) {
          this.groupNodes.delete(key);
          this.eventNodes.delete(key);
        }
      }
      return;
    }
    for (const key of this.groupNodes.keys()) {
      if (!this.view.group(key)) {
        this.groupNodes.delete(key);
        this.eventNodes.delete(key);
        this.expanded.delete(key);
      }
    }
    const namespaces = new Set(this.groups().map((g) => g.object.namespace));
    for (const ns of this.namespaceNodes.keys()) if (!namespaces.has(ns)) this.namespaceNodes.delete(ns);
  }

  context(): RenderContext {
    return {
      now: this.now(),
      group: (key) => this.frozenByKey?.get(key) ?? this.view.group(key),
      event: (uid) => this.frozenEvents?.get(uid) ?? this.store.get(uid),
      showNamespace: this.options.groupBy !== 'namespace',
      rollup: (key) => this.rollup?.node(key),
    };
  }

  /** The workload roll-up of what the view shows, current with the changes seen so far; undefined while it is being built. */
  private rollupNow(): Rollup | undefined {
    this.updateRollup();
    return this.rollup;
  }

  private dropRollup(): void {
    this.rollup = undefined;
    if (this.rollupBuild) this.rollupBuild.cancelled = true;
    this.rollupBuild = undefined;
  }

  /** Brings the roll-up up to date (built afresh, in slices, when there is none), noting the nodes that moved for the next prune. */
  private updateRollup(): void {
    if (!this.rollup) {
      if (!this.rollupBuild) {
        this.rollupBuild = new RollupBuild(this.owners, this.options.sortOrder, this.groups());
        // Changes from here on are taken in once it is built.
        this.rollupChanges.clear();
        this.ownersSeen = this.owners.version;
      }
      const build = this.rollupBuild;
      const built = build.step();
      if (built) this.rollupBuilt(built);
      else {
        void build.finish().then((r) => {
          if (r && this.rollupBuild === build) {
            this.rollupBuilt(r);
            this.refreshAll();
          }
        });
        return;
      }
    }
    // A pause holds the rows as they were; resume builds the roll-up again.
    if (this.frozen || (this.rollupChanges.size === 0 && this.ownersSeen === this.owners.version)) return;
    const moved = (this.rollup as Rollup).update(this.rollupChanges, (key) => this.view.group(key));
    this.rollupChanges.clear();
    this.ownersSeen = this.owners.version;
    if (this.rollupMoved) for (const key of moved) this.rollupMoved.add(key);
  }

  private rollupBuilt(r: Rollup): void {
    this.rollup = r;
    this.rollupBuild = undefined;
    this.rollupMoved = undefined;
  }

  /** The node of a group, the same object each time (the view keys its state by it). */
  groupNode(key: string, object: InvolvedObject): GroupNode {
    let node = this.groupNodes.get(key);
    if (!node) {
      let parent: TreeNode | undefined;
      if (this.options.groupBy === 'namespace') parent = this.namespaceNode(object.namespace);
      else if (this.options.groupBy === 'workload') {
        const up = this.rollupNow()?.node(key)?.parent;
        parent = up && this.groupNode(up.key, up.object);
      }
      node = new GroupNode(key, object, parent);
      this.groupNodes.set(key, node);
    }
    return node;
  }

  private eventNode(group: GroupNode, uid: string): EventNode {
    let nodes = this.eventNodes.get(group.key);
    if (!nodes) this.eventNodes.set(group.key, (nodes = new Map<string, EventNode>()));
    let node = nodes.get(uid);
    if (!node) nodes.set(uid, (node = new EventNode(group, uid)));
    return node;
  }

  private namespaceNode(ns: string): NamespaceNode {
    let node = this.namespaceNodes.get(ns);
    if (!node) this.namespaceNodes.set(ns, (node = new NamespaceNode(ns)));
    return node;
  }

  /**
   * The node of one event, for reveal: shows every event of its group first when it sits
   * past the "show more" row. Undefined when the event is not in the view.
   */
  eventNodeFor(uid: string): EventNode | undefined {
    const e = this.store.get(uid);
    if (!e) return undefined;
    const key = objectKey(e.involvedObject);
    const group = this.view.group(key);
    const index = group?.events.findIndex((x) => x.uid === uid) ?? -1;
    if (!group || index < 0) return undefined;
    const node = this.groupNode(key, group.object);
    if (index >= this.options.maxChildren && !this.expanded.has(key)) this.expandGroup(node);
    return this.eventNode(node, uid);
  }

  /** Shows every event of a group ("show more"). */
  expandGroup(group: GroupNode): void {
    this.expanded.add(group.key);
    this.changed.fire(group);
  }

  /** The event behind a node, or undefined if it has gone from the store. */
  eventOf(node: EventNode): ClusterEvent | undefined {
    return this.store.get(node.uid);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) {
      if (this.options.groupBy === 'workload') return [...this.status, ...(this.rollupNow()?.roots ?? []).map((r) => this.groupNode(r.key, r.object))];
      const groups = this.groups();
      const objects = this.options.groupBy === 'namespace'
        ? [...new Set(groups.map((g) => g.object.namespace))].map((ns) => this.namespaceNode(ns))
        : groups.map((g) => this.groupNode(g.key, g.object));
      return [...this.status, ...objects];
    }
    if (node instanceof NamespaceNode) {
      return this.groups().filter((g) => g.object.namespace === node.namespace).map((g) => this.groupNode(g.key, g.object));
    }
    if (node instanceof GroupNode) {
      // In workload mode the objects it owns come first, then its own events.
      const owned = this.options.groupBy === 'workload' ? (this.rollupNow()?.node(node.key)?.children ?? []).map((c) => this.groupNode(c.key, c.object)) : [];
      const group = this.frozenByKey?.get(node.key) ?? this.view.group(node.key);
      if (!group) return owned;
      const limit = this.expanded.has(node.key) ? Infinity : this.options.maxChildren;
      const shown: TreeNode[] = (limit === Infinity ? group.events : group.newest(limit)).map((e) => this.eventNode(node, e.uid));
      // Nodes of events that left the group are dropped with the group's next listing.
      const nodes = this.eventNodes.get(node.key);
      if (nodes && nodes.size > shown.length) {
        const live = new Set(shown.map((n) => (n as EventNode).uid));
        for (const uid of nodes.keys()) if (!live.has(uid)) nodes.delete(uid);
      }
      return [...owned, ...shown, ...(group.count > limit ? [new MoreNode(node, group.count - limit)] : [])];
    }
    return [];
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.parent;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const ctx = this.context();
    const item = node.treeItem(ctx);
    this.ticker.rendered(node, ctx);
    return item;
  }

  /** Tooltips are made when the pointer rests on a row, so they show the age of that moment. */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    this.ticker.hold(node);
    item.tooltip = node.tooltip?.(this.context());
    return item;
  }
}
