// The last row under an object with more events than maxChildren: a click shows them all.
import * as vscode from 'vscode';
import { Commands } from '../../../common/commandIds';
import { moreRowName } from '../accessibleNames';
import type { GroupNode } from './groupNode';
import type { RenderContext, TreeNode } from './treeNode';

export class MoreNode implements TreeNode {
  constructor(
    readonly parent: GroupNode,
    readonly hidden: number,
  ) {}

  get id(): string {
    return `more:${this.parent.key}`;
  }

  treeItem(_ctx: RenderContext): vscode.TreeItem {
    const item = new vscode.TreeItem(`Show ${this.hidden} more…`, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('ellipsis');
    item.command = { command: Commands.showMore, title: 'Show More', arguments: [this] };
    item.contextValue = 'kubernetesEvents.more';
    const o = this.parent.object;
    item.accessibilityInformation = { label: moreRowName(this.hidden, `${o.kind}/${o.name}`) };
    return item;
  }
}
