// Our three items in the real Kubernetes extension's Cluster Explorer (the vendored 1.4.1), in
// Chromium: right-click a Deployment, a Pod and a Namespace, Show in Events View (the first
// click is what activates us), Record Event... and Diagnose through the menu, checked in our view and on
// the apiserver (kind, name, namespace, uid); then Set as Current Cluster in its menu moves our
// view. Screenshots: the context menu, and our view after Show in Events View.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { explorerSetup, EXPLORER_CONTEXTS as C } from '../../env/explorerSetup';
import { repoRoot } from '../../env/paths';
import { skipSuite } from '../../env/skip';
import { controlPlane, createClusterScopedEvent, eventsAbout, podNames, seedExplorerObjects, uidOf, type SeededKind } from '../cluster';
import { EventsViewPage } from '../eventsViewPage';
import { openWorkbench, screenshot, type Workbench } from '../support';
import { ClusterExplorerPage } from './clusterExplorerPage';

/** New each run, so its objects and their events are this run's (events expire after an hour). */
const NS = `k8sext-ui-${Date.now().toString(36)}`;
const SHOW = 'Show in Events View';
const RECORD = 'Record Event...';
const DIAGNOSE = 'Diagnose';

async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('the Kubernetes extension\'s Cluster Explorer (vendored), in Chromium', function () {
  this.timeout(240_000);
  let workbench: Workbench | undefined;
  let page: Page;
  let v: EventsViewPage;
  let x: ClusterExplorerPage;
  let pod: string;

  before(async function () {
    const setup = explorerSetup(path.join(repoRoot, '.run', 'ui-k8s-explorer'), controlPlane().info, NS);
    if (setup.missing) skipSuite(this, `the vendored Kubernetes extension is missing: ${setup.missing}`);
    await seedExplorerObjects(NS);
    await createClusterScopedEvent(`${NS}.quota-review`, { kind: 'Namespace', name: NS, apiVersion: 'v1', uid: await uidOf('Namespace', NS) }, 'QuotaReviewed', 'quota reviewed by the platform team');
    pod = await eventually('the pod', async () => (await podNames(NS, 'app=web'))[0]);
    await eventually('FailedScheduling on the pod', async () => (await eventsAbout('Pod', pod, NS)).length > 0);
    workbench = await openWorkbench('k8s', { extensions: setup.extensions, path: setup.path, settings: { ...setup.settings, 'kubernetesEvents.sink.enabled': true } });
    page = workbench.page;
    v = new EventsViewPage(page);
    x = new ClusterExplorerPage(page);
    try {
      await x.open();
    } catch (e) {
      await screenshot(page, 'failed-k8s-open-cluster-explorer');
      throw e;
    }
  });
  after(async () => {
    await workbench?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && workbench) {
      await screenshot(page, `failed-k8s-${(this.currentTest.title ?? 'test').slice(0, 40).replace(/\W+/g, '-')}`);
      for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
    }
  });

  /** Our view's selected row after Show in Events View: the object, in the explorer's namespace. */
  async function selectedRow(label: string, namespace: string, child: string): Promise<void> {
    const selected = v.selected();
    await eventually(`${label} selected`, async () => (await selected.count()) === 1 && (await selected.locator('.label-name').innerText()) === label);
    assert.match(await selected.locator('.label-description').innerText(), new RegExp(` · ${namespace || '\\d+ events?'}$`));
    // The reveal selects, then expands: the row's state follows a moment later.
    await eventually(`${label} expanded`, async () => (await selected.getAttribute('aria-expanded')) === 'true', 10_000);
    await v.level(2).filter({ hasText: child }).first().waitFor({ timeout: 30_000 });
  }

  /** Record Event... from the row's menu: type, reason, message; then the event under the object and on the apiserver. */
  async function recordOn(row: () => Promise<ReturnType<ClusterExplorerPage['row']>>, o: { kind: SeededKind; name: string; namespace: string }, reason: string): Promise<void> {
    await x.open();
    await x.menu(await row());
    await v.menuItem(RECORD);
    await v.waitForQuickTitle('Record Event (1/6)');
    await v.pick('Warning');
    await v.waitForQuickTitle('Record Event (2/6)');
    await v.type(reason);
    await v.accept();
    await v.waitForQuickTitle('Record Event (3/6)');
    await v.type(`recorded from the Cluster Explorer on ${o.kind}/${o.name}`);
    await v.accept();
    // Through events.k8s.io/v1, as offered first; no related object.
    await v.waitForQuickTitle('Record Event (4/6)');
    await v.pick('events.k8s.io/v1');
    await v.waitForQuickTitle('Record Event (5/6)');
    await v.type('Inspect');
    await v.accept();
    await v.waitForQuickTitle('Record Event (6/6)');
    await v.accept();
    await v.notification(new RegExp(`Recorded Warning ${reason} \\(events\\.k8s\\.io/v1, action Inspect\\) on ${o.kind}/${o.name}.* sent it to the cluster of context ${C.a}`)).waitFor({ timeout: 30_000 });
    // On the apiserver: the reference is the explorer's object, uid and all.
    const stored = await eventually(`${reason} on the apiserver`, async () => (await eventsAbout(o.kind, o.name, o.namespace || 'default')).find((e) => e.reason === reason));
    const ref = stored.involvedObject;
    assert.deepEqual(
      { kind: ref.kind, name: ref.name, namespace: ref.namespace ?? '', uid: ref.uid, apiVersion: ref.apiVersion },
      { kind: o.kind, name: o.name, namespace: o.namespace, uid: await uidOf(o.kind, o.name, o.namespace), apiVersion: o.kind === 'Deployment' ? 'apps/v1' : 'v1' },
    );
    // In our view, under the object.
    await v.open();
    const group = v.level(1).filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${o.kind}/${o.name}$`) }) }).filter({ hasText: o.namespace || o.name }).first();
    await group.waitFor({ timeout: 30_000 });
    await v.expand(group);
    await v.level(2).filter({ hasText: `${reason}: recorded from the Cluster Explorer` }).first().waitFor({ timeout: 30_000 });
  }

  it('shows the local cluster; a Deployment\'s menu has our three items, and Show in Events View (the click that activates us) selects its events', async () => {
    const deployment = await x.rowAt(C.a, 'Workloads', 'Deployments', 'web');
    const items = await x.menu(deployment);
    assert.deepEqual(items.slice(-3), [SHOW, RECORD, DIAGNOSE], `our three items, last: ${items.join(' | ')}`);
    assert.ok(items.includes('Describe'), 'its own items are there too');
    await screenshot(page, 'k8s-1-explorer-context-menu');
    await v.menuItem(SHOW);
    await selectedRow('Deployment/web', NS, 'ScalingReplicaSet');
    assert.match(await v.header(), new RegExp(C.a, 'i'), 'the view follows its kubeconfig: context explorer-a');
    await screenshot(page, 'k8s-2-events-view-after-show');
  });

  it('records a Warning on the Deployment through its menu: on the apiserver with the Deployment\'s kind, name, namespace and uid, and under it in our view', async () => {
    await recordOn(() => x.rowAt(C.a, 'Workloads', 'Deployments', 'web'), { kind: 'Deployment', name: 'web', namespace: NS }, 'UiExplorerDeployment');
  });

  it('a Pod: Show in Events View selects its FailedScheduling events, Record Event... records on it', async () => {
    await x.open();
    await x.menu(await x.rowAt(C.a, 'Workloads', 'Pods', pod));
    await v.menuItem(SHOW);
    await selectedRow(`Pod/${pod}`, NS, 'FailedScheduling');
    await recordOn(() => x.rowAt(C.a, 'Workloads', 'Pods', pod), { kind: 'Pod', name: pod, namespace: NS }, 'UiExplorerPod');
  });

  it('a Pod that never scheduled: Diagnose in its menu opens its panel, which says why no container has started', async () => {
    await x.open();
    await x.menu(await x.rowAt(C.a, 'Workloads', 'Pods', pod));
    await v.menuItem(DIAGNOSE);
    await page.locator('.editor-group-container .tab', { hasText: `Diagnose: Pod/${pod}` }).first().waitFor({ timeout: 30_000 });
    const frame = page.frameLocator('iframe.webview.ready:visible').last().frameLocator('#active-frame');
    await eventually('its status', async () => /^Pending · 0\/1 ready/.test((await frame.locator('#summary').innerText().catch(() => '')) ?? ''));
    await eventually('why no log', async () => /^No container of Pod\/.* has started: the pod is not scheduled \(Unschedulable: 0\/\d+ nodes are available/.test((await frame.locator('#logProblem').innerText().catch(() => '')) ?? ''));
    await screenshot(page, 'k8s-4-diagnose-from-explorer');
  });

  it('a Namespace (cluster-scoped): its menu has its own Show Events and ours apart; ours selects the Namespace\'s events, Record Event... records on it', async () => {
    await x.open();
    const items = await x.menu(await x.rowAt(C.a, 'Namespaces', `* ${NS}`));
    assert.ok(items.includes('Show Events') && items.includes(SHOW), `both, told apart: ${items.join(' | ')}`);
    await screenshot(page, 'k8s-3-namespace-context-menu');
    await v.menuItem(SHOW);
    await selectedRow(`Namespace/${NS}`, '', 'QuotaReviewed');
    await recordOn(() => x.rowAt(C.a, 'Namespaces', `* ${NS}`), { kind: 'Namespace', name: NS, namespace: '' }, 'UiExplorerNamespace');
  });

  it('Set as Current Cluster in its menu moves our view to that context', async () => {
    await x.open();
    // The first context's namespaces and workloads, expanded above, push the second out of the pane.
    await x.collapse(1, C.a);
    await x.menu(await x.rowAt(C.aOther));
    await v.menuItem('Set as Current Cluster');
    await eventually('our status bar on the other context', async () => (await v.statusBarItem().innerText()).includes(C.aOther));
    await v.open();
    await eventually('our view\'s header on the other context', async () => new RegExp(C.aOther, 'i').test(await v.header()));
  });
});
