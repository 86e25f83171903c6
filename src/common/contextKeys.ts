// The context keys package.json's `when` clauses read, in one place, each with the type of
// its value.

export const ContextKeys = {
  /** The filter is Show Warnings Only: the title offers Show All Event Types instead. */
  warningsOnly: 'kubernetesEvents.warningsOnly',
  /** Any filter is on: Clear Filters is offered. */
  filtered: 'kubernetesEvents.filtered',
  /** The sink is wanted (its setting is on), running or waiting for a connection: Disable Sink is offered. */
  sinkWanted: 'kubernetesEvents.sinkWanted',
  /** Live updates are paused: Resume is offered. */
  paused: 'kubernetesEvents.paused',
  /** The view has listed a cluster's events once in this window: the walkthrough's first step is done. */
  connected: 'kubernetesEvents.connected',
  /** An event was recorded in this window: the walkthrough's last step is done. */
  recorded: 'kubernetesEvents.recorded',
} as const;

export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

/** The value each key holds. */
export type ContextKeyValue<K extends ContextKey> = {
  'kubernetesEvents.warningsOnly': boolean;
  'kubernetesEvents.filtered': boolean;
  'kubernetesEvents.sinkWanted': boolean;
  'kubernetesEvents.paused': boolean;
  'kubernetesEvents.connected': boolean;
  'kubernetesEvents.recorded': boolean;
}[K];

export interface ContextKeySetter {
  set<K extends ContextKey>(key: K, value: ContextKeyValue<K>): void;
}
