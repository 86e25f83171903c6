// Each command's effect inside the real extension host, against the real control plane.
// The UI suite clicks the same features in Chromium; here we look deeper (the store, the
// apiserver, the documents) and at what VS Code passes each command from each place.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { KubernetesEventsApi, TestingApi } from '../../src/api';
import type { ObjectSummary } from '../../src/model/recordRequest';
import { MAX_DOCUMENTS } from '../../src/commands/yaml';
import { Commands } from '../../src/common/commandIds';
import type { Parts as Services } from '../../src/api';
import { ensureWorkload, extensionApi, TreeReader, waitFor } from './support';

const NAMESPACE = 'default';

describe('commands and the tree', function () {
  this.timeout(120_000);
  let api: KubernetesEventsApi & { testing: TestingApi };
  let s: Services;
  let t: TreeReader;
  const target: ObjectSummary = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `host-target-${Date.now().toString(36)}`, namespace: NAMESPACE } };

  before(async () => {
    api = await extensionApi();
    s = api.testing.services;
    t = new TreeReader(s);
    await waitFor('connected', () => s.status.viewState === 'ready' || s.status.viewState === 'empty');
    await ensureWorkload(s);
    await waitFor('events in the view', () => s.status.viewState === 'ready', 60_000);
  });
  afterEach(() => s.filters.clear());

  it('shows real controller and scheduler events grouped by object: kind icon, warnings as colour and badge, age first', async () => {
    const pod = await waitFor('a pod that failed scheduling', () => t.groups().find((g) => g.object.kind === 'Pod' && t.events(g).some((n) => s.tree.eventOf(n)?.reason === 'FailedScheduling')));
    const item = t.item(pod);
    assert.match(item.label as string, /^Pod\//);
    assert.match(item.description as string, /^\d+[smhd]\S* · \d+ events? · \S+$/, `description ${String(item.description)}`);
    const icon = item.iconPath as vscode.ThemeIcon;
    assert.equal(icon.id, 'vm', 'the kind icon stays');
    assert.equal((icon.color as unknown as { id: string }).id, 'list.warningForeground');
    assert.equal(new URLSearchParams(item.resourceUri?.query).get('b'), String(s.store.group(pod.key)?.warnings), 'the warning count is the row badge');
    const first = t.item(t.events(pod)[0]);
    assert.match(first.label as string, /^\d+[smhd]\S*( \(x\d+ over \S+\))? · FailedScheduling: /, 'age and count come first');
    assert.equal(s.tree.getParent(t.events(pod)[0]), pod, 'getParent leads back to the group (reveal works)');
    const deployment = await waitFor('a deployment', () => t.groups().find((g) => g.object.kind === 'Deployment'));
    assert.equal((t.item(deployment).iconPath as vscode.ThemeIcon).id, 'rocket');
    const times = t.groups().map((g) => s.store.group(g.key)?.lastSeen ?? 0);
    assert.deepEqual(times, [...times].sort((a, b) => b - a), 'objects newest first');
  });

  it('title and palette commands ignore the row VS Code passes after a click', async () => {
    const group = t.groups()[0];
    const started = s.connection.counts.started;
    const before = s.connection.context;
    for (const id of [Commands.switchContext, Commands.filter, Commands.recordEvent, Commands.export, Commands.sortBy]) {
      const running = vscode.commands.executeCommand(id, group, [group]);
      // Each opens its own question (it did not take the row as an answer): close it.
      await new Promise((r) => setTimeout(r, 700));
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await running;
    }
    assert.equal(s.connection.counts.started, started, 'no connect to "[object Object]"');
    assert.equal(s.connection.context, before);
    assert.deepEqual(s.filters.filter, {});
    await vscode.commands.executeCommand(Commands.warningsOnly, group);
    assert.deepEqual(s.filters.filter.types, ['Warning']);
    await vscode.commands.executeCommand(Commands.clearFilters, group);
    assert.deepEqual(s.filters.filter, {});
  });

  it('row commands take the row VS Code passes, else the selected row, and nothing else', async () => {
    const deployment = await waitFor('a deployment', () => t.groups().find((g) => g.object.kind === 'Deployment'));
    const copied = await vscode.commands.executeCommand<string>(Commands.copyKubectlCommand, deployment);
    assert.equal(copied, `kubectl events --context kev-admin -n ${deployment.object.namespace} --for deployment.v1.apps/${deployment.object.name}`);
    assert.equal(await vscode.env.clipboard.readText(), copied);
    // A keybinding passes nothing: the selection is used.
    await s.view.reveal(deployment, { select: true, focus: true });
    // The workbench tells the extension of the selection after the reveal; a person's key press comes after they see it.
    await waitFor('the row selected', () => s.view.selection.some((n) => n.id === deployment.id));
    assert.equal(await vscode.commands.executeCommand<string>(Commands.copyKubectlCommand), copied);
    // Something that is not a row is not taken for one.
    assert.equal(await vscode.commands.executeCommand(Commands.copyKubectlCommand, { kind: 'Pod', name: 'x' }), copied, 'falls back to the selection');
  });

  it('records an event: it appears in the tree marked "recorded here"; with the sink on it reaches the apiserver with its count', async () => {
    const result = await api.recordEvent({ object: target, type: 'Normal', reason: 'HostTest', message: 'recorded from the host test' });
    assert.equal(result.ok, true, result.text);
    assert.match(result.text, /in this window only: the sink is off/);
    const local = await waitFor('the local event in the tree', () => t.group('ConfigMap', target.metadata.name));
    const localNode = t.events(local)[0];
    assert.equal(s.tree.eventOf(localNode)?.origin, 'local');
    assert.equal(new URLSearchParams(t.item(localNode).resourceUri?.query).get('b'), 'R');

    await s.sink.setWanted(true);
    await waitFor('the sink on', () => s.sink.enabled);
    for (let i = 0; i < 3; i++) {
      const r = await api.recordEvent({ object: target, type: 'Warning', reason: 'SinkTest', message: 'written to the cluster' });
      assert.match(r.text, /sent it to the cluster of context kev-admin/);
    }
    const client = s.connection.newClient();
    try {
      const stored = await waitFor('the event on the apiserver with count 3', async () => {
        const list = await client.request<{ items: { reason: string; count: number; source: { component: string } }[] }>({ method: 'GET', path: `/api/v1/namespaces/${NAMESPACE}/events?fieldSelector=involvedObject.name%3D${target.metadata.name},reason%3DSinkTest` });
        return list.items.find((e) => e.count === 3);
      });
      assert.equal(stored.source.component, 'kubernetes-events-vscode');
    } finally {
      client.dispose();
      await s.sink.setWanted(false);
    }
    const fromCluster = await waitFor('the server copy replacing the local one in the tree', () => {
      const g = t.group('ConfigMap', target.metadata.name);
      return (g ? t.events(g).map((n) => s.tree.eventOf(n)) : []).find((e) => e?.reason === 'SinkTest' && e.origin === 'core/v1' && e.count === 3);
    });
    assert.equal(fromCluster.count, 3);
    assert.equal(s.sink.enabled, false);
  });

  it('records through events.k8s.io/v1 (tools/events): a series in the tree; with the sink on, on the apiserver with its action and related object', async () => {
    const v1 = { api: 'events.k8s.io/v1', action: 'Check', related: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } } } as const;
    for (let i = 0; i < 2; i++) {
      const r = await api.recordEvent({ object: target, type: 'Warning', reason: 'V1Local', message: 'a series in this window', ...v1 });
      assert.equal(r.ok, true, r.text);
      assert.match(r.text, /^Recorded Warning V1Local \(events\.k8s\.io\/v1, action Check\) on ConfigMap\/.* in this window only/);
    }
    const local = await waitFor('the local series in the tree, count 2', () => {
      const g = t.group('ConfigMap', target.metadata.name);
      return (g ? t.events(g).map((n) => s.tree.eventOf(n)) : []).find((e) => e?.reason === 'V1Local' && e.count === 2);
    });
    assert.equal(local.origin, 'local');
    assert.equal(local.action, 'Check');

    await s.sink.setWanted(true);
    await waitFor('the sink on', () => s.sink.enabled);
    const client = s.connection.newClient();
    try {
      for (let i = 0; i < 3; i++) {
        const r = await api.recordEvent({ object: target, type: 'Warning', reason: 'V1Sink', message: 'a series on the apiserver', ...v1 });
        assert.match(r.text, /sent it to the cluster of context kev-admin/);
      }
      // tools/events patches the second occurrence into a series of 2; later ones are counted in its cache.
      type Stored = { series?: { count: number }; action: string; reportingController: string; related?: { kind: string; name: string }; regarding: { name: string } };
      const stored = await waitFor('the series on the apiserver', async () => {
        const list = await client.request<{ items: Stored[] }>({ method: 'GET', path: `/apis/events.k8s.io/v1/namespaces/${NAMESPACE}/events?fieldSelector=reason%3DV1Sink` });
        return list.items.find((e) => e.regarding.name === target.metadata.name && e.series?.count === 2);
      });
      assert.equal(stored.action, 'Check');
      assert.equal(stored.reportingController, 'kubernetes-events-vscode');
      assert.deepEqual({ kind: stored.related?.kind, name: stored.related?.name }, { kind: 'Namespace', name: NAMESPACE });
    } finally {
      client.dispose();
      await s.sink.setWanted(false);
    }

    const noAction = await api.recordEvent({ object: target, type: 'Normal', reason: 'NoAction', message: 'x', api: 'events.k8s.io/v1' });
    assert.equal(noAction.ok, false);
    assert.match(noAction.text, /The action is empty/);
    const coreWithAction = await api.recordEvent({ object: target, type: 'Normal', reason: 'CoreAction', message: 'x', action: 'Check' });
    assert.equal(coreWithAction.ok, false);
    assert.match(coreWithAction.text, /record it with api events\.k8s\.io\/v1/);
  });

  it('turns the sink on from the setting (as after a reload), and off again', async () => {
    const config = vscode.workspace.getConfiguration('kubernetesEvents');
    await config.update('sink.enabled', true, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('the sink started from the setting', () => s.sink.enabled);
      assert.equal(s.sink.context, 'kev-admin');
      assert.match(s.view.title ?? '', /sink on/);
    } finally {
      await config.update('sink.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('the sink stopped', () => !s.sink.enabled);
  });

  it('exports the current view as JSON, CSV and Markdown through the workspace file system', async () => {
    await s.filters.set({ kinds: ['ConfigMap'], text: target.metadata.name });
    const dir = vscode.Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'kev-export-')));
    const file = (name: string) => vscode.Uri.joinPath(dir, name);
    const n = await api.testing.exportTo('json', file('e.json'));
    const json = JSON.parse(fs.readFileSync(file('e.json').fsPath, 'utf8')) as { object: string; reason: string }[];
    assert.equal(json.length, n);
    assert.ok(n >= 2 && json.every((e) => e.object === `ConfigMap/${target.metadata.name}`));
    await api.testing.exportTo('csv', file('e.csv'));
    const csv = fs.readFileSync(file('e.csv').fsPath, 'utf8').split('\r\n');
    assert.equal(csv[0], 'namespace,object,type,reason,age,count,from,message,firstSeen,lastSeen,expired');
    assert.ok(csv.some((l) => l.includes('"HostTest"')));
    await api.testing.exportTo('markdown', file('e.md'));
    assert.match(fs.readFileSync(file('e.md').fsPath, 'utf8'), /^\| namespace \| object \|/);
  });

  it('shows a hostile message as plain text: the tooltip is a string, the label has its controls made visible', async () => {
    const hostile = 'renew at https://evil.example/renew?token=abc or www.evil.example [run me](command:workbench.action.closeWindow) <img src=x onerror=alert(1)> **bold** $(zap)\n\nsecond paragraph\u001b[31m';
    await api.recordEvent({ object: target, type: 'Warning', reason: 'Hostile', message: hostile });
    const node = await waitFor('the hostile event', () => {
      const g = t.group('ConfigMap', target.metadata.name);
      return g && t.events(g).find((n) => s.tree.eventOf(n)?.reason === 'Hostile');
    });
    const label = t.item(node).label as string;
    assert.ok(label.endsWith('Hostile: renew at https://evil.example/renew?token=abc or www.evil.example [run me](command:workbench.action.closeWindow) <img src=x onerror=alert(1)> **bold** $(zap) second paragraph^[[31m'), label);
    const tip = t.tooltip(node);
    assert.equal(typeof tip, 'string', 'a string tooltip: VS Code shows it as text, never as Markdown');
    assert.ok((tip as string).endsWith('\n\nrenew at https://evil.example/renew?token=abc or www.evil.example [run me](command:workbench.action.closeWindow) <img src=x onerror=alert(1)> **bold** $(zap)\n\nsecond paragraph^[[31m'));
  });

  it('opens events and objects as YAML: live events from the apiserver, recorded ones as a core/v1 Event; managedFields hidden; closed documents forgotten', async () => {
    const g = await waitFor('the target group', () => t.group('ConfigMap', target.metadata.name));
    const local = t.events(g).find((n) => s.tree.eventOf(n)?.origin === 'local');
    assert.ok(local, 'a locally recorded event');
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>(Commands.openEventYaml, local);
    const text = editor.document.getText();
    assert.equal(editor.document.uri.scheme, 'kubernetes-events');
    assert.match(text, /^apiVersion: v1\nkind: Event\n/);
    assert.match(text, /\nfirstTimestamp: '?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ'?\n/, 'RFC 3339, not epoch milliseconds');
    assert.doesNotMatch(text, /origin: local|firstSeen/);
    const deployment = await waitFor('a deployment', () => t.groups().find((x) => x.object.kind === 'Deployment'));
    const objectEditor = await vscode.commands.executeCommand<vscode.TextEditor>(Commands.openObjectYaml, deployment);
    assert.match(objectEditor.document.getText(), /kind: Deployment/);
    assert.doesNotMatch(objectEditor.document.getText(), /managedFields/);
    for (let i = 0; i < MAX_DOCUMENTS + 20; i++) await vscode.commands.executeCommand(Commands.openEventYaml, local);
    assert.ok(api.testing.yamlDocuments() <= MAX_DOCUMENTS, `${api.testing.yamlDocuments()} documents held`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('shows the events of an object: the view narrowed to it (asked of the apiserver by uid), its row selected', async () => {
    const deployment = await waitFor('a deployment', () => t.groups().find((g) => g.object.kind === 'Deployment'));
    await s.filters.set({ kinds: ['Pod'] });
    assert.equal(await api.showEvents({ kind: 'Deployment', name: deployment.object.name, namespace: deployment.object.namespace }), true);
    // The workbench tells the extension of the selection after the reveal has resolved.
    await waitFor('the group selected in the view', () => (s.view.selection[0] as { key?: string } | undefined)?.key === deployment.key);
    assert.equal(s.filters.filter.kinds, undefined, 'the filter that hid it was replaced');
    assert.equal(s.focus.selector, `involvedObject.uid=${deployment.object.uid}`);
    assert.notEqual(s.shown.source, s.store, 'the rows come from the focused list+watch');
    assert.deepEqual(t.groups().map((g) => g.key), [deployment.key], 'only that object');
    await s.filters.clear();
    assert.equal(s.shown.source, s.store, 'back to the main store');
    assert.equal(await vscode.commands.executeCommand(Commands.showEventsForObject, { kind: 'Deployment', name: 'no-such-deployment' }), false);
    await s.filters.clear();
    assert.equal(await vscode.commands.executeCommand(Commands.showEventsForObject, deployment), undefined, 'a row is not an object query');
  });

  it('warnings only asks the apiserver for type=Warning, and shows only warnings, from a store of its own', async () => {
    await s.filters.set({ types: ['Warning'] });
    assert.equal(s.focus.selector, 'type=Warning');
    await waitFor('the focused list', () => s.focus.status?.phase === 'live');
    await waitFor('warnings in the view', () => t.groups().length > 0);
    for (const g of t.groups()) for (const n of t.events(g)) assert.equal(s.tree.eventOf(n)?.type, 'Warning');
    await s.filters.clear();
    assert.equal(s.focus.selector, undefined);
  });

  it('answers the Kubernetes extension\'s menu commands with an explanation when that extension is not installed', async () => {
    assert.equal(vscode.extensions.getExtension('ms-kubernetes-tools.vscode-kubernetes-tools'), undefined);
    assert.equal(await vscode.commands.executeCommand(Commands.showEventsForExplorerResource, {}), undefined);
    assert.equal(await vscode.commands.executeCommand(Commands.recordEventOnExplorerResource, {}), undefined);
  });

  it('refuses bad input with a specific message and changes nothing', async () => {
    const recordedHere = () => [...s.store.all()].filter((e) => e.origin === 'local' && e.involvedObject.name === target.metadata.name && (e.reason === '' || e.reason === 'TooLong')).length;
    const empty = await api.recordEvent({ object: target, type: 'Normal', reason: '', message: 'x' });
    assert.deepEqual([empty.ok, empty.text], [false, 'The reason is empty: give a short UpperCamelCase word such as Deployed.']);
    const long = await api.recordEvent({ object: target, type: 'Normal', reason: 'TooLong', message: '节'.repeat(342) });
    assert.deepEqual([long.ok, long.text], [false, 'The message has 1026 bytes of UTF-8; the apiserver accepts at most 1024 in an event.']);
    await new Promise((r) => setTimeout(r, 500));
    // The cluster's own events keep arriving meanwhile: count only what these two would have made.
    assert.equal(recordedHere(), 0);
  });

  it('shows a kubeconfig problem and a forbidden user as rows with their actions beside them', async () => {
    await s.connection.connect({ context: 'no-such-context' });
    assert.equal(s.status.viewState, 'badKubeconfig');
    const bad = t.statusLabels();
    assert.match(bad.join(' '), /Context "no-such-context" is not in kubeconfig .*; it has: kev-admin, kev-limited\./);
    for (const action of ['Retry', 'Switch Context…', 'Open Kubeconfig', 'Show Log']) assert.ok(bad.includes(action), `${action} in ${bad.join(' | ')}`);

    await s.connection.connect({ context: 'kev-limited' });
    await waitFor('the forbidden state', () => s.status.viewState === 'forbidden');
    assert.equal(s.tree.nodeCount(), 0, 'no node of the other context is kept');
    const forbidden = t.statusLabels();
    assert.match(forbidden[0], /^Cannot list events in any namespace as user kev-limited/);
    for (const action of ['Retry', 'Switch Context…', 'Show Log']) assert.ok(forbidden.includes(action));
    await s.connection.connect({ context: 'kev-admin' });
    // The saved history shows at once under a "Loading…" row; the row goes when the first list is in.
    await waitFor('back on kev-admin, its first list in', () => s.status.viewState === 'ready' && t.statusLabels().length === 0);
    assert.equal(s.connection.context, 'kev-admin');
  });

  it('connects single-flight: five overlapping connects leave one watch, on the last context asked for', async () => {
    const contexts = ['kev-limited', 'kev-admin', 'kev-limited', 'kev-admin', 'kev-admin'];
    await Promise.all(contexts.map((context) => s.connection.connect({ context })));
    assert.equal(s.connection.context, 'kev-admin');
    await waitFor('the watch open', () => s.connection.status.phase === 'live');
    const observer = s.connection.connection.activeObserver;
    assert.ok(observer);
    assert.deepEqual([...observer.state.values()].map((x) => x.phase), ['watching'], 'one watch');
    await vscode.commands.executeCommand(Commands.refresh);
    await vscode.commands.executeCommand(Commands.refresh);
    await waitFor('ready after refreshes', () => s.status.viewState === 'ready');
  });

  it('settles the tree after a burst of 1,000 events with a few batched refreshes', async () => {
    const recorder = s.machinery.recorder;
    const refreshesBefore = s.tree.refreshes;
    const start = Date.now();
    await Promise.all(Array.from({ length: 1000 }, (_, i) => recorder.event({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `burst-${i % 100}`, namespace: NAMESPACE } }, 'Normal', `Burst${i % 7}`, `event ${i}`)));
    await waitFor('every burst event in the store', () => [...s.store.all()].filter((e) => e.involvedObject.name.startsWith('burst-')).reduce((n, e) => n + e.count, 0) === 1000);
    // The store tells its views on the event loop's next turn (one change per burst): until
    // then the tree has nothing waiting, so it reads as settled with none of the burst shown.
    await waitFor('every burst object in the tree', () => t.groups().filter((g) => g.object.name.startsWith('burst-')).length === 100);
    await waitFor('a settled tree', () => s.tree.isSettled);
    const settled = Date.now() - start;
    const refreshes = s.tree.refreshes - refreshesBefore;
    assert.ok(refreshes <= Math.ceil(settled / 250) + 2, `${refreshes} refreshes in ${settled} ms: batched`);
  });

  it('a bad setting gets a message and its default, and the extension keeps working', async () => {
    const config = vscode.workspace.getConfiguration('kubernetesEvents');
    await config.update('correlator.aggregateIntervalSeconds', 1.5, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('the setting read again', () => s.settings.value.correlator.maxIntervalInSeconds === 600);
      const r = await api.recordEvent({ object: target, type: 'Normal', reason: 'AfterBadSetting', message: 'still records' });
      assert.equal(r.ok, true);
    } finally {
      await config.update('correlator.aggregateIntervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
