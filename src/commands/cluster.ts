// Refresh, Switch Context, Open Kubeconfig, Show Log, Pause/Resume, Sort By, Show More.
import * as vscode from 'vscode';
import { kubeconfigFiles, loadKubeconfig } from '../cluster/kubeconfig';
import { Commands } from '../common/commandIds';
import { ContextKeys } from '../common/contextKeys';
import type { GroupBy } from '../common/settingsValidation';
import type { SortOrder } from '../model/groupOrder';
import type { Services } from '../services/services';
import { MoreNode } from '../views/tree/nodes/moreNode';
import { registerPlainCommand, registerRowCommand } from './registry';

/** Connects with what the settings say now (and the followed kubeconfig, if any). */
export function connectFromSettings(s: Services, context?: string): Promise<void> {
  const settings = s.settings.value;
  return s.connection.connect({ context: context ?? s.connection.request.context ?? settings.context, kubeconfigPath: settings.kubeconfig || s.connection.followedKubeconfig, namespaces: settings.namespaces });
}

async function switchContext(s: Services): Promise<void> {
  let contexts;
  try {
    contexts = loadKubeconfig(s.settings.value.kubeconfig || s.connection.followedKubeconfig || undefined).contexts;
  } catch (e) {
    void vscode.window.showErrorMessage((e as Error).message);
    return;
  }
  const now = s.connection.context;
  const picked = await vscode.window.showQuickPick(
    contexts.map((x) => ({ label: x.name, description: [x.cluster && `cluster ${x.cluster}`, x.user && `user ${x.user}`, x.namespace && `namespace ${x.namespace}`].filter(Boolean).join(' · '), detail: x.name === now ? 'current' : undefined })),
    { title: 'Switch Context', placeHolder: `Now: ${now ?? 'not connected'}`, matchOnDescription: true },
  );
  if (!picked) return;
  await connectFromSettings(s, picked.label);
}

async function openKubeconfig(s: Services): Promise<void> {
  const files = kubeconfigFiles(s.settings.value.kubeconfig || s.connection.followedKubeconfig || undefined);
  // The message names the file when one is at fault; else the first one read.
  const named = files.find((f) => s.connection.status.message.includes(f)) ?? files[0];
  if (!named) {
    void vscode.window.showInformationMessage('No kubeconfig file was found: set KUBECONFIG, create ~/.kube/config, or set kubernetesEvents.kubeconfig.');
    return;
  }
  await vscode.window.showTextDocument(vscode.Uri.file(named), { preview: true });
}

const ORDERS: { order: SortOrder; label: string; description: string }[] = [
  { order: 'lastSeen', label: 'Last seen', description: 'objects with the newest events first' },
  { order: 'warnings', label: 'Most warnings', description: 'objects with the most live warning events first' },
  { order: 'name', label: 'Name', description: 'by object name, then kind and namespace' },
];

async function sortBy(s: Services): Promise<void> {
  const now = s.tree.sortOrder;
  const picked = await vscode.window.showQuickPick(
    ORDERS.map((o) => ({ ...o, label: `${o.order === now ? '$(check) ' : ''}${o.label}` })),
    { title: 'Sort Objects By', placeHolder: `Now: ${ORDERS.find((o) => o.order === now)?.label ?? now}` },
  );
  if (!picked) return;
  const order = picked.order;
  s.tree.setOptions({ sortOrder: order });
  s.keys.set(ContextKeys.sortOrder, order);
  await s.settings.update('sortOrder', order === 'lastSeen' ? undefined : order);
}

const GROUPINGS: { groupBy: GroupBy; label: string; description: string }[] = [
  { groupBy: 'object', label: 'Object', description: 'each involved object on its own' },
  { groupBy: 'namespace', label: 'Namespace', description: 'objects under their namespace' },
  { groupBy: 'workload', label: 'Workload', description: 'Pods under ReplicaSets under Deployments, Jobs under CronJobs, with sums' },
];

async function groupBy(s: Services): Promise<void> {
  const now = s.tree.groupBy;
  const picked = await vscode.window.showQuickPick(
    GROUPINGS.map((g) => ({ ...g, label: `${g.groupBy === now ? '$(check) ' : ''}${g.label}` })),
    { title: 'Group Events By', placeHolder: `Now: ${GROUPINGS.find((g) => g.groupBy === now)?.label ?? now}` },
  );
  if (!picked) return;
  s.tree.setOptions({ groupBy: picked.groupBy });
  s.keys.set(ContextKeys.groupBy, picked.groupBy);
  await s.owners.setWanted(picked.groupBy === 'workload');
  await s.settings.update('groupBy', picked.groupBy === 'object' ? undefined : picked.groupBy);
  s.status.update();
}

export function registerClusterCommands(s: Services): vscode.Disposable[] {
  return [
    registerPlainCommand(Commands.refresh, () => connectFromSettings(s)),
    registerPlainCommand(Commands.switchContext, () => switchContext(s)),
    registerPlainCommand(Commands.openKubeconfig, () => openKubeconfig(s)),
    registerPlainCommand(Commands.showLog, () => s.channel.show(true)),
    registerPlainCommand(Commands.pause, () => (s.tree.pause(), s.status.update())),
    registerPlainCommand(Commands.resume, () => (s.tree.resume(), s.status.update())),
    registerPlainCommand(Commands.sortBy, () => sortBy(s)),
    registerPlainCommand(Commands.groupBy, () => groupBy(s)),
    registerRowCommand(Commands.showMore, (x): x is MoreNode => x instanceof MoreNode, () => s.view.selection, (node) => s.tree.expandGroup(node.parent), 'Pick a "Show more" row in the Events view.'),
  ];
}
