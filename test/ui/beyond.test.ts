// Past what other viewers do, clicked in Chromium: warning notifications (a new warning,
// then its count rising; Show reveals it; Mute silences its reason), and search over every
// event kept, history included.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { bumpEvent, createEvent, deleteEvent } from './cluster';
import { eventually, type EventsViewPage } from './eventsViewPage';
import { screenshot, useEventsView } from './support';

const NS = 'ui-beyond';


describe('notifications and search, in Chromium', function () {
  this.timeout(240_000);
  const suite = useEventsView('beyond', NS, { 'kubernetesEvents.notifications.enabled': true });
  let page: Page;
  let v: EventsViewPage;
  before(() => ({ page, v } = suite));
  const stamp = Date.now().toString(36);

  it('notifies a new warning as text, again when its count rises; Show reveals it', async () => {
    const name = `cert-${stamp}`;
    await createEvent(NS, `notify.${stamp}`, { kind: 'Secret', name, apiVersion: 'v1' }, 'CertExpiring', 'renew at [the portal](command:workbench.action.closeWindow) https://evil.example now');
    const first = v.notification(`Warning CertExpiring on Secret/${name} in ${NS}: renew at [the portal] (command:workbench.action.closeWindow) https://evil.example now`);
    await first.waitFor({ timeout: 30_000 });
    assert.equal(await first.locator('.notification-list-item-message a').count(), 0, 'nothing in it is a link');
    await screenshot(page, 'ui-8-warning-notification');
    await first.locator('.codicon-notifications-clear, .action-label[aria-label^="Clear"]').first().click().catch(() => undefined);
    await bumpEvent(NS, `notify.${stamp}`, 4);
    // Within ten seconds of the first, it waits for the window: then one notification says the count rose.
    const again = v.notification(`Warning CertExpiring on Secret/${name} in ${NS} again (count 1 → 4)`);
    await again.waitFor({ timeout: 30_000 });
    await again.locator('.monaco-button', { hasText: 'Show' }).click();
    const selected = page.locator('.part.sidebar .monaco-list-row[aria-selected="true"]');
    await eventually('the event selected in the tree', async () => /CertExpiring: renew at/.test(await selected.innerText().catch(() => '')));
  });

  it('Mute... silences a reason: its next rise says nothing', async () => {
    const name = `mute-${stamp}`;
    await new Promise((r) => setTimeout(r, 10_500));
    await createEvent(NS, `mute.${stamp}`, { kind: 'Secret', name, apiVersion: 'v1' }, 'NoisyReason', 'again and again');
    const toast = v.notification(`Warning NoisyReason on Secret/${name}`);
    await toast.waitFor({ timeout: 30_000 });
    await toast.locator('.monaco-button', { hasText: 'Mute…' }).click();
    await v.waitForQuickTitle('Mute Warning Notifications');
    await v.pick('Mute the reason NoisyReason');
    await new Promise((r) => setTimeout(r, 10_500));
    await bumpEvent(NS, `mute.${stamp}`, 9);
    await page.waitForTimeout(12_000);
    const rises = page.locator('.notification-toast, .notifications-toasts .notification-list-item').filter({ hasText: /NoisyReason on .* again \(count/ });
    assert.equal(await rises.count(), 0, 'the muted reason rose to 9 and nothing was said');
  });

  it('rolls events up under their workload, summing warnings per level, and back', async () => {
    await v.moreAction('Group By...');
    await v.waitForQuickTitle('Group Events By');
    await v.pick('Workload');
    const deployment = v.objectRows().filter({ hasText: /^Deployment\/web/ }).first();
    await deployment.waitFor({ timeout: 30_000 });
    // Its pods' FailedScheduling warnings are summed onto the Deployment.
    await eventually('the pods\' warnings summed on the Deployment', async () => /^[1-9]\d*$/.test(await v.badge(deployment)));
    assert.equal(await v.objectRows().filter({ hasText: /^Pod\// }).count(), 0, 'no pod at the top: each is under its workload');
    await v.expand(deployment);
    const rs = v.level(2).filter({ hasText: /^ReplicaSet\/web-/ }).first();
    await rs.waitFor({ timeout: 30_000 });
    await v.expand(rs);
    const pod = page.locator('.part.sidebar .monaco-list-row[aria-level="3"]').filter({ hasText: /^Pod\/web-/ }).first();
    await pod.waitFor({ timeout: 30_000 });
    const sum = Number(await v.badge(deployment));
    assert.ok(sum >= Number(await v.badge(pod)), 'a level sums what is beneath it');
    await screenshot(page, 'ui-10-workload-rollup');
    await v.moreAction('Group By...');
    await v.pick('Object');
    await v.objectRows().filter({ hasText: /^Pod\// }).first().waitFor({ timeout: 30_000 });
  });

  it('searches every event kept, history included, and reveals the one chosen', async () => {
    await createEvent(NS, `gone.${stamp}`, { kind: 'ConfigMap', name: `gone-${stamp}`, apiVersion: 'v1' }, 'RotatedKeys', `keys rotated ${stamp} then the event expired`, 'Normal');
    await v.row(`ConfigMap/gone-${stamp}`).waitFor({ timeout: 30_000 });
    await deleteEvent(NS, `gone.${stamp}`);
    await v.moreAction('Search Events...');
    await v.waitForQuickTitle(/Search Events/);
    await v.type(`rotated ${stamp}`);
    await v.waitForQuickTitle('Search Events: 1 match');
    const result = page.locator('.quick-input-list .monaco-list-row').first();
    await eventually('the result marked history', async () => /history/.test(await result.innerText()));
    await screenshot(page, 'ui-9-search-history');
    await v.accept();
    const selected = page.locator('.part.sidebar .monaco-list-row[aria-selected="true"]');
    await eventually('the history event selected', async () => new RegExp(`RotatedKeys: keys rotated ${stamp}`).test(await selected.innerText().catch(() => '')));
    await eventually('the history mark', async () => (await v.badge(selected)) === 'H');
  });
});
