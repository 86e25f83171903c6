// The Events view's rows: status rows, then involved objects arranged by the grouping
// (groupings/), their events beneath, newest first. What it shows is ShownEvents' (the
// store through the view's filter and order, or a pause); when it is drawn again is the
// RefreshScheduler's; its nodes are kept in the NodeCache.
import * as vscode from 'vscode';
import { Disposable, type IDisposable } from '../../common/lifecycle';
import type { GroupBy } from '../../services/settingsValidation';
import { objectKey, type ClusterEvent } from '../../model/clusterEvent';
import type { ShownChange, ShownEvents } from '../../services/shownEvents';
import { AgeTicker } from './ageTicker';
import { isObjectRow, type Grouping, type Row } from './groupings/grouping';
import { NamespaceGrouping } from './groupings/namespaceGrouping';
import { ObjectGrouping } from './groupings/objectGrouping';
import { WorkloadGrouping, type OwnerSource } from './groupings/workloadGrouping';
import { NodeCache } from './nodeCache';
import type { EventNode } from './nodes/eventNode';
import { GroupNode } from './nodes/groupNode';
import { MoreNode } from './nodes/moreNode';
import { NamespaceNode } from './nodes/namespaceNode';
import type { RenderContext, TreeNode } from './nodes/treeNode';
import { RefreshScheduler, type Refresh } from './refreshScheduler';

export interface TreeOptions {
  readonly groupBy: GroupBy;
  readonly maxChildren: number;
}

