// The Events view: involved objects (optionally under their namespace), their events
// beneath, newest first. Node objects are kept by id so partial refreshes and reveal work;
// store changes are batched into at most a few refreshes a second. Event text comes from
// anyone who can write an event, so it is only ever shown as plain text.
import * as vscode from 'vscode';
import { isAggregated, type ClusterEvent, type InvolvedObject } from '../model/clusterEvent';
import type { EventGroup, EventStore, StoreChange } from '../model/eventStore';
import { NO_FILTER, type EventFilter } from '../model/filters';
import { eventInterval, lastSeenAge } from '../model/kubectlFormat';

/** Refreshes are batched this long, so a burst of events costs a few redraws, not one each. */
export const REFRESH_DEBOUNCE_MS = 250;

export type EventsNode = NamespaceNode | GroupNode | EventNode | MoreNode;

export class NamespaceNode {
  readonly kind = 'namespace';
  constructor(readonly namespace: string) {}
  get id(): string {
    return `ns:${this.namespace}`;
  }
}

export class GroupNode {
  readonly kind = 'group';
  constructor(
    readonly key: string,
    public object: InvolvedObject,
  ) {}
  get id(): string {
    return `group:${this.key}`;
  }
}

export class EventNode {
  readonly kind = 'event';
  constructor(
    readonly group: GroupNode,
    readonly uid: string,
  ) {}
  get id(): string {
    return `event:${this.group.key}:${this.uid}`;
  }
}

export class MoreNode {
  readonly kind = 'more';
  constructor(
    readonly group: GroupNode,
    readonly hidden: number,
  ) {}
  get id(): string {
    return `more:${this.group.key}`;
  }
}

/** A codicon per kind of object; anything else gets a generic one. */
const KIND_ICONS: Record<string, string> = {
  Pod: 'vm',
  Deployment: 'rocket',
  ReplicaSet: 'layers',
  StatefulSet: 'database',
  DaemonSet: 'server-process',
  Job: 'run',
  CronJob: 'watch',
  Node: 'server',
  Service: 'globe',
  Ingress: 'globe',
  ConfigMap: 'settings',
  Secret: 'lock',
  PersistentVolumeClaim: 'archive',
  PersistentVolume: 'archive',
  Namespace: 'symbol-namespace',
  HorizontalPodAutoscaler: 'graph-line',
  Endpoints: 'plug',
  ServiceAccount: 'account',
};

/** Plain text in Markdown: every character Markdown or HTML could read as syntax is escaped. */
export function inertMarkdown(): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.supportThemeIcons = false;
  return md;
}

