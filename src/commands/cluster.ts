// Switch Context, Refresh, Enable/Disable Sink, Show Log, Show More.
import * as vscode from 'vscode';
import { sinkPermissions } from '../cluster/accessReview';
import type { Controller } from '../controller';
import { MoreNode } from '../views/eventsTree';

export async function enableSink(c: Controller): Promise<boolean> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Writing events to the cluster is off in an untrusted workspace: trust the workspace first.');
    return false;
  }
  if (!c.connection.kubeconfig) {
    void vscode.window.showErrorMessage(`Not connected to a cluster: ${c.lastError || 'no kubeconfig'}`);
    return false;
  }
  const client = c.connection.newClient();
  try {
    const answers = await sinkPermissions(client);
    const denied = answers.filter((a) => !a.allowed);
    if (denied.length > 0) {
      void vscode.window.showErrorMessage(
        `The sink stays off: context "${c.connection.context}" may not ${denied.map((d) => d.verb).join(' or ')} events (RBAC: verbs create and patch on "events" in the core API group are needed${denied[0].reason ? `; the apiserver says: ${denied[0].reason}` : ''}).`,
      );
      return false;
    }
  } catch (e) {
    void vscode.window.showErrorMessage(`Cannot check permissions to write events: ${(e as Error).message}`);
    return false;
  } finally {
    client.dispose();
  }
  await c.startSink();
  await vscode.workspace.getConfiguration('kubernetesEvents').update('sink.enabled', true, vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`Events recorded here are now also written to ${c.connection.context}.`);
  return true;
}

export function registerClusterCommands(c: Controller): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubernetesEvents.refresh', () => c.connect(c.connection.context)),
    vscode.commands.registerCommand('kubernetesEvents.switchContext', async (name?: string) => {
      let target = name;
      if (!target) {
        try {
          const { loadKubeconfig } = await import('../cluster/kubeconfig');
          const loaded = loadKubeconfig(c.settings.kubeconfig || undefined);
          const picked = await vscode.window.showQuickPick(
            loaded.contexts.map((x) => ({ label: x.name, description: [x.cluster, x.namespace && `namespace ${x.namespace}`].filter(Boolean).join(' · '), picked: x.name === c.connection.context })),
            { title: 'Switch Context', placeHolder: `Now: ${c.connection.context ?? 'none'}` },
          );
          target = picked?.label;
        } catch (e) {
          void vscode.window.showErrorMessage((e as Error).message);
          return;
        }
      }
      if (!target) return;
      await c.connect(target);
      if (c.viewState === 'badKubeconfig') void vscode.window.showErrorMessage(c.lastError);
    }),
    vscode.commands.registerCommand('kubernetesEvents.enableSink', () => enableSink(c)),
    vscode.commands.registerCommand('kubernetesEvents.disableSink', async () => {
      await c.stopSink();
      await vscode.workspace.getConfiguration('kubernetesEvents').update('sink.enabled', false, vscode.ConfigurationTarget.Global);
    }),
    vscode.commands.registerCommand('kubernetesEvents.showLog', () => c.channel.show(true)),
    vscode.commands.registerCommand('kubernetesEvents.showMore', (node?: MoreNode) => node instanceof MoreNode && c.tree.expandGroup(node.group)),
  ];
}
