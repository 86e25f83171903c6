// Show Timeline (the view's "..." menu and the palette: every object the view shows) and
// Show Timeline for This Object (an object row's menu: that object's lanes). One panel,
// moved to the scope asked for; lanes per object, or per workload while the view rolls up.
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import { toDisposable } from '../common/lifecycle';
import type { Services } from '../services/services';
import { ALL_OBJECTS, ObjectLanes, ViewLanes, type LaneScope } from '../views/timeline/lanes';
import { TimelinePanel, type TimelineHost } from '../views/timeline/timelinePanel';
import { storeSource } from '../views/timeline/timelineSource';
import { WorkloadLanes } from '../views/timeline/workloadLanes';
import { eventTooltip } from '../views/tree/tooltips';
import { EventNode } from '../views/tree/nodes/eventNode';
import { GroupNode } from '../views/tree/nodes/groupNode';
import { registerPlainCommand, registerRowCommand } from './registry';
import { revealEvent } from './showEvents';

export function registerTimelineCommands(s: Services): vscode.Disposable[] {
  const host: TimelineHost = {
    extensionUri: s.context.extensionUri,
    source: storeSource(s.store),
    lanes: new ViewLanes(
      () => s.tree.groupBy === 'workload',
      new ObjectLanes(),
      new WorkloadLanes(s.owners.index, (listener) => s.owners.onDidChange(listener)),
      (listener) => s.settings.onDidChange((before, after) => before.groupBy !== after.groupBy && listener()),
    ),
    filter: () => s.filters.filter,
    onDidChangeFilter: (listener) => s.filters.onDidChange(listener),
    historyWindowMs: () => s.settings.value.historyWindowHours * 3_600_000,
    details: (uid) => {
      const e = s.store.get(uid);
      return e && eventTooltip(e, Date.now());
    },
    reveal: (uid) => revealEvent(s, uid),
    problem: (text) => s.logger.error(undefined, text),
  };
  let panel: TimelinePanel | undefined;
  const open = (scope: LaneScope): void => {
    if (panel) return panel.show(scope);
    const opened = new TimelinePanel(host, scope);
    opened.onDidClose(() => {
      if (panel === opened) panel = undefined;
    });
    panel = opened;
  };
  const isRow = (x: unknown): x is GroupNode | EventNode => x instanceof GroupNode || x instanceof EventNode;
  return [
    registerPlainCommand(Commands.showTimeline, () => open(ALL_OBJECTS)),
    registerRowCommand(Commands.showTimelineForObject, isRow, () => s.selection.selection, (node) => {
      const group = node instanceof EventNode ? node.parent : node;
      open({ kind: 'object', key: group.key, object: group.object });
    }, 'Pick an object in the Events view first.'),
    toDisposable(() => panel?.dispose()),
  ];
}
