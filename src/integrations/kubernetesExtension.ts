// Working with the Kubernetes extension (ms-kubernetes-tools.vscode-kubernetes-tools) when it
// is installed, through its public API (vscode-kubernetes-tools-api): Show in Events View and
// Record Event... on its Cluster Explorer's resources, and following its kubeconfig and
// context. Tested with the real extension in test/host/kubernetes and test/ui/kubernetes.
import * as vscode from 'vscode';
import * as k8s from 'vscode-kubernetes-tools-api';
import type { ConfigurationV1_1 } from 'vscode-kubernetes-tools-api/js/configuration/v1_1';
import { findResourceKind, objectPath } from '../cluster/discovery';
import { Commands } from '../common/commandIds';
import type { ObjectSummary } from '../model/recordRequest';
import type { ConnectionService } from '../services/connectionService';
import type { DiagnoseTarget } from '../services/diagnoseSession';
import type { NavigationService } from '../services/navigationService';
import type { RecordEventInput } from '../views/recordEventInput';

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
async function assertInView(connection: ConnectionService, o: ObjectSummary): Promise<void> {
  const what = `${o.kind}/${o.metadata.name}`;
  const context = connection.context ?? '(none)';
  let client;
  try {
    client = connection.newClient();
  } catch {
    throw new ExplorerError(`the Events view is not connected${connection.status.message ? `: ${connection.status.message}` : ''}`);
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
function loaded(connection: ConnectionService): Promise<void> {
  const loading = () => connection.status.phase === 'loading' || connection.status.phase === 'disconnected';
  if (!loading()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const timer = setTimeout(done, LOAD_TIMEOUT_MS);
    const subscription = connection.onDidChangeStatus(() => {
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

export interface KubernetesExtensionDeps {
  readonly connection: ConnectionService;
  readonly navigation: NavigationService;
  readonly recordInput: RecordEventInput;
  /** Opens Diagnose on an object of the view's cluster. */
  readonly diagnose: (o: DiagnoseTarget) => void;
}

export async function connectKubernetesExtension(d: KubernetesExtensionDeps): Promise<vscode.Disposable[]> {
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
    await loaded(d.connection);
    try {
      const object = await explorerObject(node);
      await assertInView(d.connection, object);
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
      if (!o) return undefined;
      const result = await d.navigation.showEvents({ kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid });
      if (!result.shown) return void vscode.window.showInformationMessage(result.text);
      // The object's row, as the view shows it.
      return { key: result.key, object: result.object };
    }),
    vscode.commands.registerCommand(Commands.recordEventOnExplorerResource, async (target?: unknown) => {
      const node = await resourceOf(target);
      if (!node) return notFound();
      const o = await objectOf(node, 'record an event on');
      return o && d.recordInput.recordOn(o);
    }),
    vscode.commands.registerCommand(Commands.diagnoseExplorerResource, async (target?: unknown) => {
      const node = await resourceOf(target);
      if (!node) return notFound();
      const o = await objectOf(node, 'diagnose');
      if (o) d.diagnose({ kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace ?? '', apiVersion: o.apiVersion, uid: o.metadata.uid });
      return undefined;
    }),
  );
  if (!installed) return disposables;
  const configuration = await k8s.extension.configuration.v1_1;
  if (!configuration.available) return disposables;
  // Follow the Kubernetes extension's kubeconfig and context (ConnectionChoice says when ours win).
  const follow = (context?: string) => d.connection.follow(followedPath(configuration.api.getKubeconfigPath()), context);
  disposables.push(
    configuration.api.onDidChangeKubeconfigPath(() => void follow()),
    configuration.api.onDidChangeContext((context) => void follow(context ?? undefined)),
    // Its kubeconfig setting edited directly (not through its Set Kubeconfig command) raises no
    // onDidChangeKubeconfigPath: its explorer refreshes on the setting, and so do we.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(KUBERNETES_SETTINGS)) void follow();
    }),
  );
  following = follow();
  await following;
  return disposables;
}
