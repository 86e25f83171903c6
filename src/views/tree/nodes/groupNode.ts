// An involved object: its kind's icon, in the warning colour when it has live warnings, the
// number of warnings as the row's badge, and the newest event's age.
import * as vscode from 'vscode';
import type { InvolvedObject } from '../../../model/clusterEvent';
import { oneLine } from '../../../model/displayText';
import { lastSeenAge } from '../../../model/kubectlFormat';
import { kindIcon } from '../kindIcons';
import { rowUri, warningBadge } from '../rowDecorations';
import type { RenderContext, TreeNode } from './treeNode';

export class GroupNode implements TreeNode {
  constructor(
    readonly key: string,
    public object: InvolvedObject,
    readonly parent: TreeNode | undefined,
  ) {}

  get id(): string {
    return `group:${this.key}`;
  }

  treeItem(ctx: RenderContext): vscode.TreeItem {
    const group = ctx.group(this.key);
    const o = this.object;
    const item = new vscode.TreeItem(oneLine(`${o.kind || '(unknown kind)'}/${o.name}`), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const warnings = group?.warnings ?? 0;
    const events = group?.events.length ?? 0;
    const age = group && events > 0 ? lastSeenAge(group.events[0], ctx.now) : '';
    item.description = [age, `${events} event${events === 1 ? '' : 's'}`, ctx.showNamespace ? oneLine(o.namespace) : ''].filter(Boolean).join(' · ');
    item.iconPath = kindIcon(o.kind, warnings > 0);
    item.resourceUri = rowUri(this.id, warningBadge(warnings));
    item.contextValue = `kubernetesEvents.group${warnings > 0 ? '.warning' : ''}`;
    return item;
  }

  clockText(ctx: RenderContext): string {
    const newest = ctx.group(this.key)?.events[0];
    return newest ? lastSeenAge(newest, ctx.now) : '';
  }

  tooltip(ctx: RenderContext): string {
    const group = ctx.group(this.key);
    const o = this.object;
    const newest = group?.events[0];
    return [
      oneLine(`${o.kind}/${o.name}`),
      o.namespace ? `Namespace: ${oneLine(o.namespace)}` : 'Cluster-scoped',
      `API version: ${oneLine(o.apiVersion) || '(not given)'}`,
      `UID: ${oneLine(o.uid) || '(not given)'}`,
      `Events: ${group?.events.length ?? 0}, live warnings: ${group?.warnings ?? 0}`,
      `Last event: ${newest ? `${lastSeenAge(newest, ctx.now)} ago` : '<unknown>'}`,
    ].join('\n');
  }
}
