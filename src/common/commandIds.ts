// Every command the extension contributes, in one place (package.json lists the same IDs;
// a host test checks both agree).

export const Commands = {
  // View title and palette: they take no argument (VS Code passes the focused row to
  // view-title commands; those handlers ignore it).
  refresh: 'kubernetesEvents.refresh',
  switchContext: 'kubernetesEvents.switchContext',
  warningsOnly: 'kubernetesEvents.warningsOnly',
  allTypes: 'kubernetesEvents.allTypes',
  filter: 'kubernetesEvents.filter',
  clearFilters: 'kubernetesEvents.clearFilters',
  recordEvent: 'kubernetesEvents.recordEvent',
  export: 'kubernetesEvents.export',
  enableSink: 'kubernetesEvents.enableSink',
  disableSink: 'kubernetesEvents.disableSink',
  showLog: 'kubernetesEvents.showLog',
  pause: 'kubernetesEvents.pause',
  resume: 'kubernetesEvents.resume',
  sortBy: 'kubernetesEvents.sortBy',
  groupBy: 'kubernetesEvents.groupBy',
  openKubeconfig: 'kubernetesEvents.openKubeconfig',
  searchEvents: 'kubernetesEvents.searchEvents',
  clearNotificationMutes: 'kubernetesEvents.clearNotificationMutes',
  showTimeline: 'kubernetesEvents.showTimeline',
  // Row menus and row clicks: they take the row VS Code passes, nothing else.
  recordEventOnObject: 'kubernetesEvents.recordEventOnObject',
  openEventYaml: 'kubernetesEvents.openEventYaml',
  openObjectYaml: 'kubernetesEvents.openObjectYaml',
  copyKubectlCommand: 'kubernetesEvents.copyKubectlCommand',
  showMore: 'kubernetesEvents.showMore',
  showTimelineForObject: 'kubernetesEvents.showTimelineForObject',
  diagnose: 'kubernetesEvents.diagnose',
  // For other extensions and links: a typed object argument, validated.
  showEventsForObject: 'kubernetesEvents.showEventsForObject',
  // A manifest's CodeLens and its Problems entries' quick fixes: the document's uri and the resource's place in it.
  showManifestEvents: 'kubernetesEvents.showManifestEvents',
  showManifestTimeline: 'kubernetesEvents.showManifestTimeline',
  diagnoseManifestResource: 'kubernetesEvents.diagnoseManifestResource',
  // A timeline lane's context menu (webview/context): the page's data-vscode-context names the lane.
  diagnoseTimelineLane: 'kubernetesEvents.diagnoseTimelineLane',
  // The Kubernetes extension's Cluster Explorer rows.
  showEventsForExplorerResource: 'kubernetesEvents.showEventsForExplorerResource',
  recordEventOnExplorerResource: 'kubernetesEvents.recordEventOnExplorerResource',
  diagnoseExplorerResource: 'kubernetesEvents.diagnoseExplorerResource',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/** The view and its container. */
export const VIEW_ID = 'kubernetesEvents.events';
export const FOCUS_VIEW_COMMAND = `${VIEW_ID}.focus`;

/** The Get Started walkthrough (package.json contributes.walkthroughs), under the extension's id. */
export const WALKTHROUGH_ID = 'gettingStarted';
