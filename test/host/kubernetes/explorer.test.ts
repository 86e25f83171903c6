// The integration with the real Kubernetes extension (the vendored 1.4.1), inside code-server's
// extension host: its Cluster Explorer's tree as VS Code reads it (the nodes VS Code passes to
// a menu command are these very objects), our menu items on its rows, Show in Events View on
// a Deployment, a Pod, a Namespace and a PersistentVolumeClaim, the view following its context
// and kubeconfig, and our own kubeconfig setting winning. test/ui/kubernetes right-clicks the
// same rows in Chromium and records events through the menu.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import * as k8s from 'vscode-kubernetes-tools-api';
import type { KubernetesEventsApi, TestingApi } from '../../../src/api';
import { Commands } from '../../../src/common/commandIds';
import type { Parts as Services } from '../../../src/api';
import type { EventNode } from '../../../src/views/tree/nodes/eventNode';
import type { GroupNode } from '../../../src/views/tree/nodes/groupNode';
import { EXPLORER_CONTEXTS as C, type ExplorerKubeconfigs } from '../../env/explorerSetup';
import { skipSuite } from '../../env/skip';
import { KUBERNETES_EXTENSION } from '../../env/vendor';
import { createClusterScopedEvent, createEvent, eventsAbout, podNames, seedExplorerObjects, uidOf } from '../../ui/cluster';
import { EXTENSION_ID, extensionApi, waitFor } from '../support';

/** The namespace its explorer lists (its kubeconfigs' contexts name it), new each run: hostRunner sets it. */
const NS = process.env.KEV_EXPLORER_NAMESPACE ?? '';
const TWIN = `${NS}-twin`;
const EXPLORER_VIEW = 'extension.vsKubernetesExplorer';

/** A node of the explorer's tree; VS Code hands these to menu commands. */
interface ExplorerNode {
  readonly nodeType: string;
}

/** The explorer's TreeDataProvider, as VS Code calls it to draw rows. */
interface ExplorerTree {
  getChildren(parent?: ExplorerNode): vscode.ProviderResult<ExplorerNode[]>;
  getTreeItem(node: ExplorerNode): vscode.TreeItem | Thenable<vscode.TreeItem>;
}

interface Row {
  readonly node: ExplorerNode;
  readonly item: vscode.TreeItem;
  readonly label: string;
}

/** The provider behind the view: 1.4.1 keeps it in its cluster explorer API object. */
async function explorerTree(): Promise<ExplorerTree> {
  const explorer = await k8s.extension.clusterExplorer.v1_1;
  if (!explorer.available) throw new Error(`the Cluster Explorer API is not available: ${explorer.reason}`);
  const tree = (explorer.api as unknown as { explorer?: ExplorerTree }).explorer;
  if (typeof tree?.getChildren !== 'function') throw new Error(`the explorer's tree provider is not where ${KUBERNETES_EXTENSION.version} keeps it`);
  return tree;
}

async function rows(tree: ExplorerTree, parent?: ExplorerNode): Promise<Row[]> {
  const nodes = (await tree.getChildren(parent)) ?? [];
  return Promise.all(
    nodes.map(async (node) => {
      const item = await tree.getTreeItem(node);
      return { node, item, label: typeof item.label === 'string' ? item.label : (item.label?.label ?? '') };
    }),
  );
}

/** The row at a path of labels, expanding each as a person would. */
async function rowAt(tree: ExplorerTree, ...path: (string | RegExp)[]): Promise<Row> {
  let parent: ExplorerNode | undefined;
  let row: Row | undefined;
  for (const step of path) {
    const children = await rows(tree, parent);
    row = children.find((r) => (typeof step === 'string' ? r.label === step : step.test(r.label)));
    if (!row) throw new Error(`no row ${String(step)} under ${path.slice(0, path.indexOf(step)).join(' > ') || 'the root'}: ${children.map((r) => r.label).join(', ')}`);
    parent = row.node;
  }
  if (!row) throw new Error('an empty path');
  return row;
}

/**
 * The commands of our package.json's explorer row menu that VS Code shows on a row of this
 * contextValue. Our when clauses are `view == X && viewItem =~ /re/`; any other shape fails
 * here rather than being guessed at.
 */
function ourMenuItems(contextValue: string | undefined): string[] {
  const json = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { menus: Record<string, { command: string; when: string }[]> } };
  const keys: Record<string, string | undefined> = { view: EXPLORER_VIEW, viewItem: contextValue };
  const holds = (term: string) => {
    const eq = /^(\w+) == ([\w.]+)$/.exec(term);
    if (eq) return keys[eq[1]] === eq[2];
    const re = /^(\w+) =~ \/(.*)\/(\w*)$/.exec(term);
    if (re) return keys[re[1]] !== undefined && new RegExp(re[2], re[3]).test(keys[re[1]] ?? '');
    throw new Error(`a when clause term this test does not read: ${term}`);
  };
  return json.contributes.menus['view/item/context']
    .filter((m) => m.when.includes(EXPLORER_VIEW))
    .filter((m) => m.when.split('&&').every((t) => holds(t.trim())))
    .map((m) => m.command);
}