/** A message on one line, as a label can show it. */
function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export class EventsTreeProvider implements vscode.TreeDataProvider<EventsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<EventsNode | EventsNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private filterNow: EventFilter = NO_FILTER;
  private readonly groupNodes = new Map<string, GroupNode>();
  private readonly namespaceNodes = new Map<string, NamespaceNode>();
  private readonly eventNodes = new Map<string, EventNode>();
  private readonly expanded = new Set<string>();
  private rootOrder = '';
  private pending: Set<string> | undefined;
  private pendingAll = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscription: { dispose(): void };
  /** How many refreshes were fired (for tests and the host benchmark). */
  refreshes = 0;
  private readonly settled = new vscode.EventEmitter<void>();
  /** Fires after a batched refresh has been sent to the view. */
  readonly onDidSettle = this.settled.event;

  constructor(
    readonly store: EventStore,
    private options: { groupByNamespace: boolean; maxChildren: number; now?: () => number },
  ) {
    this.subscription = store.onDidChange((c) => this.schedule(c));
  }

  get filter(): EventFilter {
    return this.filterNow;
  }

  /** No change is waiting to be sent to the view. */
  get isSettled(): boolean {
    return this.timer === undefined && !this.pending && !this.pendingAll;
  }

  setFilter(filter: EventFilter): void {
    this.filterNow = filter;
    this.refreshAll();
  }

  setOptions(options: Partial<{ groupByNamespace: boolean; maxChildren: number }>): void {
    this.options = { ...this.options, ...options };
    this.refreshAll();
  }

  /** The groups the view shows now. */
  groups(): EventGroup[] {
    return this.store.view(this.filterNow);
  }

  refreshAll(): void {
    this.pendingAll = true;
    this.flushSoon();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
    this.changed.dispose();
    this.settled.dispose();
  }

  private schedule(c: StoreChange): void {
    if (c.all) this.pendingAll = true;
    for (const key of c.groups) (this.pending ??= new Set()).add(key);
    this.flushSoon();
  }

  private flushSoon(): void {
    this.timer ??= setTimeout(() => this.flush(), REFRESH_DEBOUNCE_MS);
  }

  /** One refresh for everything that changed: the changed groups alone when the top level kept its order. */
  private flush(): void {
    this.timer = undefined;
    const keys = this.pending;
    this.pending = undefined;
    const groups = this.groups();
    const order = groups.map((g) => g.key).join('\n') + (this.options.groupByNamespace ? '|ns' : '');
    const all = this.pendingAll || order !== this.rootOrder;
    this.pendingAll = false;
    this.rootOrder = order;
    this.refreshes++;
    if (all) {
      this.changed.fire(undefined);
    } else if (keys && keys.size > 0) {
      const nodes = [...keys].map((k) => this.groupNodes.get(k)).filter((n): n is GroupNode => n !== undefined);
      if (nodes.length > 0) this.changed.fire(nodes);
    }
    this.settled.fire();
  }

  /** The node of a group, the same object each time (the view keys its state by it). */
  groupNode(key: string, object: InvolvedObject): GroupNode {
    let node = this.groupNodes.get(key);
    if (!node) {
      node = new GroupNode(key, object);
      this.groupNodes.set(key, node);
    }
    return node;
  }

  private eventNode(group: GroupNode, uid: string): EventNode {
    const id = `${group.key}:${uid}`;
    let node = this.eventNodes.get(id);
    if (!node) {
      node = new EventNode(group, uid);
      this.eventNodes.set(id, node);
    }
    return node;
  }

  private namespaceNode(ns: string): NamespaceNode {
    let node = this.namespaceNodes.get(ns);
    if (!node) {
      node = new NamespaceNode(ns);
      this.namespaceNodes.set(ns, node);
    }
    return node;
  }

  /** Shows every event of a group ("show more"). */
  expandGroup(group: GroupNode): void {
    this.expanded.add(group.key);
    this.changed.fire(group);
  }

  getChildren(node?: EventsNode): EventsNode[] {
    if (!node) {
      const groups = this.groups();
      if (this.options.groupByNamespace) {
        const namespaces = [...new Set(groups.map((g) => g.object.namespace))];
        return namespaces.map((ns) => this.namespaceNode(ns));
      }
      return groups.map((g) => this.groupNode(g.key, g.object));
    }
    if (node instanceof NamespaceNode) {
      return this.groups().filter((g) => g.object.namespace === node.namespace).map((g) => this.groupNode(g.key, g.object));
    }
    if (node instanceof GroupNode) {
      const group = this.store.group(node.key, this.filterNow);
      if (!group) return [];
      const limit = this.expanded.has(node.key) ? Infinity : this.options.maxChildren;
      const shown = group.events.slice(0, limit).map((e) => this.eventNode(node, e.uid));
      return group.events.length > limit ? [...shown, new MoreNode(node, group.events.length - limit)] : shown;
    }
    return [];
  }

  getParent(node: EventsNode): EventsNode | undefined {
    if (node instanceof EventNode || node instanceof MoreNode) return node.group;
    if (node instanceof GroupNode && this.options.groupByNamespace) return this.namespaceNode(node.object.namespace);
    return undefined;
  }

  getTreeItem(node: EventsNode): vscode.TreeItem {
    const now = (this.options.now ?? Date.now)();
    if (node instanceof NamespaceNode) {
      const item = new vscode.TreeItem(node.namespace || '(cluster-scoped)', vscode.TreeItemCollapsibleState.Expanded);
      item.id = node.id;
      item.iconPath = new vscode.ThemeIcon('symbol-namespace');
      item.contextValue = 'kubernetesEvents.namespace';
      return item;
    }
    if (node instanceof MoreNode) {
      const item = new vscode.TreeItem(`Show ${node.hidden} more…`, vscode.TreeItemCollapsibleState.None);
      item.id = node.id;
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: 'kubernetesEvents.showMore', title: 'Show More', arguments: [node] };
      item.contextValue = 'kubernetesEvents.more';
      return item;
    }
    if (node instanceof GroupNode) return this.groupItem(node, now);
    return this.eventItem(node, now);
  }

  private groupItem(node: GroupNode, now: number): vscode.TreeItem {
    const group = this.store.group(node.key, this.filterNow);
    const o = node.object;
    const item = new vscode.TreeItem(`${o.kind || '(unknown kind)'}/${o.name}`, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = node.id;
    const warnings = group?.warnings ?? 0;
    const age = group ? lastSeenAge(group.events[0], now) : '';
    item.description = [warnings > 0 ? `⚠${warnings}` : '', age ? `${age} ago` : '', !this.options.groupByNamespace ? o.namespace : ''].filter(Boolean).join(' · ');
    item.iconPath = new vscode.ThemeIcon(warnings > 0 ? 'warning' : (KIND_ICONS[o.kind] ?? 'symbol-class'), warnings > 0 ? new vscode.ThemeColor('list.warningForeground') : undefined);
    item.contextValue = `kubernetesEvents.group${warnings > 0 ? '.warning' : ''}`;
    const tooltip = inertMarkdown();
    tooltip.appendText(`${o.kind}/${o.name}`);
    tooltip.appendMarkdown('\n\n');
    tooltip.appendText(`${o.namespace ? `Namespace: ${o.namespace}\n` : ''}API version: ${o.apiVersion}\nUID: ${o.uid}\nEvents: ${group?.events.length ?? 0}, warnings: ${warnings}`);
    item.tooltip = tooltip;
    return item;
  }

  /** The event behind a node, or undefined if it has gone from the store. */
  eventOf(node: EventNode): ClusterEvent | undefined {
    return this.store.get(node.uid);
  }

  private eventItem(node: EventNode, now: number): vscode.TreeItem {
    const e = this.eventOf(node);
    if (!e) return new vscode.TreeItem('(gone)');
    const aggregated = isAggregated(e);
    const item = new vscode.TreeItem(`${e.reason}: ${oneLine(e.message)}`, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = `${eventInterval(e, now)}${e.expiredAt !== undefined ? ' · expired' : ''}${e.origin === 'local' ? ' · recorded here' : ''}`;
    const icon = e.expiredAt !== undefined ? 'history' : aggregated ? 'layers' : e.type === 'Warning' ? 'warning' : 'info';
    const color = e.expiredAt !== undefined ? new vscode.ThemeColor('disabledForeground') : e.type === 'Warning' ? new vscode.ThemeColor('list.warningForeground') : undefined;
    item.iconPath = new vscode.ThemeIcon(icon, color);
    item.contextValue = `kubernetesEvents.event${aggregated ? '.aggregated' : ''}${e.expiredAt !== undefined ? '.expired' : ''}${e.origin === 'local' ? '.local' : ''}`;
    item.tooltip = eventTooltip(e, now);
    item.command = { command: 'kubernetesEvents.openEventYaml', title: 'Open Event as YAML', arguments: [node] };
    return item;
  }
}

/** Every field of an event, as plain text inside Markdown: nothing in it can become a link, a command or HTML. */
export function eventTooltip(e: ClusterEvent, now: number): vscode.MarkdownString {
  const md = inertMarkdown();
  const time = (t: number | undefined) => (t === undefined ? '<unknown>' : new Date(t).toISOString());
  const lines = [
    `${e.type} ${e.reason}${isAggregated(e) ? ' (aggregated by the recorder)' : ''}${e.expiredAt !== undefined ? ` (expired ${new Date(e.expiredAt).toISOString()})` : ''}`,
    `Object: ${e.involvedObject.kind}/${e.involvedObject.name}${e.involvedObject.fieldPath ? ` (${e.involvedObject.fieldPath})` : ''}`,
    `Namespace: ${e.involvedObject.namespace || e.namespace || '(cluster-scoped)'}`,
    `From: ${e.source}${e.sourceHost ? ` on ${e.sourceHost}` : ''}`,
    `Count: ${e.count} · ${eventInterval(e, now)}`,
    `First seen: ${time(e.firstSeen)}`,
    `Last seen: ${time(e.lastSeen)}`,
    `Event: ${e.namespace}/${e.name} (${e.origin})`,
  ];
  md.appendText(lines.join('\n'));
  md.appendMarkdown('\n\n---\n\n');
  md.appendText(e.message);
  return md;
}
