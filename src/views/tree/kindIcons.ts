// A codicon per kind of object, so a row says what it is about at a glance; warnings colour
// the icon, they never replace it.
import * as vscode from 'vscode';

const KIND_ICONS: Record<string, string> = {
  Pod: 'vm',
  Deployment: 'rocket',
  ReplicaSet: 'layers',
  StatefulSet: 'database',
  DaemonSet: 'server-process',
  Job: 'run',
  CronJob: 'watch',
  Node: 'server',
  Service: 'globe',
  Ingress: 'globe',
  ConfigMap: 'settings',
  Secret: 'lock',
  PersistentVolumeClaim: 'archive',
  PersistentVolume: 'archive',
  Namespace: 'symbol-namespace',
  HorizontalPodAutoscaler: 'graph-line',
  Endpoints: 'plug',
  EndpointSlice: 'plug',
  ServiceAccount: 'account',
  Lease: 'clock',
};

/** The kind's icon (a generic one for kinds we do not know); in the warning colour when warned. */
export function kindIcon(kind: string, warned: boolean): vscode.ThemeIcon {
  return new vscode.ThemeIcon(KIND_ICONS[kind] ?? 'symbol-class', warned ? new vscode.ThemeColor('list.warningForeground') : undefined);
}

export function eventIcon(type: string, expired: boolean, aggregated: boolean): vscode.ThemeIcon {
  if (expired) return new vscode.ThemeIcon('history', new vscode.ThemeColor('disabledForeground'));
  const warning = type === 'Warning';
  const color = warning ? new vscode.ThemeColor('list.warningForeground') : undefined;
  return new vscode.ThemeIcon(aggregated ? 'layers' : warning ? 'warning' : 'info', color);
}
