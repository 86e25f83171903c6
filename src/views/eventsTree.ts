import * as vscode from 'vscode';
import type { CoreV1Event } from '@kubernetes/client-node';
import type { EventGroup } from '../model/groupEvents';

type Node = { group: EventGroup } | { event: CoreV1Event; group: EventGroup };

/** The Events view: involved objects at the top, their events beneath, newest first. */
export class EventsTreeProvider implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private groups: EventGroup[] = [];

  setGroups(groups: EventGroup[]): void {
    this.groups = groups;
    this.changed.fire(undefined);
  }

  get groupCount(): number {
    return this.groups.length;
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.groups.map((group) => ({ group }));
    if ('event' in node) return [];
    return node.group.events.map((event) => ({ event, group: node.group }));
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (!('event' in node)) {
      const g = node.group;
      const label = `${g.kind}/${g.name}`;
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `group:${g.key}`;
      item.description = [g.namespace, g.warnings > 0 ? `⚠${g.warnings}` : ''].filter(Boolean).join(' · ');
      item.iconPath = new vscode.ThemeIcon(g.warnings > 0 ? 'warning' : 'symbol-class', g.warnings > 0 ? new vscode.ThemeColor('list.warningForeground') : undefined);
      item.contextValue = 'involvedObject';
      return item;
    }
    const e = node.event;
    const item = new vscode.TreeItem(`${e.reason ?? ''}: ${e.message ?? ''}`, vscode.TreeItemCollapsibleState.None);
    item.id = `event:${node.group.key}:${e.metadata?.uid ?? e.metadata?.name ?? ''}`;
    item.description = e.count && e.count > 1 ? `x${e.count}` : '';
    // Event text comes from anyone who can write an event: a plain string tooltip stays inert.
    item.tooltip = `${e.type ?? ''} ${e.reason ?? ''}\n${e.message ?? ''}`;
    item.iconPath = new vscode.ThemeIcon(e.type === 'Warning' ? 'warning' : 'info');
    item.contextValue = 'event';
    return item;
  }
}
