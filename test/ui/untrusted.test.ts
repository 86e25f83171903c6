// An untrusted workspace cannot point the extension at a kubeconfig (an exec plugin would
// run its code) or turn the sink on: its settings for both are ignored, and the sink
// commands are not offered.
import * as assert from 'node:assert/strict';
import { openWorkbench, screenshot, type Workbench } from './support';

describe('an untrusted workspace (Restricted Mode) in Chromium', function () {
  this.timeout(180_000);
  let workbench: Workbench;

  before(async () => {
    workbench = await openWorkbench('untrusted', {
      workspaceTrust: true,
      workspaceSettings: { 'kubernetesEvents.kubeconfig': '/workspace-supplied/kubeconfig', 'kubernetesEvents.context': 'kev-limited', 'kubernetesEvents.sink.enabled': true },
    });
  });
  after(async () => {
    await workbench?.close();
  });

  it('ignores the workspace\'s kubeconfig, context and sink settings, and offers no sink command', async () => {
    const { page } = workbench;
    await page.locator('.statusbar-item', { hasText: 'Restricted Mode' }).first().waitFor({ timeout: 60_000 });
    const tab = page.getByRole('tab', { name: /Kubernetes Events/ });
    await tab.waitFor({ timeout: 60_000 });
    await tab.click();
    // The user's KUBECONFIG (admin) is used, not the workspace's path or its limited context.
    const rows = page.locator('.part.sidebar .monaco-list[role="tree"][aria-label="Events"] .monaco-list-row[role="treeitem"]');
    await rows.first().waitFor({ timeout: 60_000 });
    await screenshot(page, '5-untrusted-workspace');
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>Kubernetes Events: Enable Sink');
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
    const offered = await page.locator('.quick-input-list .monaco-list-row[aria-label^="Kubernetes Events: Enable Sink"]').count();
    assert.equal(offered, 0, 'Enable Sink is not offered in Restricted Mode');
    await page.keyboard.press('Escape');
    assert.ok((await rows.count()) > 0);
  });
});
