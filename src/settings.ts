// Reads the settings (validated: see common/settingsValidation.ts). A kubeconfig path or
// context can run an exec plugin and the sink writes to a cluster, so in an untrusted
// workspace those come from the user's own settings only.
import * as vscode from 'vscode';
import { validateSettings, type Settings } from './common/settingsValidation';

export type { Settings } from './common/settingsValidation';
export const SECTION = 'kubernetesEvents';

/** Settings a workspace may not set until it is trusted (package.json restrictedConfigurations). */
const RESTRICTED = new Set(['kubeconfig', 'context', 'sink.enabled']);
const KEYS = [
  'kubeconfig', 'context', 'namespaces', 'warningsOnly', 'groupByNamespace', 'groupBy', 'sortOrder', 'historyWindowHours', 'storeCap', 'maxChildren',
  'sink.enabled', 'yaml.showManagedFields', 'notifications.enabled', 'correlator.burstSize', 'correlator.qps', 'correlator.aggregateMaxEvents', 'correlator.aggregateIntervalSeconds',
];

export function readSettings(): { settings: Settings; problems: string[] } {
  const c = vscode.workspace.getConfiguration(SECTION);
  const trusted = vscode.workspace.isTrusted;
  const raw: Record<string, unknown> = {};
  for (const k of KEYS) raw[k] = RESTRICTED.has(k) && !trusted ? c.inspect(k)?.globalValue : c.get(k);
  return validateSettings(raw);
}
