import * as vscode from 'vscode';
import { loadKubeConfig } from './cluster/kubeconfig';
import { listEvents } from './cluster/listEvents';
import { groupEvents } from './model/groupEvents';
import { EventsTreeProvider } from './views/eventsTree';

/** Command and view identifiers, as contributed in package.json. */
export const VIEW_ID = 'kubernetesEvents.events';
export const REFRESH_COMMAND = 'kubernetesEvents.refresh';

/** What activate returns: a small API that tests and other extensions can read. */
export interface KubernetesEventsApi {
  /** Number of involved objects in the view after the last refresh. */
  readonly groupCount: () => number;
}

export function activate(context: vscode.ExtensionContext): KubernetesEventsApi {
  const tree = new EventsTreeProvider();
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  context.subscriptions.push(view);

  const refresh = async (): Promise<void> => {
    const explicit = vscode.workspace.isTrusted ? vscode.workspace.getConfiguration('kubernetesEvents').get<string>('kubeconfig') : undefined;
    try {
      const kc = loadKubeConfig(explicit || undefined);
      view.message = undefined;
      tree.setGroups(groupEvents(await listEvents(kc)));
      if (tree.groupCount === 0) view.message = 'No events in this cluster.';
    } catch (e) {
      view.message = `Cannot load events: ${(e as Error).message}`;
      tree.setGroups([]);
    }
  };
  context.subscriptions.push(vscode.commands.registerCommand(REFRESH_COMMAND, refresh));
  void refresh();
  return { groupCount: () => tree.groupCount };
}

export function deactivate(): void {}
