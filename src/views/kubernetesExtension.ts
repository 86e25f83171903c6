// Working with the Kubernetes extension (ms-kubernetes-tools.vscode-kubernetes-tools) when it
// is installed, through its public API: Record Event and Show Events from its Cluster
// Explorer's resource menu, and following its kubeconfig and context.
import * as vscode from 'vscode';
import * as k8s from 'vscode-kubernetes-tools-api';
import { findResourceKind, objectPath } from '../cluster/discovery';
import { showEventsFor } from '../commands/showEvents';
import { Commands } from '../common/commandIds';
import { recordOnObject } from '../commands/record';
import type { Services } from '../services/services';
import type { ObjectSummary } from '../cluster/discovery';

export const KUBERNETES_EXTENSION_ID = 'ms-kubernetes-tools.vscode-kubernetes-tools';

/** The object an explorer node stands for, with the apiVersion and uid a reference needs. */
async function objectOf(s: Services, kind: string, name: string, namespace: string | undefined): Promise<ObjectSummary> {
  const client = s.connection.newClient();
  try {
    // The explorer knows the kind, not its group: look through every group.
    const resource = await findResourceKind(client, kind);
    if (!resource) throw new Error(`the cluster serves no ${kind}`);
    const object = await client.request<{ metadata: { uid?: string } }>({ method: 'GET', path: objectPath(resource, name, namespace) });
    return { apiVersion: resource.apiVersion, kind, metadata: { name, namespace: resource.namespaced ? namespace : undefined, uid: object.metadata.uid } };
  } finally {
    client.dispose();
  }
}

export async function connectKubernetesExtension(s: Services): Promise<vscode.Disposable[]> {
  const installed = vscode.extensions.getExtension(KUBERNETES_EXTENSION_ID) !== undefined;
  const disposables: vscode.Disposable[] = [];
  // The menu commands exist either way; without the extension they only explain.
  const resourceOf = async (target: unknown) => {
    if (!installed) return undefined;
    const explorer = await k8s.extension.clusterExplorer.v1_1;
    if (!explorer.available) return undefined;
    const node = explorer.api.resolveCommandTarget(target);
    return node?.nodeType === 'resource' ? node : undefined;
  };
  const notFound = (): undefined => void vscode.window.showWarningMessage(installed ? 'Pick a resource in the Kubernetes Cluster Explorer.' : 'This command works from the Kubernetes extension\'s Cluster Explorer (ms-kubernetes-tools.vscode-kubernetes-tools), which is not installed.');
  disposables.push(
    vscode.commands.registerCommand(Commands.showEventsForExplorerResource, async (target?: unknown) => {
      const node = await resourceOf(target);
      if (!node) return notFound();
      return showEventsFor(s, { kind: node.resourceKind.manifestKind, name: node.name, namespace: node.namespace || undefined });
    }),
    vscode.commands.registerCommand(Commands.recordEventOnExplorerResource, async (target?: unknown) => {
      const node = await resourceOf(target);
      if (!node) return notFound();
      try {
        const object = await objectOf(s, node.resourceKind.manifestKind, node.name, node.namespace || undefined);
        return await recordOnObject(s, object);
      } catch (e) {
        return void vscode.window.showErrorMessage(`Cannot record an event on ${node.resourceKind.manifestKind}/${node.name}: ${(e as Error).message}`);
      }
    }),
  );
  if (!installed) return disposables;
  const configuration = await k8s.extension.configuration.v1_1;
  if (configuration.available) {
    // Follow the Kubernetes extension's kubeconfig and context, unless ours are set explicitly.
    const follow = async (context?: string) => {
      const settings = s.settings.value;
      if (settings.kubeconfig) return;
      const path = configuration.api.getKubeconfigPath();
      if (path.pathType !== 'host') return;
      s.connection.followedKubeconfig = path.hostPath;
      await s.connection.connect({ context: settings.context || context, kubeconfigPath: path.hostPath, namespaces: settings.namespaces });
    };
    disposables.push(
      configuration.api.onDidChangeKubeconfigPath(() => void follow()),
      configuration.api.onDidChangeContext((context) => void follow(context ?? undefined)),
    );
    await follow();
  }
  return disposables;
}