/** Runs a command that should end by itself; fails if it asks for input instead (and closes the question). */
async function endsWithoutAsking<T>(command: string, arg: unknown): Promise<T> {
  const running = vscode.commands.executeCommand<T>(command, arg);
  const asked = Symbol('asked');
  const first = await Promise.race([running, new Promise<typeof asked>((r) => setTimeout(() => r(asked), 8_000))]);
  if (first !== asked) return first;
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  await running;
  throw new Error(`${command} asked for input instead of refusing`);
}

describe('with the Kubernetes extension (vendored) in the extension host', function () {
  this.timeout(120_000);
  let tree: ExplorerTree;
  let kubeconfigs: ExplorerKubeconfigs;
  let coldAtStart: boolean;
  let api: KubernetesEventsApi & { testing: TestingApi };
  let s: Services;
  const kubernetesSettings = () => vscode.workspace.getConfiguration().get<Record<string, unknown>>('vs-kubernetes') ?? {};
  const setKubernetesKubeconfig = (file: string) => vscode.workspace.getConfiguration().update('vs-kubernetes', { ...kubernetesSettings(), 'vs-kubernetes.kubeconfig': file }, vscode.ConfigurationTarget.Global);
  const setOwnKubeconfig = (file: string | undefined) => vscode.workspace.getConfiguration('kubernetesEvents').update('kubeconfig', file, vscode.ConfigurationTarget.Global);
  const selectedKey = () => (s.view.selection[0] as GroupNode | undefined)?.key;
  /** The view's selection reaches the extension host a moment after reveal resolves. */
  const selected = (key: string | undefined) => waitFor(`${key} selected in the view`, () => key !== undefined && selectedKey() === key, 5_000);
  /** Shows every object again and selects one outside our namespace, so what is selected afterwards is the command's doing. */
  const selectAnother = async () => {
    await s.filters.clear();
    // By id: the suite's bundle has its own copies of our classes, so instanceof would not do.
    const other = await waitFor('another object\'s row', () => s.tree.getChildren().find((n): n is GroupNode => n.id.startsWith('group:') && (n as GroupNode).object.namespace !== NS));
    // VS Code knows the row once the cleared filter's refresh has reached it.
    await waitFor('another object selected', async () => {
      await s.view.reveal(other, { select: true, focus: false }).then(undefined, () => undefined);
      return selectedKey() === other.key;
    });
  };
  const show = async (node: ExplorerNode) => {
    await selectAnother();
    return vscode.commands.executeCommand<GroupNode | undefined>(Commands.showEventsForExplorerResource, node);
  };

  before(async function () {
    if (process.env.KEV_VENDOR_MISSING) skipSuite(this, `the vendored Kubernetes extension is missing: ${process.env.KEV_VENDOR_MISSING}`);
    // Checked before anything activates us: the first test's click is what activates us.
    coldAtStart = vscode.extensions.getExtension(EXTENSION_ID)?.isActive === false;
    const installed = vscode.extensions.getExtension(KUBERNETES_EXTENSION.id);
    assert.ok(installed, `${KUBERNETES_EXTENSION.id} is not installed although the vendored files are there`);
    assert.equal((installed.packageJSON as { version: string }).version, KUBERNETES_EXTENSION.version);
    assert.ok(NS && process.env.KEV_EXPLORER_KUBECONFIGS, 'run through hostRunner --kubernetes-extension');
    kubeconfigs = JSON.parse(process.env.KEV_EXPLORER_KUBECONFIGS) as ExplorerKubeconfigs;
    await seedExplorerObjects(NS);
    await createClusterScopedEvent(`${NS}.quota-review`, { kind: 'Namespace', name: NS, apiVersion: 'v1', uid: await uidOf('Namespace', NS) }, 'QuotaReviewed', 'quota reviewed by the platform team');
    // The controllers' events exist before our first list, so the first click has them to show.
    await waitFor('ScalingReplicaSet on the Deployment', async () => (await eventsAbout('Deployment', 'web', NS)).length > 0);
    await waitFor('FailedBinding on the claim', async () => (await eventsAbout('PersistentVolumeClaim', 'data', NS)).length > 0, 60_000);
    tree = await explorerTree();
  });

  it('its Cluster Explorer shows the local cluster: both contexts of its kubeconfig, the current one with its folders and our namespace\'s objects', async () => {
    const roots = await rows(tree);
    assert.deepEqual(roots.map((r) => r.label), [C.a, C.aOther]);
    assert.match(roots[0].item.tooltip as string, /Cluster: kubernetes-events-test/);
    assert.deepEqual(roots.map((r) => r.item.contextValue), ['vsKubernetes.cluster', 'vsKubernetes.cluster.inactive']);
    assert.deepEqual((await rows(tree, roots[0].node)).map((r) => r.label).slice(0, 3), ['Namespaces', 'Nodes', 'Workloads']);
    assert.deepEqual((await rows(tree, (await rowAt(tree, C.a, 'Workloads', 'Deployments')).node)).map((r) => r.label), ['web'], 'the current namespace only');
    assert.deepEqual((await rows(tree, (await rowAt(tree, C.a, 'Workloads', 'Pods')).node)).map((r) => r.label), await podNames(NS, 'app=web'));
    assert.ok((await rows(tree, (await rowAt(tree, C.a, 'Namespaces')).node)).some((r) => r.label === `* ${NS}`), 'its namespace, marked current');
  });

  it('Show in Events View as the first thing after start (the click activates us): waits for the first list, then reveals and selects the Deployment\'s events', async () => {
    assert.ok(coldAtStart, 'we were already active: this test would not show the cold start');
    const deployment = await rowAt(tree, C.a, 'Workloads', 'Deployments', 'web');
    const group = await vscode.commands.executeCommand<GroupNode | undefined>(Commands.showEventsForExplorerResource, deployment.node);
    assert.ok(group, 'the Deployment\'s events were found');
    api = await extensionApi();
    s = api.testing.services;
    assert.equal(api.context, C.a, 'the view followed its kubeconfig from the start (KUBECONFIG says kev-admin)');
    assert.deepEqual([group.object.kind, group.object.name, group.object.namespace, group.object.uid], ['Deployment', 'web', NS, await uidOf('Deployment', 'web', NS)]);
    await selected(group.key);
    assert.ok(s.view.visible, 'the view is shown');
  });

  it('puts our three items on every resource row it has (namespaced and cluster-scoped) and on no folder or cluster row', async () => {
    const ours = [Commands.showEventsForExplorerResource, Commands.recordEventOnExplorerResource, Commands.diagnoseExplorerResource];
    const resources = [
      await rowAt(tree, C.a, 'Workloads', 'Deployments', 'web'),
      await rowAt(tree, C.a, 'Workloads', 'Pods', /^web-/),
      await rowAt(tree, C.a, 'Workloads', 'Deployments', 'web', /^web-/),
      await rowAt(tree, C.a, 'Namespaces', `* ${NS}`),
      await rowAt(tree, C.a, 'Namespaces', 'default'),
      await rowAt(tree, C.a, 'Storage', 'Persistent Volume Claims', 'data'),
      await rowAt(tree, C.a, 'Configuration', 'Config Maps', 'kube-root-ca.crt'),
    ];
    for (const r of resources) assert.deepEqual(ourMenuItems(r.item.contextValue), ours, `${r.label} (${r.item.contextValue})`);
    const others = [...(await rows(tree)), await rowAt(tree, C.a, 'Workloads'), await rowAt(tree, C.a, 'Workloads', 'Deployments'), await rowAt(tree, C.a, 'Namespaces')];
    for (const r of others) assert.deepEqual(ourMenuItems(r.item.contextValue), [], `${r.label} (${r.item.contextValue})`);
  });

  it('a Pod, from the Pods folder and from under its Deployment: reveals and selects that pod\'s FailedScheduling events', async () => {
    const [pod] = await podNames(NS, 'app=web');
    const uid = await uidOf('Pod', pod, NS);
    await waitFor('FailedScheduling in the store', () => [...s.store.all()].some((e) => e.involvedObject.uid === uid && e.reason === 'FailedScheduling'));
    for (const row of [await rowAt(tree, C.a, 'Workloads', 'Pods', pod), await rowAt(tree, C.a, 'Workloads', 'Deployments', 'web', pod)]) {
      const group = await show(row.node);
      assert.deepEqual([group?.object.kind, group?.object.name, group?.object.namespace, group?.object.uid], ['Pod', pod, NS, uid]);
      await selected(group?.key);
    }
  });

  it('a Namespace, cluster-scoped (its events are kept in default): reveals and selects its events', async () => {
    const row = await rowAt(tree, C.a, 'Namespaces', `* ${NS}`);
    const group = await show(row.node);
    assert.deepEqual([group?.object.kind, group?.object.name, group?.object.namespace, group?.object.uid], ['Namespace', NS, '', await uidOf('Namespace', NS)]);
    await selected(group?.key);
    // The command answers with the object's key; its row is the tree's node for that key.
    const node = group && s.tree.groupNode(group.key, group.object);
    assert.ok(node && s.tree.getChildren(node).some((n) => n.id.startsWith('event:') && s.tree.eventOf(n as EventNode)?.reason === 'QuotaReviewed'), 'its event is under it');
  });

  it('a PersistentVolumeClaim, whose row has no namespace (read from kubectl\'s columns): the claim in the explorer\'s namespace, not its namesake that has the newest event', async () => {
    const row = await rowAt(tree, C.a, 'Storage', 'Persistent Volume Claims', 'data');
    assert.equal((row.node as { namespace?: string }).namespace, '', 'the row itself does not say which namespace');
    const twinUid = await uidOf('PersistentVolumeClaim', 'data', TWIN);
    await createEvent(TWIN, `data.poke-${Date.now()}`, { kind: 'PersistentVolumeClaim', name: 'data', apiVersion: 'v1', uid: twinUid }, 'Resized', 'the namesake in another namespace has the newest event', 'Normal');
    await waitFor('the namesake\'s event in the store', () => [...s.store.all()].some((e) => e.reason === 'Resized' && e.involvedObject.uid === twinUid));
    const group = await show(row.node);
    assert.deepEqual([group?.object.kind, group?.object.name, group?.object.namespace, group?.object.uid], ['PersistentVolumeClaim', 'data', NS, await uidOf('PersistentVolumeClaim', 'data', NS)]);
    await selected(group?.key);
  });

  it('follows its current context: Set as Current Cluster on its other context (what its menu passes) moves the view there', async () => {
    const other = (await rows(tree)).find((r) => r.label === C.aOther);
    assert.ok(other);
    await vscode.commands.executeCommand('extension.vsKubernetesUseContext', other.node);
    await waitFor('the view on the other context', () => api.context === C.aOther);
    assert.match(fs.readFileSync(kubeconfigs.a, 'utf8'), new RegExp(`current-context: ${C.aOther}`), 'it switched its kubeconfig\'s current context');
    await waitFor('the view ready', () => s.status.viewState === 'ready');
    assert.deepEqual(s.connection.connection.kubeconfig?.files, [kubeconfigs.a]);
  });

  it('follows its kubeconfig setting, edited directly (it raises no event for that): the view moves to that file\'s current context', async () => {
    await setKubernetesKubeconfig(kubeconfigs.b);
    await waitFor('the view on the second kubeconfig', () => api.context === C.b);
    assert.deepEqual(s.connection.connection.kubeconfig?.files, [kubeconfigs.b]);
    await waitFor('the view ready', () => s.status.viewState === 'ready');
  });

  it('follows its Set Kubeconfig command (with a path, as its kubeconfig picker passes)', async () => {
    await vscode.commands.executeCommand('extension.vsKubernetesUseKubeconfig', kubeconfigs.a);
    await waitFor('the view back on the first kubeconfig, at its current context', () => api.context === C.aOther);
    assert.deepEqual(s.connection.connection.kubeconfig?.files, [kubeconfigs.a]);
  });

  it('our own kubeconfig setting wins: the view stays on it while the Kubernetes extension switches context and kubeconfig; cleared, it follows again', async () => {
    await setOwnKubeconfig(kubeconfigs.own);
    try {
      await waitFor('the view on our own kubeconfig', () => api.context === C.own);
      const connects = s.connection.counts.started;
      await vscode.commands.executeCommand('extension.vsKubernetesUseContext', (await rows(tree)).find((r) => r.label === C.a)?.node);
      await setKubernetesKubeconfig(kubeconfigs.b);
      // Its context tracker and our follower react within a few hundred milliseconds.
      await new Promise((r) => setTimeout(r, 2_000));
      assert.equal(api.context, C.own);
      assert.deepEqual(s.connection.connection.kubeconfig?.files, [kubeconfigs.own]);
      assert.equal(s.connection.counts.started, connects, 'no connect at all');
    } finally {
      await setOwnKubeconfig(undefined);
    }
    await waitFor('the view following again, on its kubeconfig', () => api.context === C.b);
    assert.deepEqual(s.connection.connection.kubeconfig?.files, [kubeconfigs.b]);
  });

  it('refuses, and asks nothing, when the view\'s context cannot see the explorer\'s object', async () => {
    await setKubernetesKubeconfig(kubeconfigs.a);
    await waitFor('the view on its first kubeconfig', () => api.context === C.a);
    const deployment = await rowAt(tree, C.a, 'Workloads', 'Deployments', 'web');
    // Switch Context in our view: a context whose user may read nothing.
    await s.connection.connect({ context: C.ownLimited, kubeconfigPath: kubeconfigs.own });
    const before = s.store.size;
    assert.equal(await endsWithoutAsking(Commands.recordEventOnExplorerResource, deployment.node), undefined);
    assert.equal(await endsWithoutAsking(Commands.showEventsForExplorerResource, deployment.node), undefined);
    assert.equal(s.store.size, before, 'nothing recorded');
    await s.connection.connect({ context: C.a, kubeconfigPath: kubeconfigs.a });
  });
});
