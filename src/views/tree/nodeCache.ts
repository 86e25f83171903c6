// The Events view's nodes, kept by key so each row is the same object every time (VS Code
// keys its state by it, and partial refreshes and reveal need it), and dropped as their
// objects leave the view so the maps stay as large as the view.
import type { InvolvedObject } from '../../model/clusterEvent';
import type { RowCache } from './groupings/grouping';
import { EventNode } from './nodes/eventNode';
import { GroupNode } from './nodes/groupNode';
import { NamespaceNode } from './nodes/namespaceNode';
import type { TreeNode } from './nodes/treeNode';

export class NodeCache implements RowCache {
  private readonly groupNodes = new Map<string, GroupNode>();
  private readonly eventNodes = new Map<string, Map<string, EventNode>>();
  private readonly namespaceNodes = new Map<string, NamespaceNode>();
  /** Groups shown whole ("show more" clicked). */
  private readonly expanded = new Set<string>();

  /** An object's node; `parent` is asked only when the node is made. */
  group(key: string, object: InvolvedObject, parent: () => TreeNode | undefined): GroupNode {
    let node = this.groupNodes.get(key);
    if (!node) this.groupNodes.set(key, (node = new GroupNode(key, object, parent())));
    return node;
  }

  /** A group's node, if one was made. */
  existingGroup(key: string): GroupNode | undefined {
    return this.groupNodes.get(key);
  }

  event(group: GroupNode, uid: string): EventNode {
    let nodes = this.eventNodes.get(group.key);
    if (!nodes) this.eventNodes.set(group.key, (nodes = new Map<string, EventNode>()));
    let node = nodes.get(uid);
    if (!node) nodes.set(uid, (node = new EventNode(group, uid)));
    return node;
  }

  namespace(ns: string): NamespaceNode {
    let node = this.namespaceNodes.get(ns);
    if (!node) this.namespaceNodes.set(ns, (node = new NamespaceNode(ns)));
    return node;
  }

  /** Whether the group's events have been listed (a pause keeps those as they are). */
  listed(key: string): boolean {
    return this.eventNodes.has(key);
  }

  /** Drops the nodes of a group's events that are no longer listed under it. */
  keepEvents(key: string, shown: readonly EventNode[]): void {
    const nodes = this.eventNodes.get(key);
    if (!nodes || nodes.size <= shown.length) return;
    const live = new Set(shown.map((n) => n.uid));
    for (const uid of nodes.keys()) if (!live.has(uid)) nodes.delete(uid);
  }

  expand(key: string): void {
    this.expanded.add(key);
  }

  isExpanded(key: string): boolean {
    return this.expanded.has(key);
  }

  /** Nodes held (objects, namespaces, events). */
  count(): number {
    let events = 0;
    for (const m of this.eventNodes.values()) events += m.size;
    return this.groupNodes.size + this.namespaceNodes.size + events;
  }

  /** No node made before is kept (another cluster, another grouping). */
  forget(): void {
    this.groupNodes.clear();
    this.eventNodes.clear();
    this.namespaceNodes.clear();
    this.expanded.clear();
  }

  objectKeys(): Iterable<string> {
    return this.groupNodes.keys();
  }

  parentKeyOf(key: string): string | undefined {
    const parent = this.groupNodes.get(key)?.parent;
    return parent instanceof GroupNode ? parent.key : undefined;
  }

  namespaces(): Iterable<string> {
    return this.namespaceNodes.keys();
  }

  dropObject(key: string, gone: boolean): void {
    this.groupNodes.delete(key);
    this.eventNodes.delete(key);
    if (gone) this.expanded.delete(key);
  }

  dropNamespace(namespace: string): void {
    this.namespaceNodes.delete(namespace);
  }
}
