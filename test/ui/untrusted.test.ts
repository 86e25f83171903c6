// A workspace may name its kubeconfig and context (their scope is machine-overridable), but
// only once trusted: an untrusted one cannot point the extension at a kubeconfig (an exec
// plugin would run its code) or turn the sink on. Its settings for both are ignored, the
// sink stays off even when the user's own settings turn it on, and the sink commands are
// not offered, where the palette demonstrably lists the extension's others.
import * as assert from 'node:assert/strict';
import { EventsViewPage } from './eventsViewPage';
import { openWorkbench, screenshot, type Workbench } from './support';

describe('an untrusted workspace (Restricted Mode) in Chromium', function () {
  this.timeout(180_000);
  let workbench: Workbench;

  before(async () => {
    workbench = await openWorkbench('untrusted', {
      workspaceTrust: true,
      workspaceSettings: { 'kubernetesEvents.kubeconfig': '/workspace-supplied/kubeconfig', 'kubernetesEvents.context': 'kev-limited', 'kubernetesEvents.sink.enabled': true },
      // The user's own choice of the sink ("Enable for All Workspaces") waits for trust too.
      settings: { 'kubernetesEvents.sink.enabled': true },
    });
  });
  after(async () => {
    await workbench?.close();
  });

  it('ignores the workspace\'s kubeconfig, context and sink settings, and offers no sink command', async () => {
    const { page } = workbench;
    const v = new EventsViewPage(page);
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 60_000 });
    await v.open();
    // The user's KUBECONFIG (admin) is used, not the workspace's path or its limited context.
    assert.match(await v.statusBarItem().innerText(), /kev-admin/);
    // Connected (the rows are the admin's), given time to start a sink it must not start.
    await v.row(/^Deployment\//).first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(3000);
    assert.doesNotMatch(await v.header(), /sink on/i);
    await screenshot(page, '5-untrusted-workspace');
    await page.keyboard.press('F1');
    await v.type('>Kubernetes Events: ');
    // The palette has rendered the extension's commands: a missing row below means "not offered".
    await page.locator('.quick-input-list .monaco-list-row[aria-label^="Kubernetes Events: Refresh Events"]').waitFor({ timeout: 10_000 });
    const offered = await page.locator('.quick-input-list .monaco-list-row').evaluateAll((rows) => rows.length);
    assert.ok(offered > 3, `${offered} commands offered`);
    // The list is virtual (rows out of sight are not in the page): ask for the command by name,
    // wait until the palette shows what that query matches, then look.
    await v.type('>Kubernetes Events: Enable Sink');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    // Wait until what the palette lists for this query has stopped changing for a second.
    let labels: string[] = [];
    let last = '';
    for (let stable = 0, i = 0; stable < 4 && i < 60; i++) {
      labels = await rows.evaluateAll((els) => els.map((e) => (e as unknown as { getAttribute(n: string): string | null }).getAttribute('aria-label') ?? ''));
      stable = labels.join('|') === last ? stable + 1 : 0;
      last = labels.join('|');
      await page.waitForTimeout(250);
    }
    assert.ok(!labels.some((l) => l.startsWith('Kubernetes Events: Enable Sink')), `Enable Sink is not offered in Restricted Mode (offered: ${labels.join(' | ') || 'nothing'})`);
    await page.keyboard.press('Escape');
  });
});

describe('a trusted workspace that names its context, in Chromium', function () {
  this.timeout(180_000);
  let workbench: Workbench;

  before(async () => {
    workbench = await openWorkbench('trusted-context', { workspaceSettings: { 'kubernetesEvents.context': 'kev-limited' } });
  });
  after(async () => {
    await workbench?.close();
  });

  it('connects to the context the workspace names, not the kubeconfig\'s current one', async () => {
    const v = new EventsViewPage(workbench.page);
    await v.open();
    await v.statusBarItem().filter({ hasText: 'kev-limited' }).waitFor({ timeout: 60_000 });
    assert.match(await v.header(), /kev-limited/i, 'the header names it too (drawn in capitals)');
    await screenshot(workbench.page, '5-trusted-workspace-context');
  });
});
