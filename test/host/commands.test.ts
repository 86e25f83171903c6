// Each command's effect inside the real extension host, against the real control plane.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KubernetesEventsApi } from '../../src/extension';
import type { ObjectSummary } from '../../src/cluster/discovery';
import type { EventNode, GroupNode } from '../../src/views/eventsTree';
import { extensionApi, waitFor } from './support';

const NAMESPACE = 'default';

describe('commands and the tree', function () {
  this.timeout(120_000);
  let api: KubernetesEventsApi;
  const target: ObjectSummary = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `host-target-${Date.now().toString(36)}`, namespace: NAMESPACE } };

  before(async () => {
    api = await extensionApi();
    await waitFor('the first list', async () => (api.controller.viewState === 'ready' ? true : undefined));
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('kubernetesEvents.clearFilters');
  });

  const tree = () => api.controller.tree;
  const rootGroups = () => tree().getChildren() as GroupNode[];
  const group = (kind: string, name: string) => rootGroups().find((g) => g.object.kind === kind && g.object.name === name);

  it('shows real controller and scheduler events grouped by object, warnings highlighted', async () => {
    const pod = await waitFor('a pod that failed scheduling', async () => rootGroups().find((g) => g.object.kind === 'Pod' && tree().getChildren(g).some((n) => n.kind === 'event' && tree().eventOf(n)?.reason === 'FailedScheduling')));
    const item = tree().getTreeItem(pod);
    assert.match(item.label as string, /^Pod\//);
    assert.match(String(item.description), /^⚠\d+ · \d+[smhd]\S* ago · /, `description ${item.description}`);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'warning');
    assert.equal(((item.iconPath as vscode.ThemeIcon).color as unknown as { id: string }).id, 'list.warningForeground');
    const children = tree().getChildren(pod) as EventNode[];
    const first = tree().getTreeItem(children[0]);
    assert.match(first.label as string, /^FailedScheduling: /);
    assert.equal(tree().getParent(children[0]), pod, 'getParent leads back to the group (reveal works)');
    const deployment = await waitFor('a deployment', async () => rootGroups().find((g) => g.object.kind === 'Deployment'));
    assert.equal((tree().getTreeItem(deployment).iconPath as vscode.ThemeIcon).id, 'rocket');
    const times = rootGroups().map((g) => tree().store.group(g.key)?.lastSeen ?? 0);
    assert.deepEqual(times, [...times].sort((a, b) => b - a), 'objects newest first');
  });

  it('filters: warnings only, by kind, and clears', async () => {
    await vscode.commands.executeCommand('kubernetesEvents.warningsOnly');
    assert.ok(rootGroups().length > 0);
    for (const g of rootGroups()) for (const n of tree().getChildren(g) as EventNode[]) assert.equal(tree().eventOf(n)?.type, 'Warning');
    assert.match(api.controller.view.description ?? '', /Warning/);
    await vscode.commands.executeCommand('kubernetesEvents.filter', { kinds: ['Deployment'] });
    assert.ok(rootGroups().every((g) => g.object.kind === 'Deployment'));
    await vscode.commands.executeCommand('kubernetesEvents.clearFilters');
    assert.ok(rootGroups().some((g) => g.object.kind === 'Pod'));
  });

  it('records an event: it appears in the tree, and with the sink on it is read back from the apiserver with its count', async () => {
    const result = await vscode.commands.executeCommand<{ ok: boolean; text: string }>('kubernetesEvents.recordEvent', { object: target, type: 'Normal', reason: 'HostTest', message: 'recorded from the host test' });
    assert.equal(result.ok, true, result.text);
    const local = await waitFor('the local event in the tree', async () => group('ConfigMap', target.metadata.name));
    const localEvent = tree().eventOf((tree().getChildren(local) as EventNode[])[0]);
    assert.equal(localEvent?.origin, 'local');

    assert.equal(await vscode.commands.executeCommand('kubernetesEvents.enableSink'), true);
    for (let i = 0; i < 3; i++) await vscode.commands.executeCommand('kubernetesEvents.recordEvent', { object: target, type: 'Warning', reason: 'SinkTest', message: 'written to the cluster' });
    const client = api.controller.connection.newClient();
    try {
      const stored = await waitFor('the event on the apiserver with count 3', async () => {
        const list = await client.request<{ items: { reason: string; count: number; source: { component: string } }[] }>({ method: 'GET', path: `/api/v1/namespaces/${NAMESPACE}/events?fieldSelector=involvedObject.name%3D${target.metadata.name},reason%3DSinkTest` });
        return list.items.find((e) => e.count === 3);
      });
      assert.equal(stored.source.component, 'kubernetes-events-vscode');
    } finally {
      client.dispose();
      await vscode.commands.executeCommand('kubernetesEvents.disableSink');
    }
    const fromCluster = await waitFor('the server copy replacing the local one in the tree', async () => {
      const g = group('ConfigMap', target.metadata.name);
      const events = g ? (tree().getChildren(g) as EventNode[]).map((n) => tree().eventOf(n)) : [];
      return events.find((e) => e?.reason === 'SinkTest' && e.origin === 'core/v1' && e.count === 3);
    });
    assert.equal(fromCluster.count, 3);
    assert.equal(api.controller.sinkEnabled, false);
  });

  it('exports the current view as JSON, CSV and Markdown', async () => {
    await vscode.commands.executeCommand('kubernetesEvents.filter', { kinds: ['ConfigMap'], text: target.metadata.name });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-export-'));
    const json = JSON.parse(fs.readFileSync(await vscode.commands.executeCommand<string>('kubernetesEvents.export', 'json', path.join(dir, 'e.json')), 'utf8')) as { object: string; reason: string }[];
    assert.ok(json.length >= 2 && json.every((e) => e.object === `ConfigMap/${target.metadata.name}`));
    const csv = fs.readFileSync(await vscode.commands.executeCommand<string>('kubernetesEvents.export', 'csv', path.join(dir, 'e.csv')), 'utf8').split('\r\n');
    assert.equal(csv[0], 'namespace,object,type,reason,age,count,from,message,firstSeen,lastSeen,expired');
    assert.ok(csv.some((l) => l.includes('"HostTest"')));
    const md = fs.readFileSync(await vscode.commands.executeCommand<string>('kubernetesEvents.export', 'markdown', path.join(dir, 'e.md')), 'utf8');
    assert.match(md, /^\| namespace \| object \|/);
    assert.ok(md.includes('HostTest'));
  });

  it('renders a hostile message as plain text: no link, no command, no HTML', async () => {
    const hostile = '[run me](command:workbench.action.closeWindow) <img src=x onerror=alert(1)> **bold** `code` <script>alert(2)</script>';
    await vscode.commands.executeCommand('kubernetesEvents.recordEvent', { object: target, type: 'Warning', reason: 'Hostile', message: hostile });
    const node = await waitFor('the hostile event', async () => {
      const g = group('ConfigMap', target.metadata.name);
      return g && (tree().getChildren(g) as EventNode[]).find((n) => tree().eventOf(n)?.reason === 'Hostile');
    });
    const item = tree().getTreeItem(node);
    assert.equal(item.label, `Hostile: ${hostile}`, 'the label is the text itself (labels are never rendered)');
    const tip = item.tooltip as vscode.MarkdownString;
    assert.equal(tip.isTrusted, false);
    assert.equal(tip.supportHtml, false);
    assert.ok(!/\[run me\]\(command:/.test(tip.value), `no Markdown link survives: ${tip.value}`);
    assert.ok(tip.value.includes('\\[run'), `brackets are escaped: ${tip.value}`);
    assert.ok(!tip.value.includes('**bold**'), 'emphasis is escaped');
  });

  it('opens an event and its object as YAML in read-only editors, and copies the kubectl command', async () => {
    const g = await waitFor('the target group', async () => group('ConfigMap', target.metadata.name));
    const node = (tree().getChildren(g) as EventNode[])[0];
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('kubernetesEvents.openEventYaml', node);
    assert.equal(editor.document.uri.scheme, 'kubernetes-events');
    assert.match(editor.document.getText(), /reason: /);
    const deployment = await waitFor('a deployment', async () => rootGroups().find((x) => x.object.kind === 'Deployment'));
    const objectEditor = await vscode.commands.executeCommand<vscode.TextEditor>('kubernetesEvents.openObjectYaml', deployment);
    assert.match(objectEditor.document.getText(), /kind: Deployment/);
    const copied = await vscode.commands.executeCommand('kubernetesEvents.copyKubectlCommand', deployment);
    assert.equal(copied, `kubectl events --for deployment/${deployment.object.name} -n ${deployment.object.namespace}`);
  });

  it('shows the events of an object: reveals and selects its group, even through a filter that hid it', async () => {
    const deployment = await waitFor('a deployment', async () => rootGroups().find((g) => g.object.kind === 'Deployment'));
    await vscode.commands.executeCommand('kubernetesEvents.filter', { kinds: ['Pod'] });
    const revealed = await vscode.commands.executeCommand<GroupNode>('kubernetesEvents.showEventsForObject', { kind: 'Deployment', name: deployment.object.name, namespace: deployment.object.namespace });
    assert.equal(revealed.key, deployment.key);
    assert.equal(api.controller.view.selection[0], revealed, 'the group is selected in the view');
    assert.equal(api.controller.filter.kinds, undefined, 'the filter that hid it was cleared');
    assert.equal(await vscode.commands.executeCommand('kubernetesEvents.showEventsForObject', { kind: 'Deployment', name: 'no-such-deployment' }), undefined);
  });

  it('answers the Kubernetes extension\'s menu commands with an explanation when that extension is not installed', async () => {
    assert.equal(vscode.extensions.getExtension('ms-kubernetes-tools.vscode-kubernetes-tools'), undefined);
    assert.equal(await vscode.commands.executeCommand('kubernetesEvents.showEventsForExplorerResource', {}), undefined);
    assert.equal(await vscode.commands.executeCommand('kubernetesEvents.recordEventOnExplorerResource', {}), undefined);
  });

  it('refuses bad input with a specific message and changes nothing', async () => {
    const before = api.controller.store.size;
    const empty = await vscode.commands.executeCommand<{ ok: boolean; text: string }>('kubernetesEvents.recordEvent', { object: target, type: 'Normal', reason: '', message: 'x' });
    assert.deepEqual([empty.ok, empty.text], [false, 'The reason is empty: give a short UpperCamelCase word such as Deployed.']);
    const long = await vscode.commands.executeCommand<{ ok: boolean; text: string }>('kubernetesEvents.recordEvent', { object: target, type: 'Normal', reason: 'TooLong', message: 'x'.repeat(1025) });
    assert.deepEqual([long.ok, long.text], [false, 'The message has 1025 characters; the apiserver accepts at most 1024 in an event.']);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(api.controller.store.size, before);
    await vscode.commands.executeCommand('kubernetesEvents.switchContext', 'no-such-context');
    assert.equal(api.controller.viewState, 'badKubeconfig');
    assert.match(api.controller.lastError, /^Context "no-such-context" is not in kubeconfig .*; it has: kev-admin, kev-limited\.$/);
    await vscode.commands.executeCommand('kubernetesEvents.switchContext', 'kev-admin');
    await waitFor('back on kev-admin', async () => (api.controller.viewState === 'ready' ? true : undefined));
  });

  it('shows the limited user a forbidden state naming the user', async () => {
    await vscode.commands.executeCommand('kubernetesEvents.switchContext', 'kev-limited');
    await waitFor('the forbidden state', async () => (api.controller.viewState === 'forbidden' ? true : undefined));
    assert.match(api.controller.view.message ?? '', /^Cannot list events in any namespace as user kev-limited: /);
    await vscode.commands.executeCommand('kubernetesEvents.switchContext', 'kev-admin');
    await waitFor('back on kev-admin', async () => (api.controller.viewState === 'ready' ? true : undefined));
  });

  it('settles the tree after a burst of 1,000 events with a few batched refreshes', async () => {
    const recorder = api.controller.recorder;
    const refreshesBefore = tree().refreshes;
    const start = Date.now();
    await Promise.all(Array.from({ length: 1000 }, (_, i) => recorder.event({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `burst-${i % 100}`, namespace: NAMESPACE } }, 'Normal', `Burst${i % 7}`, `event ${i}`)));
    await waitFor('every burst event in the store', async () => ([...api.controller.store.all()].filter((e) => e.involvedObject.name.startsWith('burst-')).reduce((n, e) => n + e.count, 0) === 1000 ? true : undefined));
    await waitFor('a settled tree', async () => (tree().isSettled ? true : undefined));
    const settled = Date.now() - start;
    const refreshes = tree().refreshes - refreshesBefore;
    assert.equal(rootGroups().filter((g) => g.object.name.startsWith('burst-')).length, 100);
    assert.ok(refreshes <= Math.ceil(settled / 250) + 2, `${refreshes} refreshes in ${settled} ms: batched`);
  });
});
