// An involved object: its kind's icon, in the warning colour when it has live warnings, the
// number of warnings as the row's badge, and the newest event's age.
import * as vscode from 'vscode';
import type { ClusterEvent, InvolvedObject } from '../../../model/clusterEvent';
import { oneLine } from '../../../model/displayText';
import { lastSeenAge } from '../../../model/kubectlFormat';
import { objectRowName } from '../accessibleNames';
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

  /** Events, live warnings and the newest event: its own, or summed over what it owns in workload mode. */
  private totals(ctx: RenderContext): { events: number; warnings: number; newest: ClusterEvent | undefined; owns: number } {
    const r = ctx.rollup(this.key);
    if (r) return { events: r.events, warnings: r.warnings, newest: r.newest, owns: r.children.length };
    const group = ctx.group(this.key);
    return { events: group?.count ?? 0, warnings: group?.warnings ?? 0, newest: group?.newest(1)[0], owns: 0 };
  }

  treeItem(ctx: RenderContext): vscode.TreeItem {
    const o = this.object;
    const item = new vscode.TreeItem(oneLine(`${o.kind || '(unknown kind)'}/${o.name}`), vscode.TreeItemCollapsibleState.Collapsed);
    item.id = this.id;
    const { events, warnings, newest, owns } = this.totals(ctx);
    const age = newest ? lastSeenAge(newest, ctx.now) : '';
    item.description = [age, `${events} event${events === 1 ? '' : 's'}`, ctx.showNamespace ? oneLine(o.namespace) : ''].filter(Boolean).join(' · ');
    item.iconPath = kindIcon(o.kind, warnings > 0);
    item.resourceUri = rowUri(this.id, warningBadge(warnings));
    item.contextValue = `kubernetesEvents.group${warnings > 0 ? '.warning' : ''}`;
    item.accessibilityInformation = { label: objectRowName({ kind: o.kind, name: o.name, namespace: o.namespace, events, warnings, age, owns }) };
    return item;
  }

  clockText(ctx: RenderContext): string {
    const { newest } = this.totals(ctx);
    return newest ? lastSeenAge(newest, ctx.now) : '';
  }

  tooltip(ctx: RenderContext): string {
    const { events, warnings, newest, owns } = this.totals(ctx);
    const o = this.object;
    return [
      oneLine(`${o.kind}/${o.name}`),
      o.namespace ? `Namespace: ${oneLine(o.namespace)}` : 'Cluster-scoped',
      `API version: ${oneLine(o.apiVersion) || '(not given)'}`,
      `UID: ${oneLine(o.uid) || '(not given)'}`,
      `Events: ${events}, live warnings: ${warnings}${owns ? ` (with the ${owns} object${owns === 1 ? '' : 's'} it owns)` : ''}`,
      `Last event: ${newest ? `${lastSeenAge(newest, ctx.now)} ago` : '<unknown>'}`,
    ].join('\n');
  }
}