export class EventsTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = this._register(new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly scheduler: RefreshScheduler;
  /** Fires after a batched refresh has been sent to the view. */
  readonly onDidSettle: RefreshScheduler['onDidSettle'];
  private readonly nodes = new NodeCache();
  private grouping: Grouping;
  private groupingSubscription: IDisposable | undefined;
  private status: TreeNode[] = [];
  /** Age redraws held back while a quick input is open. */
  private readonly heldTicks = new Set<TreeNode>();
  readonly ticker: AgeTicker;
  /** How many refreshes were fired (for tests and the host benchmark). */
  refreshes = 0;
  private readonly listedRoots = this._register(new vscode.EventEmitter<ReadonlySet<string>>());
  /** Fires with the top rows' ids when VS Code asks for them (a view just shown has drawn nothing before). */
  readonly onDidListRoots = this.listedRoots.event;
  /** How many times VS Code asked for the top rows. */
  rootListings = 0;

  constructor(
    private readonly shown: ShownEvents,
    private readonly owners: OwnerSource,
    private options: TreeOptions,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.scheduler = this._register(new RefreshScheduler((r) => this.send(r)));
    this.onDidSettle = this.scheduler.onDidSettle;
    this.grouping = this.makeGrouping();
    this.ticker = new AgeTicker((nodes) => this.ticked(nodes), () => this.context());
    this._register(shown.onDidChange((c) => this.shownChanged(c)));
    this._register(this.scheduler.onDidRelease(() => this.releaseTicks()));
    this._register({ dispose: () => (this.ticker.dispose(), this.grouping.dispose(), this.groupingSubscription?.dispose()) });
  }

  get groupBy(): GroupBy {
    return this.options.groupBy;
  }

  /** No change is waiting to be drawn. */
  get isSettled(): boolean {
    return this.scheduler.isSettled && !this.grouping.building;
  }

  /** Holds every redraw until disposed (a quick input of ours is open: see RefreshScheduler). */
  hold(): IDisposable {
    return this.scheduler.hold();
  }

  setOptions(options: TreeOptions): void {
    const regroup = options.groupBy !== this.options.groupBy;
    this.options = options;
    if (regroup) {
      // Group nodes know their parent: another grouping makes new ones.
      this.grouping.dispose();
      this.groupingSubscription?.dispose();
      this.nodes.forget();
      this.ticker.forget();
      this.grouping = this.makeGrouping();
      this.shown.resume();
    }
    this.scheduler.refreshAll();
  }

  /** Holds the rows where they are (see ShownEvents.pause). */
  pause(): void {
    this.shown.pause((key) => this.nodes.listed(key));
    this.scheduler.touch();
  }

  /** The rows above the objects (what the view is doing); an empty list removes them. */
  setStatus(rows: TreeNode[]): void {
    const text = (list: TreeNode[]) => list.map((r) => `${r.id}\n${(r as { text?: string }).text ?? ''}`).join('|');
    if (text(rows) === text(this.status)) return;
    this.status = rows;
    if (this.scheduler.isHeld) this.scheduler.refreshAll();
    else this.fireAll();
  }

  /** Nodes held (objects, namespaces, events): as many as the view shows, never more. */
  nodeCount(): number {
    return this.nodes.count();
  }

  /** The node of an object's row, the same object each time. */
  groupNode(key: string, object: GroupNode['object']): GroupNode {
    return this.nodes.group(key, object, () => this.nodeOf(this.grouping.parentOf({ key, object })));
  }

  /** The node of one event (shows its group whole when it sits past "show more"); undefined when the view does not show it. */
  eventNodeFor(uid: string): EventNode | undefined {
    const e = this.shown.source.get(uid);
    const group = e && this.shown.liveGroup(objectKey(e.involvedObject));
    const index = group?.events.findIndex((x) => x.uid === uid) ?? -1;
    if (!group || index < 0) return undefined;
    const node = this.groupNode(group.key, group.object);
    if (index >= this.options.maxChildren && !this.nodes.isExpanded(group.key)) this.expandGroup(node);
    return this.nodes.event(node, uid);
  }

  /** Shows every event of a group ("show more"). */
  expandGroup(group: GroupNode): void {
    this.nodes.expand(group.key);
    this.changed.fire(group);
  }

  /** The event behind a node, or undefined if it has gone from the store. */
  eventOf(node: EventNode): ClusterEvent | undefined {
    return this.shown.source.get(node.uid);
  }

  context(): RenderContext {
    return {
      now: this.now(),
      group: (key) => this.shown.group(key),
      event: (uid) => this.shown.event(uid),
      showNamespace: this.options.groupBy !== 'namespace',
      rollup: (key) => this.grouping.rollup(key),
    };
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) {
      this.rootListings++;
      const roots = [...this.status, ...this.grouping.roots().map((r) => this.nodeOf(r) as TreeNode)];
      this.listedRoots.fire(new Set(roots.map((n) => n.id)));
      return roots;
    }
    if (node instanceof NamespaceNode) return this.grouping.children({ namespace: node.namespace }).map((r) => this.groupNode(r.key, r.object));
    if (!(node instanceof GroupNode)) return [];
    // In workload mode the objects it owns come first, then its own events.
    const owned = this.grouping.children({ key: node.key, object: node.object }).map((r) => this.groupNode(r.key, r.object));
    const group = this.shown.group(node.key);
    if (!group) return owned;
    const limit = this.nodes.isExpanded(node.key) ? Infinity : this.options.maxChildren;
    const shown = (limit === Infinity ? group.events : group.newest(limit)).map((e) => this.nodes.event(node, e.uid));
    this.nodes.keepEvents(node.key, shown);
    return [...owned, ...shown, ...(group.count > limit ? [new MoreNode(node, group.count - limit)] : [])];
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

  private makeGrouping(): Grouping {
    const g: Grouping = this.options.groupBy === 'workload' ? new WorkloadGrouping(this.shown, this.owners) : this.options.groupBy === 'namespace' ? new NamespaceGrouping(this.shown) : new ObjectGrouping(this.shown);
    this.groupingSubscription = g.onDidChange?.(() => this.scheduler.refreshAll());
    return g;
  }

  private nodeOf(row: Row | undefined): TreeNode | undefined {
    if (!row) return undefined;
    return isObjectRow(row) ? this.groupNode(row.key, row.object) : this.nodes.namespace(row.namespace);
  }

  private shownChanged(c: ShownChange): void {
    if (c.kind === 'reset') {
      this.nodes.forget();
      this.ticker.forget();
    }
    const all = this.grouping.take(c);
    if (all) this.scheduler.refreshAll();
    else if (c.kind === 'groups') this.scheduler.refresh(c.change.groups);
    else this.scheduler.touch();
  }

  /** One refresh for everything that changed: the changed groups alone when the top level kept its order. */
  private send(r: Refresh): void {
    if (r.all) {
      this.grouping.prune(this.nodes);
      this.fireAll();
      return;
    }
    const nodes = [...r.keys].map((k) => this.nodes.existingGroup(k)).filter((n): n is GroupNode => n !== undefined);
    if (nodes.length === 0) return;
    this.refreshes++;
    this.changed.fire(nodes);
  }

  private fireAll(): void {
    this.ticker.forget();
    this.refreshes++;
    this.changed.fire(undefined);
  }

  private ticked(nodes: TreeNode[]): void {
    if (this.scheduler.isHeld) for (const n of nodes) this.heldTicks.add(n);
    else this.changed.fire(nodes);
  }

  private releaseTicks(): void {
    if (this.heldTicks.size === 0) return;
    const ticked = [...this.heldTicks];
    this.heldTicks.clear();
    this.changed.fire(ticked);
  }
}
