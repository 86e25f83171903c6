// Past what other viewers do, clicked in Chromium: warning notifications (a new warning,
// then its count rising; Show reveals it; Mute silences its reason), search over every
// event kept, history included, and the store's settings changed in the Settings editor.
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

  it('Mute... silences a reason: its next rise says nothing, while another reason still notifies', async () => {
    const name = `mute-${stamp}`;
    const told = await watchNotifications(page);
    await createEvent(NS, `mute.${stamp}`, { kind: 'Secret', name, apiVersion: 'v1' }, 'NoisyReason', 'again and again');
    const toast = v.notification(`Warning NoisyReason on Secret/${name}`);
    await toast.waitFor({ timeout: 30_000 });
    await toast.locator('.monaco-button', { hasText: 'Mute…' }).click();
    await v.waitForQuickTitle('Mute Warning Notifications');
    await v.pick('Mute the reason NoisyReason');
    await page.locator('.statusbar', { hasText: 'Warning notifications: the reason NoisyReason muted in this workspace.' }).waitFor({ timeout: 10_000 });
    const sinceMute = (await told()).length;
    // The muted reason rises, then another reason arrives: the watch delivers them in that
    // order, and within the window they would be told together. The other one, told, is the
    // proof that anything the muted rise would have said has been said by then.
    await bumpEvent(NS, `mute.${stamp}`, 9);
    await createEvent(NS, `unmuted.${stamp}`, { kind: 'Secret', name: `unmuted-${stamp}`, apiVersion: 'v1' }, 'OtherReason', 'still told');
    await eventually('the other reason told', async () => (await told()).slice(sinceMute).some((t) => t.includes('OtherReason')), 30_000);
    const after = (await told()).slice(sinceMute);
    assert.deepEqual(after.filter((t) => t.includes('NoisyReason')), [], `the muted reason rose to 9 and nothing said it; told: ${after.join(' | ')}`);
  });

  it('rolls events up under their workload, summing warnings per level, and back', async () => {
    await v.openAndPick(() => v.moreAction('Group By...'), 'Group Events By', 'Workload');
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

  it('Settings: a lower store cap drops the events seen longest ago at once, a higher one lists again; a correlator setting offers the reload it needs', async () => {
    // More events than the lowest cap (100), all newer than the seeded ones: 120 about 12 objects.
    const tag = `capped-${stamp}`;
    const next = [...Array(120).keys()];
    const create = async () => {
      for (let i = next.shift(); i !== undefined; i = next.shift()) await createEvent(NS, `${tag}.${i}`, { kind: 'ConfigMap', name: `${tag}-${i % 12}`, apiVersion: 'v1' }, 'Synced', `${tag} 同期 ✅ \u200fتم ${i}`, 'Normal');
    };
    await Promise.all(Array.from({ length: 8 }, create));
    const matches = async (query = tag): Promise<string> => {
      // Not while a list moves the rows: a refresh under the open "..." menu closes it unclicked.
      await v.stableLabels();
      await v.moreAction('Search Events...');
      await v.waitForQuickTitle(/Search Events/);
      await v.type(query);
      // The title is searched again 120 ms after the last key (before that it counts every event): read it once it holds still.
      const read = () => page.locator('.quick-input-widget .quick-input-title').innerText();
      let title = '';
      for (let last = ''; ; last = title) {
        await page.waitForTimeout(400);
        title = await read();
        if (title === last && /match/.test(title)) break;
      }
      await page.keyboard.press('Escape');
      return title;
    };
    await eventually('all 120 in the view', async () => (await matches().catch(() => page.keyboard.press('Escape').then(() => ''))) === 'Search Events: 120 matches');
    // The seeded Deployment's event, older than these 120.
    const seeded = 'ScalingReplicaSet replica set web';
    assert.equal(await matches(seeded), 'Search Events: 1 match', 'the seeded Deployment\'s event is kept before');
    await v.setNumberSetting('kubernetesEvents.storeCap', 100);
    // Asked again until it holds; a search box the menu did not open is closed and asked again.
    const settled = (query: string, want: string) => async () => (await matches(query).catch(() => page.keyboard.press('Escape').then(() => ''))) === want;
    await eventually('the seeded event dropped', settled(seeded, 'Search Events: 0 matches'), 90_000);
    // The seeded pods' scheduler may have written again meanwhile: those are newer and stay too.
    const kept = Number(/(\d+) match/.exec(await matches())?.[1]);
    assert.ok(kept <= 100 && kept >= 90, `${kept} of the 120 kept: the newest, up to the cap`);
    await v.quickInput().waitFor({ state: 'hidden' });
    await screenshot(page, 'ui-11-store-cap-lowered');
    await v.setNumberSetting('kubernetesEvents.storeCap', 20000);
    await eventually('the seeded event listed again', settled(seeded, 'Search Events: 1 match'), 90_000);
    assert.equal(await matches(), 'Search Events: 120 matches');
    await v.setNumberSetting('kubernetesEvents.correlator.burstSize', 40);
    await v.notificationButton(/correlator settings apply to events recorded after the window reloads/, 'Reload Window');
    await v.open();
    await v.row(/^Deployment\/web$/).waitFor({ timeout: 90_000 });
  });
});

/** Notes, in the page, the text of every notification as it shows (a toast hides by itself after a while). */
async function watchNotifications(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { kevTold?: string[] };
    if (w.kevTold) return;
    const told: string[] = (w.kevTold = []);
    // By element and text: VS Code fills a toast's message after adding it, and may draw it again.
    const noted = new WeakMap<Element, string>();
    const note = () => {
      for (const m of Array.from(document.querySelectorAll('.notifications-toasts .notification-list-item-message'))) {
        const text = m.textContent ?? '';
        if (!text || noted.get(m) === text) continue;
        noted.set(m, text);
        told.push(text);
      }
    };
    note();
    new MutationObserver(note).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => [...((window as unknown as { kevTold: string[] }).kevTold)]);
}
