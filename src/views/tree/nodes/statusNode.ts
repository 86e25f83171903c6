// Rows above the objects that say what the view is doing and what to do about it: loading,
// a connection or kubeconfig problem with its message, a filter that hides everything, a
// pause. They sit in the tree (not in the view's message) so their actions show beside
// them: VS Code hides a view's welcome buttons whenever it shows a message.
import * as vscode from 'vscode';
import { displayText, oneLine } from '../../../model/displayText';
import { statusRowName } from '../accessibleNames';
import type { RenderContext, TreeNode } from './treeNode';

export type StatusTone = 'loading' | 'error' | 'warning' | 'info' | 'none';

const ICONS: Record<StatusTone, vscode.ThemeIcon> = {
  loading: new vscode.ThemeIcon('loading~spin'),
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground')),
  warning: new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  info: new vscode.ThemeIcon('info'),
  none: new vscode.ThemeIcon('blank'),
};

/** One line of what the view is doing, with the whole text in its tooltip. */
export class StatusNode implements TreeNode {
  readonly parent = undefined;
  constructor(
    readonly key: string,
    readonly tone: StatusTone,
    readonly text: string,
    readonly detail = '',
  ) {}

  get id(): string {
    return `status:${this.key}`;
  }

  treeItem(_ctx: RenderContext): vscode.TreeItem {
    const item = new vscode.TreeItem(oneLine(this.text), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = ICONS[this.tone];
    item.contextValue = `kubernetesEvents.status.${this.tone}`;
    item.accessibilityInformation = { label: statusRowName(this.tone, this.text) };
    return item;
  }

  tooltip(): string {
    return displayText(this.detail ? `${this.text}\n\n${this.detail}` : this.text);
  }
}

/** A row that runs a command when clicked: Retry, Switch Context, Show Log, Clear Filters... */
export class ActionNode implements TreeNode {
  readonly parent = undefined;
  constructor(
    readonly label: string,
    readonly command: string,
    readonly icon: string,
    readonly args: unknown[] = [],
  ) {}

  get id(): string {
    return `action:${this.command}`;
  }

  treeItem(_ctx: RenderContext): vscode.TreeItem {
    const item = new vscode.TreeItem(this.label, vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    item.iconPath = new vscode.ThemeIcon(this.icon, new vscode.ThemeColor('textLink.foreground'));
    item.command = { command: this.command, title: this.label, arguments: this.args };
    item.contextValue = 'kubernetesEvents.action';
    item.accessibilityInformation = { label: oneLine(this.label) };
    return item;
  }
}
