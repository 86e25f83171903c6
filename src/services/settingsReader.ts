// Reads the settings (validated: see settingsValidation.ts). A kubeconfig path or
// context can run an exec plugin and the sink writes to a cluster, so in an untrusted
// workspace those come from the user's own settings only.
import * as vscode from 'vscode';
import { validateSettings, type Settings } from './settingsValidation';

export type { Settings } from './settingsValidation';
export const SECTION = 'kubernetesEvents';

/** Settings a workspace may not set until it is trusted (package.json restrictedConfigurations). */
const RESTRICTED = new Set(['kubeconfig', 'context', 'sink.enabled']);
/**
 * Off in an untrusted workspace whoever set it, the user too (package.json's
 * untrustedWorkspaces description): the sink writes to a cluster. Trust granted, the
 * settings are read again and the user's choice takes effect.
 */
const OFF_UNTIL_TRUSTED = new Set(['sink.enabled']);
/** Read only when set somewhere: their contributed default must not hide a deprecated setting they replace. */
const SET_ONLY = new Set(['groupBy']);
const KEYS = [
  'kubeconfig', 'context', 'namespaces', 'warningsOnly', 'groupByNamespace', 'groupBy', 'sortOrder', 'historyWindowHours', 'storeCap', 'maxChildren',
  'sink.enabled', 'yaml.showManagedFields', 'notifications.enabled', 'correlator.burstSize', 'correlator.qps', 'correlator.aggregateMaxEvents', 'correlator.aggregateIntervalSeconds',
  'manifests.scope', 'manifests.include', 'manifests.exclude', 'manifests.warningWindowMinutes', 'manifests.problems', 'manifests.codeLens', 'manifests.hover', 'manifests.explorerDecorations',
  'walkthrough.openOnFirstRun',
];

export function readSettings(): { settings: Settings; problems: string[] } {
  const c = vscode.workspace.getConfiguration(SECTION);
  const trusted = vscode.workspace.isTrusted;
  const raw: Record<string, unknown> = {};
  for (const k of KEYS) {
    if (!trusted && OFF_UNTIL_TRUSTED.has(k)) raw[k] = false;
    else if (!trusted && RESTRICTED.has(k)) raw[k] = c.inspect(k)?.globalValue;
    else if (SET_ONLY.has(k)) {
      const i = c.inspect(k);
      raw[k] = i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
    } else raw[k] = c.get(k);
  }
  return validateSettings(raw);
}
