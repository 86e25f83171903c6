// The context keys package.json's `when` clauses read, in one place.

export const ContextKeys = {
  /** What the view is showing: see ViewState. */
  state: 'kubernetesEvents.state',
  warningsOnly: 'kubernetesEvents.warningsOnly',
  filtered: 'kubernetesEvents.filtered',
  sinkEnabled: 'kubernetesEvents.sinkEnabled',
  paused: 'kubernetesEvents.paused',
  /** 'lastSeen' | 'warnings' | 'name'. */
  sortOrder: 'kubernetesEvents.sortOrder',
  /** 'object' | 'namespace' | 'workload'. */
  groupBy: 'kubernetesEvents.groupBy',
} as const;

export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];
