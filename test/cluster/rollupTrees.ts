// Finding an object in workload roll-up trees (src/model/rollup.ts) and naming its place in
// them, for the cluster tests that check where the controllers' objects end up.
import type { RollupNode } from '../../src/model/rollup';

/** The first node, anywhere in the trees, about a KIND whose name is NAME (or matches it), in NAMESPACE when one is given. */
export function findNode(nodes: readonly RollupNode[], kind: string, name: string | RegExp | ((name: string) => boolean), namespace?: string): RollupNode | undefined {
  const named = typeof name === 'string' ? (n: string) => n === name : name instanceof RegExp ? (n: string) => name.test(n) : name;
  const walk = (level: readonly RollupNode[]): RollupNode | undefined => {
    for (const n of level) {
      if (n.object.kind === kind && (namespace === undefined || n.object.namespace === namespace) && named(n.object.name)) return n;
      const inner = walk(n.children);
      if (inner) return inner;
    }
    return undefined;
  };
  return walk(nodes);
}

/** Kind/name from the top owner down to the node: `Deployment/web > ReplicaSet/web-7d9f > Pod/web-7d9f-x2k4q`. */
export function ownerChain(n: RollupNode | undefined): string {
  const parts: string[] = [];
  for (let x = n; x; x = x.parent) parts.unshift(`${x.object.kind}/${x.object.name}`);
  return parts.join(' > ');
}
