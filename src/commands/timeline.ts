// Show Timeline (the view's "..." menu and the palette: every object the view shows) and
// Show Timeline for This Object (an object row's menu: that object's lanes). One panel,
// moved to the scope asked for; lanes per object, or per workload while the view rolls up.
// A window reload brings the panel back on the scope it had (its serializer).
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import { objectKey, type InvolvedObject } from '../model/clusterEvent';
import type { EventStore } from '../model/eventStore';
import type { Logger } from '../record/logger';
import type { FilterService } from '../services/filterService';
import type { NavigationService } from '../services/navigationService';
import type { OwnerService } from '../services/ownerService';
import type { SettingsService } from '../services/settingsService';
import { ALL_OBJECTS, ObjectLanes, ViewLanes, type LaneScope } from '../views/timeline/lanes';
import { TIMELINE_VIEW_TYPE, TimelinePanel, type TimelineHost } from '../views/timeline/timelinePanel';
import { storeSource } from '../views/timeline/timelineSource';
import { WorkloadLanes } from '../views/timeline/workloadLanes';
import { eventTooltip } from '../views/tree/tooltips';
import { EventNode } from '../views/tree/nodes/eventNode';
import { GroupNode } from '../views/tree/nodes/groupNode';
import { registerPlainCommand, registerRowCommand } from './registry';

/** Where the open panel's scope is kept for a reload (the workspace's memento). */
const SCOPE_KEY = 'kubernetesEvents.timelineScope';

export interface TimelineDeps {
  readonly extensionUri: vscode.Uri;
  readonly memento: vscode.Memento;
  readonly store: EventStore;
  readonly owners: OwnerService;
  readonly settings: SettingsService;
  readonly filters: FilterService;
  readonly navigation: NavigationService;
  readonly logger: Logger;
  readonly selection: () => readonly unknown[];
  /** A manifest resource's objects with events (the one a warning reason is about first, else its own), from the command's arguments. */
  readonly manifestObjects: (uriText: unknown, index: unknown, reason: unknown) => readonly InvolvedObject[] | undefined;
  /** Opens Diagnose on an object (a lane's context menu). */
  readonly diagnose: (o: InvolvedObject) => void;
}

export function registerTimelineCommands(d: TimelineDeps): vscode.Disposable[] {
  const host: TimelineHost = {
    extensionUri: d.extensionUri,
    source: storeSource(d.store),
    lanes: new ViewLanes(
      () => d.settings.value.groupBy === 'workload',
      new ObjectLanes(),
      new WorkloadLanes(d.owners.index, (listener) => d.owners.onDidChange(listener)),
      (listener) => d.settings.onDidChange((before, after) => before.groupBy !== after.groupBy && listener()),
    ),
    filter: () => d.filters.filter,
    onDidChangeFilter: (listener) => d.filters.onDidChange(listener),
    historyWindowMs: () => d.settings.value.historyWindowHours * 3_600_000,
    details: (uid) => {
      const e = d.store.get(uid);
      return e && eventTooltip(e, Date.now());
    },
    reveal: (uid) => d.navigation.revealEvent(uid),
    problem: (text) => d.logger.error(undefined, text),
  };
  let panel: TimelinePanel | undefined;
  const adopt = (opened: TimelinePanel): void => {
    opened.onDidClose(() => {
      if (panel === opened) panel = undefined;
    });
    panel = opened;
  };
  const open = (scope: LaneScope): void => {
    void d.memento.update(SCOPE_KEY, scope);
    if (panel) return panel.show(scope);
    adopt(new TimelinePanel(host, scope));
  };
  const isRow = (x: unknown): x is GroupNode | EventNode => x instanceof GroupNode || x instanceof EventNode;
  return [
    registerPlainCommand(Commands.showTimeline, () => open(ALL_OBJECTS)),
    registerRowCommand(Commands.showTimelineForObject, isRow, d.selection, (node) => {
      const group = node instanceof EventNode ? node.parent : node;
      open({ kind: 'object', key: group.key, object: group.object });
    }, 'Pick an object in the Events view first.'),
    vscode.commands.registerCommand(Commands.showManifestTimeline, (uriText?: unknown, index?: unknown, reason?: unknown) => {
      const objects = d.manifestObjects(uriText, index, reason);
      if (!objects) return void vscode.window.showErrorMessage('Show Timeline for This Manifest Resource needs a manifest document and a resource in it (a Problems entry passes them).');
      const object = objects[0];
      if (!object) return void vscode.window.showInformationMessage('No events are stored about this resource yet.');
      open({ kind: 'object', key: objectKey(object), object });
    }),
    // A lane's context menu in the page (webview/context): the page names the lane under the pointer.
    vscode.commands.registerCommand(Commands.diagnoseTimelineLane, (context?: unknown) => {
      const laneId = typeof context === 'object' && context !== null ? (context as { laneId?: unknown }).laneId : undefined;
      const object = typeof laneId === 'string' ? panel?.objectOfLane(laneId) : undefined;
      if (!object) return void vscode.window.showErrorMessage('Diagnose from the timeline needs a lane: right-click an object\'s lane.');
      d.diagnose(object);
    }),
    vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, {
      deserializeWebviewPanel: async (restored) => {
        const scope = d.memento.get<LaneScope>(SCOPE_KEY) ?? ALL_OBJECTS;
        panel?.dispose();
        adopt(new TimelinePanel(host, scope, restored));
      },
    }),
    // Not closed with the window: VS Code keeps the panel for the reload, and its serializer brings it back.
  ];
}
