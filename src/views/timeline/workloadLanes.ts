// Lanes for the workload roll-up (Group By: workload): one lane per node of the roll-up
// the Events view shows, parents first, each child one level deeper. A workload's lane draws
// its own events and everything beneath it (a Deployment's holds its ReplicaSets' and Pods'),
// so a crash loop of one pod shows on the Deployment's lane and, below it, on that pod's.
import type { IDisposable } from '../../common/lifecycle';
import type { OwnerIndex } from '../../model/ownerIndex';
import { buildRollup, type RollupNode } from '../../model/rollup';
import type { EventFilter } from '../../model/filters';
import { oneLine } from '../../model/displayText';
import { objectLabel, type Lane, type LaneProvider, type LaneScope } from './lanes';
import type { TimelineSource } from './timelineSource';

export class WorkloadLanes implements LaneProvider {
  constructor(
    private readonly owners: OwnerIndex,
    /** Owners found or forgotten: the roll-up's shape may have changed. */
    readonly onDidChangeLanes: (listener: () => void) => IDisposable,
  ) {}

  lanes(source: TimelineSource, filter: EventFilter, scope: LaneScope): readonly Lane[] {
    let roots = buildRollup(source.groups(filter), this.owners, 'lastSeen');
    if (scope.kind === 'object') {
      const node = find(roots, scope.key);
      roots = node ? [node] : [];
    }
    const out: Lane[] = [];
    const walk = (n: RollupNode, depth: number): string[] => {
      const lane = { id: n.key, label: objectLabel(n.object), description: oneLine(n.object.namespace), depth, groupKeys: [] as string[], object: n.object };
      out.push(lane);
      const keys = n.group ? [n.group.key] : [];
      for (const c of n.children) keys.push(...walk(c, depth + 1));
      lane.groupKeys = keys;
      return keys;
    };
    for (const r of roots) walk(r, 0);
    return out;
  }
}

function find(nodes: readonly RollupNode[], key: string): RollupNode | undefined {
  for (const n of nodes) {
    if (n.key === key) return n;
    const inner = find(n.children, key);
    if (inner) return inner;
  }
  return undefined;
}
