// Working with the Kubernetes extension (ms-kubernetes-tools.vscode-kubernetes-tools) when it
// is installed, through its public API (vscode-kubernetes-tools-api): Show in Events View and
// Record Event... on its Cluster Explorer's resources, and following its kubeconfig and
// context. Tested with the real extension in test/host/kubernetes and test/ui/kubernetes.
import * as vscode from 'vscode';
import * as k8s from 'vscode-kubernetes-tools-api';
import type { ConfigurationV1_1 } from 'vscode-kubernetes-tools-api/js/configuration/v1_1';
import { findResourceKind, objectPath, type ObjectSummary } from '../cluster/discovery';
import { recordOnObject } from '../commands/record';
import { showEventsFor } from '../commands/showEvents';
import { Commands } from '../common/commandIds';
import type { Services } from '../services/services';

export const KUBERNETES_EXTENSION_ID = k8s.MS_KUBERNETES_EXTENSION_ID;
/** The Kubernetes extension's settings object; its kubeconfig is `vs-kubernetes.kubeconfig` inside. */
const KUBERNETES_SETTINGS = 'vs-kubernetes';
/** How long a command from the explorer waits for the view to load: the click may just have activated us. */
const LOAD_TIMEOUT_MS = 30_000;

type ResourceNode = k8s.ClusterExplorerV1_1.ClusterExplorerResourceNode;

class ExplorerError extends Error {}

/**
 * The object a resource node stands for, asked of the Kubernetes extension's own kubectl
 * (its kubeconfig, context and namespace): the node itself is not enough. Nodes listed from
 * kubectl's columns have an empty namespace (the explorer lists the current namespace), the
 * Endpoints folder says kind "Endpoint", and most nodes carry no uid.
 */
async function explorerObject(node: ResourceNode): Promise<ObjectSummary> {
  const kubectl = await k8s.extension.kubectl.v1;
  if (!kubectl.available) throw new ExplorerError(`the Kubernetes extension gives no kubectl API (${kubectl.reason})`);
  const namespace = node.namespace ? ` --namespace=${node.namespace}` : '';
  const result = await kubectl.api.invokeCommand(`get ${node.resourceKind.abbreviation} ${node.name}${namespace} -o json`);
  if (!result) throw new ExplorerError('the Kubernetes extension could not run kubectl');
  if (result.code !== 0) throw new ExplorerError(result.stderr.trim() || `kubectl exited with code ${result.code}`);
  const o = JSON.parse(result.stdout) as { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; uid?: string } };
  return { apiVersion: o.apiVersion, kind: o.kind, metadata: { name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid } };
}

/** Throws unless the view's cluster holds this very object (same uid): the view may show another cluster. */
async function assertInView(s: Services, o: ObjectSummary): Promise<void> {
  const what = `${o.kind}/${o.metadata.name}`;
  const context = s.connection.context ?? '(none)';
  let client;
  try {
    client = s.connection.newClient();
  } catch {
    throw new ExplorerError(`the Events view is not connected${s.connection.status.message ? `: ${s.connection.status.message}` : ''}`);
  }
  try {
    const resource = await findResourceKind(client, o.kind, o.apiVersion);
    if (!resource) throw new ExplorerError(`the Events view's context ${context} serves no ${o.kind} (${o.apiVersion})`);
    let there;
    try {
      there = await client.request<{ metadata: { uid?: string } }>({ method: 'GET', path: objectPath(resource, o.metadata.name, o.metadata.namespace) });
    } catch (e) {
      throw new ExplorerError(`the Events view's context ${context} cannot read ${what}: ${(e as Error).message}`);
    }
    if (there.metadata.uid !== o.metadata.uid) throw new ExplorerError(`the Events view's context ${context} is another cluster: its ${what} is not the Cluster Explorer's (uid ${there.metadata.uid ?? 'none'}, not ${o.metadata.uid ?? 'none'})`);
  } finally {
    client.dispose();
  }
}

/** Resolves once the view has loaded (or failed to load) the context it is connecting to. */
function loaded(s: Services): Promise<void> {
  const loading = () => s.connection.status.phase === 'loading' || s.connection.status.phase === 'disconnected';
  if (!loading()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const timer = setTimeout(done, LOAD_TIMEOUT_MS);
    const subscription = s.connection.onDidChangeStatus(() => {
      if (!loading()) done();
    });
  });
}

