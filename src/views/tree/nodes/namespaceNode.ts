// A namespace, when objects are grouped under theirs.
import * as vscode from 'vscode';
import { oneLine } from '../../../model/displayText';
import { namespaceRowName } from '../accessibleNames';
import type { RenderContext, TreeNode } from './treeNode';

export class NamespaceNode implements TreeNode {
  readonly parent = undefined;
  constructor(readonly namespace: string) {}

  get id(): string {
    return `ns:${encodeURIComponent(this.namespace)}`;
  }

  treeItem(_ctx: RenderContext): vscode.TreeItem {
    const item = new vscode.TreeItem(this.namespace ? oneLine(this.namespace) : '(cluster-scoped)', vscode.TreeItemCollapsibleState.Expanded);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon('symbol-namespace');
    item.contextValue = 'kubernetesEvents.namespace';
    item.accessibilityInformation = { label: namespaceRowName(this.namespace) };
    return item;
  }
}
