// Enable and Disable Sink. Writing to a cluster is a choice the user makes knowingly: Enable
// asks first, naming the context, the user and the server, checks the permissions it needs,
// and saves the choice for this workspace unless the user picks every workspace.
import * as vscode from 'vscode';
import { sinkPermissions } from '../cluster/accessReview';
import { Commands } from '../common/commandIds';
import type { Services } from '../services/services';
import { registerPlainCommand } from './registry';

const THIS_WORKSPACE = 'Enable for This Workspace';
const ALL_WORKSPACES = 'Enable for All Workspaces';

/** Asks, checks and turns the sink on; true when it is on afterwards. */
export async function enableSink(s: Services): Promise<boolean> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showWarningMessage('Writing events to the cluster is off in an untrusted workspace: trust the workspace first.');
    return false;
  }
  const context = s.connection.context;
  const loaded = s.connection.connection.kubeconfig;
  if (!context || !loaded) {
    void vscode.window.showErrorMessage(`Not connected to a cluster${s.connection.status.message ? `: ${s.connection.status.message}` : ''}.`);
    return false;
  }
  const info = loaded.contexts.find((c) => c.name === context);
  let server = '';
  try {
    const client = s.connection.newClient();
    server = client.server;
    client.dispose();
  } catch {
    /* shown without the server */
  }
  const choices = vscode.workspace.workspaceFolders?.length ? [THIS_WORKSPACE, ALL_WORKSPACES] : [ALL_WORKSPACES];
  const pick = await vscode.window.showWarningMessage(
    `Write the events you record to the cluster of context "${context}"?`,
    {
      modal: true,
      detail: `They will be created as user "${info?.user || '(none)'}"${server ? ` on ${server}` : ''}, counted and aggregated as client-go does, and anyone who can read events there will see them. Events recorded before now stay in this window.`,
    },
    ...choices,
  );
  if (!pick) return false;
  const client = s.connection.newClient();
  try {
    const denied = (await sinkPermissions(client)).filter((a) => !a.allowed);
    if (denied.length > 0) {
      void vscode.window.showErrorMessage(
        `The sink stays off: user "${info?.user ?? ''}" of context "${context}" may not ${denied.map((d) => d.verb).join(' or ')} events (RBAC: verbs create and patch on "events" in the core API group are needed${denied[0].reason ? `; the apiserver says: ${denied[0].reason}` : ''}).`,
      );
      return false;
    }
  } catch (e) {
    void vscode.window.showErrorMessage(`Cannot check the permissions to write events: ${(e as Error).message}`);
    return false;
  } finally {
    client.dispose();
  }
  await s.sink.setWanted(true);
  await s.settings.update('sink.enabled', true, pick === THIS_WORKSPACE ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
  void vscode.window.showInformationMessage(`Sink on: events recorded here are now also written to ${context}${pick === THIS_WORKSPACE ? ' (for this workspace)' : ''}.`);
  return true;
}

export async function disableSink(s: Services): Promise<void> {
  await s.sink.setWanted(false);
  // Off wherever it was turned on, so no other scope turns it on again.
  const inspect = vscode.workspace.getConfiguration('kubernetesEvents').inspect<boolean>('sink.enabled');
  if (inspect?.workspaceValue !== undefined) await s.settings.update('sink.enabled', undefined, vscode.ConfigurationTarget.Workspace);
  if (inspect?.globalValue) await s.settings.update('sink.enabled', undefined, vscode.ConfigurationTarget.Global);
  vscode.window.setStatusBarMessage('Sink off: events recorded here stay in this window.', 5000);
}

export function registerSinkCommands(s: Services): vscode.Disposable[] {
  return [registerPlainCommand(Commands.enableSink, () => enableSink(s)), registerPlainCommand(Commands.disableSink, () => disableSink(s))];
}
