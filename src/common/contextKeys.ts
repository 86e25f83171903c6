// The context keys package.json's `when` clauses read, in one place.

export const ContextKeys = {
  /** What the view is showing: see ViewState. */
  state: 'kubernetesEvents.state',
  warningsOnly: 'kubernetesEvents.warningsOnly',
  filtered: 'kubernetesEvents.filtered',
  /** The sink is wanted (its setting is on), running or waiting for a connection: Disable Sink is offered. */
  sinkWanted: 'kubernetesEvents.sinkWanted',
  paused: 'kubernetesEvents.paused',
  /** 'lastSeen' | 'warnings' | 'name'. */
  sortOrder: 'kubernetesEvents.sortOrder',
  /** 'object' | 'namespace' | 'workload'. */
  groupBy: 'kubernetesEvents.groupBy',
} as const;

export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];
