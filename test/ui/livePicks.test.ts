// Quick inputs opened from the view while events pour in, in Chromium. VS Code gives the focus
// back to a tree view that had it whenever one of its refreshes completes, and a quick input
// that loses the focus closes: before the tree held its redraws while one of ours was open,
// Filter Events pressed after a click on a row closed by itself as it came, now and then, in
// a busy namespace (two CI runs lost a test to it; this test saw 1 in 16 close). A closure's
// message says where the focus went meanwhile, with the stack of each focus() call.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { CoreV1Api } from '@kubernetes/client-node';
import { adminKubeConfig, createEvent } from './cluster';
import type { EventsViewPage } from './eventsViewPage';
import { useEventsView } from './support';

const NS = 'ui-live-picks';
/** New events a second while the quick inputs are opened: each a new row at the top. */
const EVENTS_PER_SECOND = 20;
/** The objects they are on. */
const OBJECTS = 6;
/** Times each quick input is opened (KEV_LIVE_PICKS_TRIES to measure a rate); a person reads it for READ_MS before answering. */
const TRIES = Number(process.env.KEV_LIVE_PICKS_TRIES ?? 12);
const READ_MS = 1_500;

describe('quick inputs while events pour in, in Chromium', function () {
  this.timeout(60_000 + TRIES * 2 * 10_000);
  const suite = useEventsView('live-picks', NS);
  let page: Page;
  let v: EventsViewPage;
  before(() => ({ page, v } = suite));
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
      await page.waitForTimeout(READ_MS);
      if (!(await v.quickInput().isVisible())) closed.push(`${what}; the focus went: ${await focusSince(page, opened)}`);
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
    // Closed, the tree shows what came meanwhile (the clicks opened rows: closed first, to see them all).
    await v.titleButton('Collapse All');
    await v.row(new RegExp(`^ConfigMap/pour-${stamp}-${(sent - 1) % OBJECTS}\\b`)).waitFor({ timeout: 30_000 });
  });
});

/** Notes, in the page, where the focus goes and when the quick input shows or hides. */
async function watchFocus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { kevFocus: [number, string][] };
    w.kevFocus = [];
    const name = (el: Element | null) => {
      if (!el) return 'nothing';
      const part = el.closest('[id^="workbench.parts"], .quick-input-widget, .monaco-menu-container, .context-view, .monaco-hover');
      return `${el.tagName.toLowerCase()}.${String(el.className).split(' ').slice(0, 2).join('.')} in ${part ? part.id || String(part.className).split(' ')[0] : 'page'}`;
    };
    // Each focus() outside the quick input is noted with its caller, then goes on as before.
    const focus = (Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'focus') as PropertyDescriptor).value as (this: HTMLElement, o?: FocusOptions) => void;
    HTMLElement.prototype.focus = function (this: HTMLElement, ...args: [FocusOptions?]) {
      if (!this.closest('.quick-input-widget')) w.kevFocus.push([Date.now(), `focus() on ${name(this)} from ${(new Error().stack ?? '').split('\n').slice(2, 12).map((l) => l.trim().replace(/\(.*\)/, '').replace(/^at /, '')).join(' < ')}`]);
      return focus.apply(this, args);
    };
    document.addEventListener('focusin', (e) => w.kevFocus.push([Date.now(), `focus ${name(e.target as Element)}`]), true);
    // The widget is made when the first quick input opens: looked for each time.
    let shown = false;
    setInterval(() => {
      const widget = document.querySelector<HTMLElement>('.quick-input-widget');
      const now = !!widget && widget.style.display !== 'none' && widget.offsetParent !== null;
      if (now !== shown) w.kevFocus.push([Date.now(), `quick input ${now ? 'shown' : 'hidden'}`]);
      shown = now;
    }, 20);
  });
}

async function focusSince(page: Page, since: number): Promise<string> {
  const log = await page.evaluate(() => (window as unknown as { kevFocus: [number, string][] }).kevFocus);
  return log.filter(([t]) => t >= since - 200).map(([t, what]) => `+${t - since} ms ${what}`).join(', ');
}
