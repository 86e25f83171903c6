// The Events view in real Chromium on a seeded workload: the grouped tree with warnings
// (kind icons in the warning colour, the count as the row's badge), recording through the
// command palette, warnings only, and a cancelled pick. Its screenshots are the README's.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually, type EventsViewPage } from './eventsViewPage';
import { screenshot, useEventsView } from './support';

const NS = 'ui-view';

describe('the Events view in Chromium', function () {
  this.timeout(180_000);
  const suite = useEventsView('events-view', NS);
  let page: Page;
  let v: EventsViewPage;
  before(() => ({ page, v } = suite));

  it('shows events grouped by object, newest first: the kind\'s icon in the warning colour and the warnings as a badge', async () => {
    const pod = v.level(1).filter({ hasText: /^Pod\// }).filter({ hasText: NS }).first();
    await pod.waitFor({ timeout: 90_000 });
    assert.equal(await pod.locator('.codicon-vm').count(), 1, 'the pod keeps its kind icon');
    // The badge is a file decoration: VS Code asks for it after drawing the row.
    await eventually('the pod\'s warnings as its badge', async () => /^[1-9]\d*$/.test(await v.badge(pod)));
    assert.match(await pod.locator('.label-description').innerText(), /^\d+[smhd]\S* · \d+ events? · ui-view$/);
    await v.expand(pod);
    const event = v.level(2).filter({ hasText: 'FailedScheduling' }).first();
    await event.waitFor({ timeout: 30_000 });
    assert.match(await event.locator('.label-name').innerText(), /^\d+[smhd]\S*( \(x\d+ over \S+\))? · FailedScheduling: /);
    await screenshot(page, '1-grouped-tree-with-warnings');
  });

  it('records an event through the command palette, and shows it in the tree marked "recorded here"', async () => {
    await v.runCommand('Kubernetes Events: Record Event...');
    await v.waitForQuickTitle('Record Event (1/8)');
    await v.type('ConfigMap');
    await v.pick('ConfigMap');
    await v.waitForQuickTitle('Record Event (2/8)');
    // Every namespace has a kube-root-ca.crt: filter on this one's namespace (the description), or its row may be past the list's end.
    await v.type(NS);
    await v.pickWith('kube-root-ca.crt', NS);
    await v.waitForQuickTitle('Record Event (3/8)');
    await v.pick('Warning');
    await v.waitForQuickTitle('Record Event (4/8)');
    await v.type('UiRecorded');
    await v.accept();
    await v.waitForQuickTitle('Record Event (5/8)');
    await v.type('recorded through the command palette');
    await screenshot(page, '2-record-event-message-step');
    await v.accept();
    // The cluster serves events.k8s.io/v1: it is offered first, then its action and related object.
    await v.waitForQuickTitle('Record Event (6/8)');
    await v.pick('events.k8s.io/v1');
    await v.waitForQuickTitle('Record Event (7/8)');
    await v.type('Rotate');
    await v.accept();
    await v.waitForQuickTitle('Record Event (8/8)');
    await v.type(`Namespace/no-such-${Date.now().toString(36)}`);
    await v.accept();
    await eventually('the related object refused, saying why', async () => /^There is no Namespace named no-such-/.test(await v.validationMessage()));
    await v.type(`Namespace/${NS}`);
    await v.accept();
    await v.notification(/Recorded Warning UiRecorded \(events\.k8s\.io\/v1, action Rotate\) on ConfigMap\/kube-root-ca\.crt/).waitFor({ timeout: 30_000 });
    const group = v.level(1).filter({ hasText: 'ConfigMap/kube-root-ca.crt' }).filter({ hasText: NS }).first();
    await group.waitFor({ timeout: 30_000 });
    await v.expand(group);
    const recorded = v.level(2).filter({ hasText: 'UiRecorded: recorded through the command palette' }).first();
    await recorded.waitFor({ timeout: 10_000 });
    for (let i = 0; i < 40 && (await v.badge(recorded)) !== 'R'; i++) await page.waitForTimeout(250);
    assert.equal(await v.badge(recorded), 'R');
    await screenshot(page, '3-recorded-event-in-tree');
  });

  it('shows warnings only, and says so in the header', async () => {
    await v.titleButton('Show Warnings Only');
    await page.waitForFunction(() => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector('.part.sidebar .composite.title')?.textContent.includes('Warning'));
    await v.stableLabels(1);
    for (const row of await v.objectRows().all()) assert.match(await v.badge(row), /^[1-9]\d*$/, `${await row.innerText()} has warnings`);
    await screenshot(page, '4-filter-warnings-only');
    await v.titleButton('Show All Event Types');
  });

  it('a cancelled pick records nothing', async () => {
    const before = await v.stableLabels();
    await v.runCommand('Kubernetes Events: Record Event...');
    await v.waitForQuickTitle('Record Event (1/8)');
    await page.keyboard.press('Escape');
    await page.locator('.statusbar', { hasText: 'Record Event cancelled: nothing was recorded.' }).waitFor({ timeout: 10_000 });
    assert.deepEqual((await v.stableLabels()).length, before.length);
  });
});
