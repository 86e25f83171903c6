// What every row of the Events view is: an id VS Code keys its state by, a parent for
// reveal, and a TreeItem made for the moment it is drawn.
import type * as vscode from 'vscode';
import type { ClusterEvent } from '../../../model/clusterEvent';
import type { EventGroup } from '../../../model/eventStore';
import type { RollupNode } from '../../../model/rollup';

/** What rows read while they are drawn. */
export interface RenderContext {
  /** Milliseconds since the epoch: the one "now" of this drawing. */
  readonly now: number;
  group(key: string): EventGroup | undefined;
  event(uid: string): ClusterEvent | undefined;
  /** The namespace is shown on group rows unless groups sit under namespace rows. */
  readonly showNamespace: boolean;
  /** In workload mode: the rolled-up totals of an object's node. */
  rollup(key: string): RollupNode | undefined;
}

export interface TreeNode {
  readonly id: string;
  readonly parent: TreeNode | undefined;
  treeItem(ctx: RenderContext): vscode.TreeItem;
  /** The part of the row that changes as time passes (ages), for rows that have one. */
  clockText?(ctx: RenderContext): string;
  /** The plain-text tooltip, made when the pointer rests on the row. */
  tooltip?(ctx: RenderContext): string | undefined;
}
