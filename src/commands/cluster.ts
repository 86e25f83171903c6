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
  const picked = await s.tree.holding(() => vscode.window.showQuickPick(
    contexts.map((x) => ({ label: x.name, description: [x.cluster && `cluster ${x.cluster}`, x.user && `user ${x.user}`, x.namespace && `namespace ${x.namespace}`].filter(Boolean).join(' · '), detail: x.name === now ? 'current' : undefined })),
    { title: 'Switch Context', placeHolder: `Now: ${now ?? 'not connected'}`, matchOnDescription: true },
  ));
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

const ORDERS: { value: SortOrder; label: string; description: string }[] = [
  { value: 'lastSeen', label: 'Last seen', description: 'objects with the newest events first' },
  { value: 'warnings', label: 'Most warnings', description: 'objects with the most live warning events first' },
  { value: 'name', label: 'Name', description: 'by object name, then kind and namespace' },
];

/** One choice among a few, the current one checked; undefined when cancelled or unchanged. */
async function pickChoice<T extends string>(title: string, choices: { value: T; label: string; description: string }[], now: T): Promise<T | undefined> {
  const picked = await vscode.window.showQuickPick(
    choices.map((c) => ({ ...c, label: `${c.value === now ? '$(check) ' : ''}${c.label}` })),
    { title, placeHolder: `Now: ${choices.find((c) => c.value === now)?.label ?? now}` },
  );
  return picked && picked.value !== now ? picked.value : undefined;
}

async function sortBy(s: Services): Promise<void> {
  const order = await s.tree.holding(() => pickChoice('Sort Objects By', ORDERS, s.tree.sortOrder));
  if (!order) return;
  s.tree.setOptions({ sortOrder: order });
  s.keys.set(ContextKeys.sortOrder, order);
  // Written even when it is the default: clearing it could let a value set elsewhere (the user's settings) win.
  await s.settings.update('sortOrder', order);
}

const GROUPINGS: { value: GroupBy; label: string; description: string }[] = [
  { value: 'object', label: 'Object', description: 'each involved object on its own' },
  { value: 'namespace', label: 'Namespace', description: 'objects under their namespace' },
  { value: 'workload', label: 'Workload', description: 'Pods under ReplicaSets under Deployments, Jobs under CronJobs, with sums' },
];

async function groupBy(s: Services): Promise<void> {
  const groupBy = await s.tree.holding(() => pickChoice('Group Events By', GROUPINGS, s.tree.groupBy));
  if (!groupBy) return;
  s.tree.setOptions({ groupBy });
  s.keys.set(ContextKeys.groupBy, groupBy);
  await s.owners.setWanted(groupBy === 'workload');
  await s.settings.update('groupBy', groupBy);
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
    registerRowCommand(Commands.showMore, (x): x is MoreNode => x instanceof MoreNode, () => s.selection.selection, (node) => s.tree.expandGroup(node.parent), 'Pick a "Show more" row in the Events view.'),
  ];
}
