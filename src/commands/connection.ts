// Refresh, Switch Context, Open Kubeconfig and Show Log: the cluster the view shows.
import * as vscode from 'vscode';
import { kubeconfigFiles, loadKubeconfig } from '../cluster/kubeconfig';
import { Commands } from '../common/commandIds';
import type { ConnectionService } from '../services/connectionService';
import type { QuickInputs } from '../views/tree/quickInputs';
import { registerPlainCommand } from './registry';

async function switchContext(connection: ConnectionService, inputs: QuickInputs): Promise<void> {
  let contexts;
  try {
    contexts = loadKubeconfig(connection.kubeconfigPath).contexts;
  } catch (e) {
    void vscode.window.showErrorMessage((e as Error).message);
    return;
  }
  const now = connection.context;
  const picked = await inputs.ask(() => vscode.window.showQuickPick(
    contexts.map((x) => ({ label: x.name, description: [x.cluster && `cluster ${x.cluster}`, x.user && `user ${x.user}`, x.namespace && `namespace ${x.namespace}`].filter(Boolean).join(' · '), detail: x.name === now ? 'current' : undefined })),
    { title: 'Switch Context', placeHolder: `Now: ${now ?? 'not connected'}`, matchOnDescription: true },
  ));
  if (picked) await connection.switchTo(picked.label);
}

async function openKubeconfig(connection: ConnectionService): Promise<void> {
  const files = kubeconfigFiles(connection.kubeconfigPath);
  // The message names the file when one is at fault; else the first one read.
  const named = files.find((f) => connection.status.message.includes(f)) ?? files[0];
  if (!named) {
    void vscode.window.showInformationMessage('No kubeconfig file was found: set KUBECONFIG, create ~/.kube/config, or set kubernetesEvents.kubeconfig.');
    return;
  }
  await vscode.window.showTextDocument(vscode.Uri.file(named), { preview: true });
}

export function registerConnectionCommands(connection: ConnectionService, inputs: QuickInputs, log: vscode.LogOutputChannel): vscode.Disposable[] {
  return [
    registerPlainCommand(Commands.refresh, () => connection.refresh()),
    registerPlainCommand(Commands.switchContext, () => switchContext(connection, inputs)),
    registerPlainCommand(Commands.openKubeconfig, () => openKubeconfig(connection)),
    registerPlainCommand(Commands.showLog, () => log.show(true)),
  ];
}
