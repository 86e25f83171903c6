// Turning the sink on and off. Writing to a cluster is a choice the user makes knowingly:
// enabling asks first, naming the context, the user and the server, checks the permissions
// it needs, and saves the choice for this workspace unless the user picks every workspace.
import * as vscode from 'vscode';
import { sinkPermissions } from '../cluster/accessReview';
import type { ConnectionService } from '../services/connectionService';
import type { SettingsService } from '../services/settingsService';
import type { SinkService } from '../services/sinkService';

const THIS_WORKSPACE = 'Enable for This Workspace';
const ALL_WORKSPACES = 'Enable for All Workspaces';

export class SinkConsent {
  constructor(
    private readonly connection: ConnectionService,
    private readonly sink: SinkService,
    private readonly settings: SettingsService,
  ) {}

  /** Asks, checks and turns the sink on; true when it is on afterwards. */
  async enable(): Promise<boolean> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Writing events to the cluster is off in an untrusted workspace: trust the workspace first.');
      return false;
    }
    const context = this.connection.context;
    const loaded = this.connection.connection.kubeconfig;
    if (!context || !loaded) {
      void vscode.window.showErrorMessage(`Not connected to a cluster${this.connection.status.message ? `: ${this.connection.status.message}` : ''}.`);
      return false;
    }
    const info = loaded.contexts.find((c) => c.name === context);
    let server = '';
    try {
      const client = this.connection.newClient();
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
    const client = this.connection.newClient();
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
    await this.sink.setWanted(true);
    await this.settings.update('sink.enabled', true, pick === THIS_WORKSPACE ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
    void vscode.window.showInformationMessage(`Sink on: events recorded here are now also written to ${context}${pick === THIS_WORKSPACE ? ' (for this workspace)' : ''}.`);
    return true;
  }

  async disable(): Promise<void> {
    await this.sink.setWanted(false);
    // Off wherever it was turned on, so no other scope turns it on again.
    const inspect = vscode.workspace.getConfiguration('kubernetesEvents').inspect<boolean>('sink.enabled');
    if (inspect?.workspaceValue !== undefined) await this.settings.update('sink.enabled', undefined, vscode.ConfigurationTarget.Workspace);
    if (inspect?.globalValue) await this.settings.update('sink.enabled', undefined, vscode.ConfigurationTarget.Global);
    vscode.window.setStatusBarMessage('Sink off: events recorded here stay in this window.', 5000);
  }
}
