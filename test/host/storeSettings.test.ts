// Settings changed while the window runs, as a person changes them (the Settings editor and
// settings.json both write the configuration): they take effect at once, or say what they need.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { sortTime, type ClusterEvent } from '../../src/model/clusterEvent';
import { Commands } from '../../src/common/commandIds';
import type { Parts as Services } from '../../src/api';
import { extensionApi, TreeReader, waitFor } from './support';

const NAMESPACE = 'host-cap';
/** Events put on the server, older than everything else here: the first a lowered cap drops. */
const OLD_EVENTS = 300;
/** The lowest cap the setting takes. */
const LOW_CAP = 100;
const DAY_MS = 86_400_000;

describe('settings applied while running', function () {
  this.timeout(180_000);
  let s: Services;
  const config = () => vscode.workspace.getConfiguration('kubernetesEvents');

  before(async () => {
    s = (await extensionApi()).testing.services;
    await waitFor('connected', () => s.status.viewState === 'ready' || s.status.viewState === 'empty');
    const client = s.connection.newClient();
    try {
      await client.request({ method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }) }).catch((e: { code?: number }) => {
        if (e.code !== 409) throw e;
      });
      const base = Date.now() - 2 * DAY_MS;
      for (let i = 0; i < OLD_EVENTS; i++) {
        const at = new Date(base + i * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
        const name = `cm-${i % 30}`;
        await client.request({
          method: 'POST',
          path: `/api/v1/namespaces/${NAMESPACE}/events`,
          body: JSON.stringify({ metadata: { name: `${name}.old-${i}`, namespace: NAMESPACE }, involvedObject: { kind: 'ConfigMap', name, namespace: NAMESPACE, apiVersion: 'v1' }, reason: 'Synced', message: `old event ${i}: 同步 ✅ \u200fمرحبا`, type: 'Normal', count: 1, firstTimestamp: at, lastTimestamp: at, source: { component: 'host-test' } }),
        });
      }
    } finally {
      client.dispose();
    }
    await waitFor(`the ${OLD_EVENTS} events in the store`, () => onServer(s).length === OLD_EVENTS, 60_000);
  });

  after(() => config().update('storeCap', undefined, vscode.ConfigurationTarget.Global));

  it('the store cap: lowered, the events seen longest ago leave the view; raised, a new list brings back what the server still has', async () => {
    const t = new TreeReader(s);
    const before = [...s.store.all()];
    assert.ok(before.length > LOW_CAP + OLD_EVENTS / 2, `${before.length} events held: more than the low cap`);
    await config().update('storeCap', LOW_CAP, vscode.ConfigurationTarget.Global);
    await waitFor(`the store down to ${LOW_CAP}`, () => s.store.size === LOW_CAP);
    const kept = [...s.store.all()];
    const keptUids = new Set(kept.map((e) => e.uid));
    const oldestKept = Math.min(...kept.map(sortTime));
    const droppedNewer = before.filter((e) => !keptUids.has(e.uid) && sortTime(e) > oldestKept);
    assert.deepEqual(droppedNewer.map((e) => e.uid), [], 'nothing newer than what stayed was dropped');
    // The tree shows what the store holds: the old server events' objects went with them.
    await waitFor('the tree without the dropped objects', () => t.groups().every((g) => g.object.namespace !== NAMESPACE || kept.some((e) => e.involvedObject.namespace === NAMESPACE && e.involvedObject.name === g.object.name)));
    assert.ok(t.groups().reduce((n, g) => n + (s.store.group(g.key)?.events.length ?? 0), 0) <= LOW_CAP);

    await config().update('storeCap', undefined, vscode.ConfigurationTarget.Global);
    await waitFor(`the ${OLD_EVENTS} server events back, listed again`, () => onServer(s).length === OLD_EVENTS, 60_000);
    await waitFor('their objects back in the tree', () => t.groups().filter((g) => g.object.namespace === NAMESPACE).length === 30);
  });
  it('a namespaces edit keeps the context picked with Switch Context (it only narrows the watch)', async () => {
    assert.equal(s.connection.context, 'kev-admin');
    // Switch Context as a person answers it: the picker's second row (the context not current), Enter.
    const picking = vscode.commands.executeCommand(Commands.switchContext);
    await new Promise((r) => setTimeout(r, 700));
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await picking;
    await waitFor('switched to kev-limited', () => s.connection.context === 'kev-limited');
    const started = s.connection.counts.started;
    try {
      await config().update('namespaces', [NAMESPACE], vscode.ConfigurationTarget.Global);
      await waitFor('connected again for the new namespaces', () => s.connection.counts.started > started && s.connection.request.namespaces?.join() === NAMESPACE);
      assert.equal(s.connection.context, 'kev-limited', 'the context picked for this window stays');
    } finally {
      await config().update('namespaces', undefined, vscode.ConfigurationTarget.Global);
      await s.connection.connect({ ...s.connection.request, context: 'kev-admin', namespaces: [] });
    }
  });

  it('Sort By "Last seen" (the default) sticks when the user\'s own settings say otherwise', async () => {
    await config().update('sortOrder', 'name', vscode.ConfigurationTarget.Global);
    try {
      await waitFor('sorted by name from the user setting', () => s.shown.sortOrder === 'name');
      const picking = vscode.commands.executeCommand(Commands.sortBy);
      await new Promise((r) => setTimeout(r, 700));
      // The rows: Last seen, Most warnings, Name; the first is the default.
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await picking;
      await waitFor('sorted by last seen', () => s.shown.sortOrder === 'lastSeen');
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(s.settings.value.sortOrder, 'lastSeen', 'the pick is what the settings say now, not the user value it cleared its way back to');
      assert.equal(s.shown.sortOrder, 'lastSeen');
    } finally {
      await config().update('sortOrder', undefined, vscode.ConfigurationTarget.Global);
      if (vscode.workspace.workspaceFolders?.length) await config().update('sortOrder', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  it('the deprecated groupByNamespace still groups by namespace when groupBy is not set', async () => {
    await config().update('groupByNamespace', true, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('grouped by namespace', () => s.settings.value.groupBy === 'namespace' && s.tree.groupBy === 'namespace');
    } finally {
      await config().update('groupByNamespace', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('grouped by object again', () => s.tree.groupBy === 'object');
  });
});

function onServer(s: Services): ClusterEvent[] {
  return [...s.store.all()].filter((e) => e.namespace === NAMESPACE && e.origin === 'core/v1' && e.expiredAt === undefined);
}