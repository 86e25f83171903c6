// One event, read like a row of `kubectl events`: its age and count first (always in
// sight), then the reason and the message on one line; the type as the icon; history and
// "recorded here" as the row's badge. Clicking it opens the event as YAML.
import * as vscode from 'vscode';
import { Commands } from '../../../common/commandIds';
import { isAggregated } from '../../../model/clusterEvent';
import { oneLine } from '../../../model/displayText';
import { eventInterval, timestampSince } from '../../../model/kubectlFormat';
import { eventRowName } from '../accessibleNames';
import { eventIcon } from '../kindIcons';
import { eventMarks, rowUri } from '../rowDecorations';
import { eventTooltip } from '../tooltips';
import type { GroupNode } from './groupNode';
import type { RenderContext, TreeNode } from './treeNode';

export class EventNode implements TreeNode {
  constructor(
    readonly parent: GroupNode,
    readonly uid: string,
  ) {}

  get id(): string {
    return `event:${this.parent.key}:${encodeURIComponent(this.uid)}`;
  }

  /** The label only: what changes as time passes. */
  label(ctx: RenderContext): string {
    const e = ctx.event(this.uid);
    return e ? `${eventInterval(e, ctx.now)} · ${oneLine(e.reason)}: ${oneLine(e.message)}` : '(gone)';
  }

  clockText(ctx: RenderContext): string {
    const e = ctx.event(this.uid);
    return e ? eventInterval(e, ctx.now) : '';
  }

  treeItem(ctx: RenderContext): vscode.TreeItem {
    const e = ctx.event(this.uid);
    const item = new vscode.TreeItem(this.label(ctx), vscode.TreeItemCollapsibleState.None);
    item.id = this.id;
    if (!e) return item;
    const aggregated = isAggregated(e);
    item.iconPath = eventIcon(e.type, e.expiredAt !== undefined, aggregated);
    item.resourceUri = rowUri(this.id, eventMarks(e.expiredAt, e.origin === 'local'));
    item.contextValue = `kubernetesEvents.event${aggregated ? '.aggregated' : ''}${e.expiredAt !== undefined ? '.expired' : ''}${e.origin === 'local' ? '.local' : ''}`;
    item.command = { command: Commands.openEventYaml, title: 'Open Event as YAML', arguments: [this] };
    item.accessibilityInformation = {
      label: eventRowName({
        type: e.type,
        reason: e.reason,
        message: e.message,
        count: e.count,
        lastAge: timestampSince(e.lastSeen, ctx.now),
        firstAge: timestampSince(e.firstSeen, ctx.now),
        expired: e.expiredAt !== undefined,
        recordedHere: e.origin === 'local',
      }),
    };
    return item;
  }

  tooltip(ctx: RenderContext): string | undefined {
    const e = ctx.event(this.uid);
    return e && eventTooltip(e, ctx.now);
  }
}
