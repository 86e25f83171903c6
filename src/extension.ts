// The VS Code edge: builds the Controller and registers the commands.
import * as vscode from 'vscode';
import { registerClusterCommands } from './commands/cluster';
import { registerExportCommands } from './commands/export';
import { registerFilterCommands } from './commands/filters';
import { registerRecordCommands } from './commands/record';
import { registerShowEventsCommands } from './commands/showEvents';
import { registerYamlCommands } from './commands/yaml';
import { Controller } from './controller';
import { readSettings } from './settings';
import { connectKubernetesExtension } from './views/kubernetesExtension';

/** What activate returns: read access for tests and other extensions. */
export interface KubernetesEventsApi {
  readonly controller: Controller;
  /** Number of involved objects in the view now. */
  readonly groupCount: () => number;
  /** Milliseconds activate took. */
  readonly activationMs: number;
}

let controller: Controller | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<KubernetesEventsApi> {
  const started = Date.now();
  const c = new Controller(context);
  controller = c;
  context.subscriptions.push(
    ...registerClusterCommands(c),
    ...registerFilterCommands(c),
    ...registerRecordCommands(c),
    ...registerExportCommands(c),
    ...registerYamlCommands(c),
    ...registerShowEventsCommands(c),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration('kubernetesEvents')) return;
      const before = c.settings;
      c.settings = readSettings();
      if (e.affectsConfiguration('kubernetesEvents.groupByNamespace') || e.affectsConfiguration('kubernetesEvents.maxChildren')) {
        c.tree.setOptions({ groupByNamespace: c.settings.groupByNamespace, maxChildren: c.settings.maxChildren });
      }
      if (before.kubeconfig !== c.settings.kubeconfig || before.context !== c.settings.context || before.namespaces.join() !== c.settings.namespaces.join()) await c.connect();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      c.settings = readSettings();
      void c.connect();
    }),
  );
  void vscode.commands.executeCommand('setContext', 'kubernetesEvents.sinkEnabled', false);
  await c.start();
  // Optional: the Kubernetes extension's explorer menus and kubeconfig, when it is installed.
  connectKubernetesExtension(c).then(
    (d) => context.subscriptions.push(...d),
    (e: Error) => c.logger.error(e, 'Cannot use the Kubernetes extension'),
  );
  return { controller: c, groupCount: () => c.tree.groups().length, activationMs: Date.now() - started };
}

export async function deactivate(): Promise<void> {
  await controller?.dispose();
  controller = undefined;
}
