import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { openWorkbench, screenshot, type Workbench } from './support';

describe('the Events view in Chromium', function () {
  let workbench: Workbench;

  before(async () => {
    workbench = await openWorkbench('events-view');
  });
  after(async () => {
    await workbench?.close();
  });

  it('opens the Kubernetes Events container from the activity bar and shows cluster events', async () => {
    const { page } = workbench;
    const tab = page.getByRole('tab', { name: /Kubernetes Events/ });
    await tab.waitFor({ timeout: 60_000 });
    await tab.click();
    await page.locator('.part.sidebar .composite.title').filter({ hasText: /Kubernetes Events/i }).waitFor({ timeout: 30_000 });
    const tree = page.locator('.part.sidebar .monaco-list[role="tree"][aria-label="Events"]');
    const rows = tree.locator('.monaco-list-row[role="treeitem"]');
    await rows.first().waitFor({ timeout: 30_000 });
    const labels = await rows.locator('.label-name').allInnerTexts();
    assert.ok(labels.some((l) => /^Deployment\/web$/.test(l)), `a Deployment/web group is listed (rows: ${labels.join(' | ')})`);
    // Open the deployment's group so the screenshot shows real events beneath it.
    await rows.filter({ hasText: 'Deployment/web' }).first().click();
    await tree.locator('.monaco-list-row[aria-level="2"]').first().waitFor({ timeout: 10_000 });
    const file = await screenshot(page, 'events-view');
    assert.ok(fs.statSync(file).size > 10_000, 'the screenshot holds a rendered workbench');
  });
});