/**
 * The kubeconfig to follow: none when the Kubernetes extension reads KUBECONFIG itself (our
 * own rules read the same files, merged as kubectl merges a list).
 */
function followedPath(p: ConfigurationV1_1.KubeconfigPath): string | undefined {
  if (p.pathType !== 'host') return undefined;
  return p.hostPath === process.env.KUBECONFIG ? undefined : p.hostPath;
}

export async function connectKubernetesExtension(s: Services): Promise<vscode.Disposable[]> {
  const installed = vscode.extensions.getExtension(KUBERNETES_EXTENSION_ID) !== undefined;
  const disposables: vscode.Disposable[] = [];
  // Set below once the view follows the Kubernetes extension's kubeconfig (the first connect).
  let following: Promise<void> = Promise.resolve();
  // The menu commands exist either way; without the extension they only explain.
  const resourceOf = async (target: unknown): Promise<ResourceNode | undefined> => {
    if (!installed) return undefined;
    const explorer = await k8s.extension.clusterExplorer.v1_1;
    if (!explorer.available) return undefined;
    const node = explorer.api.resolveCommandTarget(target);
    return node?.nodeType === 'resource' ? node : undefined;
  };
  const notFound = (): undefined => void vscode.window.showWarningMessage(installed ? 'Pick a resource in the Kubernetes Cluster Explorer.' : 'This command works from the Kubernetes extension\'s Cluster Explorer (ms-kubernetes-tools.vscode-kubernetes-tools), which is not installed.');
  /** The node's object, once the view has loaded and holds it; undefined after telling the user why not. */
  const objectOf = async (node: ResourceNode, action: string): Promise<ObjectSummary | undefined> => {
    await following;
    await loaded(s);
    try {
      const object = await explorerObject(node);
      await assertInView(s, object);
      return object;
    } catch (e) {
      if (!(e instanceof ExplorerError)) throw e;
      void vscode.window.showErrorMessage(`Cannot ${action} ${node.resourceKind.manifestKind}/${node.name}: ${e.message}.`);
      return undefined;
    }
  };
  disposables.push(
    vscode.commands.registerCommand(Commands.showEventsForExplorerResource, async (target?: unknown) => {
      const node = await resourceOf(target);
      if (!node) return notFound();
      const o = await objectOf(node, 'show the events of');
      return o && showEventsFor(s, { kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid });
    }),
    vscode.commands.registerCommand(Commands.recordEventOnExplorerResource, async (target?: unknown) => {
      const node = await resourceOf(target);
      if (!node) return notFound();
      const o = await objectOf(node, 'record an event on');
      return o && recordOnObject(s, o);
    }),
  );
  if (!installed) return disposables;
  const configuration = await k8s.extension.configuration.v1_1;
  if (!configuration.available) return disposables;
  // Follow the Kubernetes extension's kubeconfig and context, unless ours are set explicitly.
  const follow = async (context?: string) => {
    const kubeconfigPath = followedPath(configuration.api.getKubeconfigPath());
    // Kept even while our own kubeconfig wins: clearing ours falls back to it.
    s.connection.followedKubeconfig = kubeconfigPath;
    const settings = s.settings.value;
    if (settings.kubeconfig) return;
    // Nothing changed (its context tracker's first poll reports the context we already show):
    // connecting again would only list everything again.
    if (s.connection.request.kubeconfigPath === kubeconfigPath && (context === undefined || context === s.connection.context)) return;
    await s.connection.connect({ context: settings.context || context, kubeconfigPath, namespaces: settings.namespaces });
  };
  disposables.push(
    configuration.api.onDidChangeKubeconfigPath(() => void follow()),
    configuration.api.onDidChangeContext((context) => void follow(context ?? undefined)),
    // Its kubeconfig setting edited directly (not through its Set Kubeconfig command) raises no
    // onDidChangeKubeconfigPath: its explorer refreshes on the setting, and so do we.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(KUBERNETES_SETTINGS) && followedPath(configuration.api.getKubeconfigPath()) !== s.connection.followedKubeconfig) void follow();
    }),
  );
  following = follow();
  await following;
  return disposables;
}
