// The Events view in real Chromium, driving the real workbench: the grouped tree with
// warnings highlighted, the record flow through the command palette, a filter, and a
// cancelled pick. Each step saves a screenshot to test-results/screenshots/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { openWorkbench, screenshot, type Workbench } from './support';

const TREE = '.part.sidebar .monaco-list[role="tree"][aria-label="Events"]';

async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${title}`);
  // Click the exact command: Enter would run the first fuzzy match, which may be another one.
  const row = page.locator(`.quick-input-list .monaco-list-row[aria-label^="${title}"]`).first();
  await row.waitFor();
  await row.click();
}

/** Types into the open quick pick or input box and accepts, after checking its title. */
async function answer(page: Page, titleStart: string, text: string, rowLabel?: string): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-title', { hasText: titleStart }).waitFor({ timeout: 30_000 });
  await page.locator('.quick-input-widget input').fill(text);
  if (rowLabel) await page.locator(`.quick-input-list .monaco-list-row[aria-label^="${rowLabel}"]`).first().waitFor({ timeout: 30_000 });
  await page.keyboard.press('Enter');
}

/** The number of rows once it has not changed for a second (refreshes are batched). */
async function stableRowCount(page: Page): Promise<number> {
  let last = -1;
  for (;;) {
    const now = await rows(page).count();
    if (now === last) return now;
    last = now;
    await page.waitForTimeout(1000);
  }
}

function rows(page: Page): Locator {
  return page.locator(`${TREE} .monaco-list-row[role="treeitem"]`);
}

describe('the Events view in Chromium', function () {
  this.timeout(180_000);
  let workbench: Workbench;
  let page: Page;

  before(async () => {
    workbench = await openWorkbench('events-view');
    page = workbench.page;
    const tab = page.getByRole('tab', { name: /Kubernetes Events/ });
    await tab.waitFor({ timeout: 60_000 });
    await tab.click();
    await rows(page).first().waitFor({ timeout: 60_000 });
  });
  after(async () => {
    await workbench?.close();
  });

  it('shows events grouped by object, newest first, with warnings highlighted', async () => {
    const labels = await rows(page).locator('.label-name').allInnerTexts();
    assert.ok(labels.some((l) => /^Deployment\//.test(l)), `a Deployment group (rows: ${labels.join(' | ')})`);
    const warningGroup = rows(page).filter({ has: page.locator('.codicon-warning') }).filter({ hasText: /^Pod\// }).first();
    await warningGroup.waitFor({ timeout: 30_000 });
    assert.match(await warningGroup.locator('.label-description').innerText(), /^⚠\d+ · /);
    await warningGroup.click();
    await page.locator(`${TREE} .monaco-list-row[aria-level="2"]`).filter({ hasText: 'FailedScheduling' }).first().waitFor({ timeout: 10_000 });
    const file = await screenshot(page, '1-grouped-tree-with-warnings');
    assert.ok(fs.statSync(file).size > 10_000);
  });

  it('records an event through the command palette, and shows it in the tree', async () => {
    await runCommand(page, 'Kubernetes Events: Record Event...');
    await answer(page, 'Record Event (1/5)', 'ConfigMap', 'ConfigMap');
    await answer(page, 'Record Event (2/5)', 'kube-root-ca.crt', 'kube-root-ca.crt');
    await answer(page, 'Record Event (3/5)', 'Warning', 'Warning');
    await answer(page, 'Record Event (4/5)', 'UiRecorded', 'UiRecorded');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Record Event (5/5)' }).waitFor();
    await page.locator('.quick-input-widget input').fill('recorded through the command palette');
    await screenshot(page, '2-record-event-message-step');
    await page.keyboard.press('Enter');
    const group = rows(page).filter({ hasText: 'ConfigMap/kube-root-ca.crt' }).first();
    await group.waitFor({ timeout: 30_000 });
    await group.click();
    const recorded = rows(page).filter({ hasText: 'UiRecorded: recorded through the command palette' }).first();
    await recorded.waitFor({ timeout: 10_000 });
    assert.match(await recorded.locator('.label-description').innerText(), /recorded here/);
    await screenshot(page, '3-recorded-event-in-tree');
  });

  it('applies a filter: warnings only, shown in the view description', async () => {
    await runCommand(page, 'Kubernetes Events: Filter Events...');
    await answer(page, 'Filter Events (1/2)', 'Type', 'Type');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Filter Events (2/2)' }).waitFor();
    await page.locator('.quick-input-list .monaco-list-row[aria-label^="Warning"]').first().click();
    await page.keyboard.press('Enter');
    // The view's description (in the title when the container holds one view) names the filter.
    await page.locator('.part.sidebar .description', { hasText: 'Warning' }).first().waitFor({ state: 'attached', timeout: 10_000 });
    const groups = page.locator(`${TREE} .monaco-list-row[aria-level="1"]`);
    // Every object row left carries the warning icon.
    const objectRows = page.locator(`${TREE} .monaco-list-row[aria-level="1"]`);
    const deadline = Date.now() + 10_000;
    while ((await objectRows.filter({ hasNot: page.locator('.codicon-warning') }).count()) > 0 && Date.now() < deadline) await page.waitForTimeout(100);
    assert.equal(await objectRows.filter({ hasNot: page.locator('.codicon-warning') }).count(), 0, 'only objects with warnings are left');
    assert.ok((await groups.count()) > 0);
    await screenshot(page, '4-filter-warnings-only');
    await runCommand(page, 'Kubernetes Events: Clear Filters');
  });

  it('a cancelled pick records nothing', async () => {
    const before = await stableRowCount(page);
    await runCommand(page, 'Kubernetes Events: Record Event...');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Record Event (1/5)' }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await page.locator('.statusbar', { hasText: 'Record Event cancelled: nothing was recorded.' }).waitFor({ timeout: 10_000 });
    assert.equal(await stableRowCount(page), before);
  });
});
