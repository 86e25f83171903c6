// The Events view in real Chromium on a seeded workload: the grouped tree with warnings
// (kind icons in the warning colour, the count as the row's badge), recording through the
// command palette, warnings only, and a cancelled pick. Its screenshots are the README's.
// Last, quick inputs opened while events pour in. VS Code gives the focus back to a tree view
// that had it whenever one of its refreshes completes, and a quick input that loses the focus
// closes: Filter Events pressed after a click on a row closed by itself now and then in a busy
// namespace (two CI runs lost a test to it; that test saw 1 in 16 close), until the tree held
// its redraws while one of ours is open. So each try checks the hold itself (the rows stand
// still while events arrive), not only the rare closure it prevents.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { CoreV1Api } from '@kubernetes/client-node';
import { adminKubeConfig, createEvent } from './cluster';
import { eventually, type EventsViewPage } from './eventsViewPage';
import { focusSince, watchFocus } from './focusLog';
import { screenshot, useEventsView } from './support';

const NS = 'ui-view';
/** New events a second while the quick inputs are opened: each a new row at the top. */
const EVENTS_PER_SECOND = 20;
/** The objects they are on. */
const OBJECTS = 6;
/** Times each quick input is opened (KEV_LIVE_PICKS_TRIES for more, to measure a rate); a person reads it for READ_MS before answering. */
const TRIES = Number(process.env.KEV_LIVE_PICKS_TRIES ?? 4);
const READ_MS = 1_500;
/** A redraw asked for just before the input opened may still land: the rows are read this long after it shows. */
const SETTLE_MS = 300;

describe('the Events view in Chromium', function () {
  this.timeout(180_000 + TRIES * 2 * 10_000);
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

  describe('quick inputs while events pour in', () => {
    // What was poured goes, so the seeded rows are on screen the next time this runs on the same cluster.
    after(() => adminKubeConfig().makeApiClient(CoreV1Api).deleteCollectionNamespacedEvent({ namespace: NS, fieldSelector: 'reason=Pouring' }));

    it('stay open: Filter Events and Sort By, pressed after a click on a row, while the rows move under them', async () => {
      const stamp = Date.now().toString(36);
      let stop = false;
      let sent = 0;
      const pour = (async () => {
        while (!stop) {
          await createEvent(NS, `pour.${stamp}.${sent}`, { kind: 'ConfigMap', name: `pour-${stamp}-${sent % OBJECTS}`, apiVersion: 'v1' }, 'Pouring', `event ${sent}`, 'Normal');
          sent++;
          await new Promise((r) => setTimeout(r, 1000 / EVENTS_PER_SECOND));
        }
      })();
      const closed: string[] = [];
      const moved: string[] = [];
      await watchFocus(page);
      // Opens a quick input, waits as a person reading it, and notes whether it closed by itself.
      const tryOnce = async (what: string, open: () => Promise<void>, title: string) => {
        // The focus in the tree, as after a click on a row; the top row is the newest. A click
        // opens a closed row, so they are all closed first, to keep the top row on screen.
        await v.titleButton('Collapse All');
        await v.select(v.level(1).first());
        const opened = Date.now();
        for (let attempt = 0; ; attempt++) {
          await open();
          if (await v.waitForQuickTitle(title, 10_000).then(() => true, () => false)) break;
          const log = await focusSince(page, opened);
          // Came and went before it was seen: closed by itself. Never came: the click that
          // opens it was lost (VS Code's "..." menu can close under it), so it is clicked again.
          if (log.includes('quick input shown') || attempt >= 2) {
            closed.push(`${what}; the focus went: ${log}`);
            return;
          }
          console.warn(`      (${what}: the click opened nothing; clicked again)`);
        }
        await page.waitForTimeout(SETTLE_MS);
        const shown = await v.labels(1);
        const sentWhenShown = sent;
        await page.waitForTimeout(READ_MS - SETTLE_MS);
        if (!(await v.quickInput().isVisible())) closed.push(`${what}; the focus went: ${await focusSince(page, opened)}`);
        else if (sent > sentWhenShown && (await v.labels(1)).join('\n') !== shown.join('\n')) moved.push(`${what} (${sent - sentWhenShown} events meanwhile)`);
        await page.keyboard.press('Escape');
        await v.quickInput().waitFor({ state: 'hidden', timeout: 10_000 });
      };
      try {
        await v.row(new RegExp(`^ConfigMap/pour-${stamp}-`)).waitFor({ timeout: 30_000 });
        for (let i = 1; i <= TRIES; i++) {
          await tryOnce(`Filter Events, try ${i}`, () => v.titleButton('Filter Events'), 'Filter Events (1/2)');
          await tryOnce(`Sort By, try ${i}`, () => v.moreAction('Sort By...'), 'Sort Objects By');
        }
      } finally {
        stop = true;
        await pour;
      }
      assert.ok(sent > TRIES * 2 * (READ_MS / 1000) * EVENTS_PER_SECOND * 0.5, `events kept coming while the quick inputs were open (${sent} sent)`);
      // The closures in the message's first line: a runner's summary keeps only that.
      assert.deepEqual(closed, [], `no quick input closed by itself, but ${closed.length} did: ${closed.join(' | ')}`);
      assert.deepEqual(moved, [], 'the rows stood still while a quick input was open, events arriving');
      // Closed, the tree shows what came meanwhile (the clicks opened rows: closed first, to see them all).
      await v.titleButton('Collapse All');
      await v.row(new RegExp(`^ConfigMap/pour-${stamp}-${(sent - 1) % OBJECTS}\\b`)).waitFor({ timeout: 30_000 });
    });
  });
});
