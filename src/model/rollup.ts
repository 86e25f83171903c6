// Events rolled up under their workload: each object's group hangs under its owner's node,
// up to the top owner (a Deployment, a CronJob, a StatefulSet, a DaemonSet, or the object
// itself when it has no owner we know of). Every node sums the events, live warnings and
// newest time of everything beneath it.
import { objectKey, sortTime, type ClusterEvent, type InvolvedObject } from './clusterEvent';
import type { EventGroup } from './eventStore';
import type { SortOrder } from './groupOrder';
import type { OwnerIndex } from './ownerIndex';

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

/** The workload trees of these groups, top owners first in the given order. */
export function buildRollup(groups: readonly EventGroup[], owners: OwnerIndex, order: SortOrder): RollupNode[] {
  const nodes = new Map<string, RollupNode>();
  const roots: RollupNode[] = [];
  const nodeFor = (o: InvolvedObject, group: EventGroup | undefined): RollupNode => {
    const id = identity(o);
    let node = nodes.get(id);
    if (!node) {
      node = { key: group?.key ?? `owner:${o.uid || objectKey(o)}`, object: o, group, children: [], parent: undefined, events: 0, warnings: 0, lastSeen: 0, newest: undefined };
      nodes.set(id, node);
    } else if (group && !node.group) {
      // Met first as an owner, now with events of its own: keep one node, under the group's key.
      node.group = group;
      (node as { key: string }).key = group.key;
      (node as { object: InvolvedObject }).object = group.object;
    }
    return node;
  };
  for (const g of groups) {
    const chain = owners.chain(g.object);
    let child = nodeFor(g.object, g);
    for (const link of chain.slice(1)) {
      const parent = nodeFor(link, undefined);
      if (!child.parent) {
        child.parent = parent;
        parent.children.push(child);
      }
      child = parent;
    }
  }
  for (const node of nodes.values()) if (!node.parent) roots.push(node);
  const total = (n: RollupNode): void => {
    n.events = n.group?.events.length ?? 0;
    n.warnings = n.group?.warnings ?? 0;
    n.newest = n.group?.events[0];
    n.lastSeen = n.group?.lastSeen ?? 0;
    for (const c of n.children) {
      total(c);
      n.events += c.events;
      n.warnings += c.warnings;
      if (c.lastSeen > n.lastSeen) {
        n.lastSeen = c.lastSeen;
        n.newest = c.newest;
      }
    }
    n.children.sort(ORDER[order]);
  };
  for (const r of roots) total(r);
  return roots.sort(ORDER[order]);
}

/** The time a rolled-up node's newest event sorts by (for the age on its row). */
export function newestTime(n: RollupNode): number {
  return n.newest ? sortTime(n.newest) : 0;
}
