// The timeline panel used as a person uses it, in Chromium: opened from the Events view's
// "..." menu and from an object row's menu, looked at in the dark and the light theme,
// a hostile event's mark hovered (its details are text, nothing in them is a link),
// clicked (the event is selected in the tree), reached by keyboard, an event arriving
// while it is open, the view's filter followed, and a window reload that brings it back. Screenshots in test-results/screenshots/.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createEvent, seedWorkload } from './cluster';
import { eventually, EventsViewPage, TREE } from './eventsViewPage';
import { openWorkbench, screenshot, type Workbench } from './support';
import { TimelinePage } from './timelinePage';

const NS = 'ui-timeline';
const HOSTILE = 'renew at https://evil.example/renew?token=abc or www.evil.example [run](command:workbench.action.closeWindow) <img src=x onerror=alert(1)> <a href="https://evil.example">here</a> **bold** $(zap)\n\nsecond paragraph after a blank line';
const WARNING = '--vscode-list-warningForeground';
const NORMAL = '--vscode-charts-blue';

describe('the timeline panel, in Chromium', function () {
  this.timeout(240_000);
  let workbench: Workbench;
  let page: Page;
  let v: EventsViewPage;
  let t: TimelinePage;
  const stamp = Date.now().toString(36);
  const secret = `tls-${stamp}`;

  before(async () => {
    await seedWorkload(NS);
    await createEvent(NS, `hostile.${stamp}`, { kind: 'Secret', name: secret, apiVersion: 'v1' }, 'CertExpiring', HOSTILE);
    workbench = await openWorkbench('timeline');
    page = workbench.page;
    v = new EventsViewPage(page);
    t = new TimelinePage(page);
    await v.open();
    await v.row(/^Deployment\/web$/).waitFor({ timeout: 90_000 });
    await v.row(`Secret/${secret}`).waitFor({ timeout: 30_000 });
  });
  after(async () => {
    await workbench?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      await screenshot(page, `failed-timeline-${(this.currentTest.title ?? 'test').slice(0, 40).replace(/\W+/g, '-')}`);
      for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
    }
  });

  const setTheme = (name: string) => v.setTheme(name, name.includes('Light') ? 'vs' : 'vs-dark');

  it('opens from the view\'s "..." menu with every object\'s lanes under a strict content security policy, and reads well in the dark and the light theme', async () => {
    await v.select(v.row(/^Deployment\/web$/));
    await v.moreAction('Show Timeline');
    await t.tab('Events Timeline').waitFor({ timeout: 30_000 });
    await eventually('lanes in the timeline', async () => (await t.counts()).lanes >= 4);
    assert.equal(await t.scope(), 'All objects');
    const csp = (await t.frame().locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
    // style-src is the webview's own cspSource: 'self' and VS Code's resource origin, which
    // serves the extension's files (never a remote site).
    const m = /^default-src 'none'; style-src ([^;]+); script-src 'nonce-[A-Za-z0-9+/=]{24}'; base-uri 'none'; form-action 'none'$/.exec(csp);
    assert.ok(m, csp);
    for (const source of m[1].split(' ')) assert.match(source, /^'self'$|^https:\/\/\*\.vscode-cdn\.net$|^vscode-webview-resource:/, `style-src ${source}`);
    assert.doesNotMatch(csp.replace(m[1], ''), /unsafe|https?:|\*/, 'no inline code, no remote source');
    // VS Code adds an inline script of its own (acquireVsCodeApi) to the frame; ours is the one file.
    const scripts = (await t.frame().locator('script').evaluateAll((s) => s.map((e) => (e as HTMLScriptElement).src))).filter(Boolean);
    assert.equal(scripts.length, 1, scripts.join(' '));
    assert.match(scripts[0], /\/media\/timeline\/timeline\.js$/);
    await eventually('warning marks drawn', async () => (await t.marks(WARNING)).length > 0);
    // The workbench starts in its default theme: the test picks each.
    await setTheme('Dark Modern');
    await eventually('warning marks drawn in the dark theme', async () => (await t.marks(WARNING)).length > 0);
    await screenshot(page, 'timeline-1-all-objects-dark');
    // The canvas as the screen shows it, its mean brightness (0-255): dark on dark, light on light.
    const brightness = async () => {
      const png = (await t.frame().locator('#canvas').screenshot()).toString('base64');
      return page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const ctx = c.getContext('2d') as CanvasRenderingContext2D;
        ctx.drawImage(img, 0, 0);
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        let sum = 0;
        for (let i = 0; i < d.length; i += 4) sum += d[i] + d[i + 1] + d[i + 2];
        return sum / (d.length / 4) / 3;
      }, png);
    };
    await eventually('a dark canvas in the dark theme', async () => (await brightness()) < 100);

    await setTheme('Light Modern');
    await eventually('the canvas repainted in the light theme', async () => (await brightness()) > 160);
    await screenshot(page, 'timeline-2-all-objects-light');
    await setTheme('Dark Modern');
  });

  it('shows a hostile event\'s details as exact text when its mark is hovered: nothing is a link, clicking where one would be does nothing', async () => {
    await v.rowMenu(v.row(`Secret/${secret}`), 'Show Timeline for This Object', () => t.tab(`Timeline: Secret/${secret}`).isVisible());
    await eventually('the object\'s lane', async () => (await t.scope()) === `Secret/${secret} in ${NS}` && (await t.counts()).events === 1);
    let marks: Awaited<ReturnType<TimelinePage['marks']>> = [];
    await eventually('its mark', async () => (marks = await t.marks(WARNING)).length === 1);
    const hover = await t.hover(marks[0]);
    assert.match(hover.text, /^Warning CertExpiring\nObject: Secret\/tls-/);
    assert.ok(hover.text.endsWith(`\n\n${HOSTILE}`), `the message exactly, blank line kept:\n${hover.text}`);
    assert.equal(hover.links, 0, `no link or image in the tooltip: ${hover.html}`);
    assert.doesNotMatch(hover.html, /<(?!\/?div)[a-z]/i, 'the tooltip holds text only');
    assert.equal(await t.frame().locator('a, img, iframe').count(), 0, 'no element came from the event anywhere in the panel');
    await screenshot(page, 'timeline-3-hostile-hover');
    const pages = page.context().pages().length;
    const tip = await t.frame().locator('#tooltip').boundingBox();
    assert.ok(tip);
    await page.mouse.click(tip.x + tip.width / 2, tip.y + tip.height / 2);
    await page.waitForTimeout(1000);
    assert.equal(page.context().pages().length, pages, 'no page opened');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no "open external link" dialog');
  });

  it('reveals and selects the event in the tree when its mark is clicked, and by keyboard with Enter', async () => {
    const marks = await t.marks(WARNING);
    assert.equal(marks.length, 1);
    await page.mouse.click(marks[0].x, marks[0].y);
    const selected = page.locator(`${TREE} .monaco-list-row[aria-selected="true"]`);
    await eventually('the event selected in the tree', async () => /CertExpiring: renew at https:\/\/evil\.example/.test((await selected.innerText().catch(() => '')) ?? ''));
    assert.equal(await selected.getAttribute('aria-level'), '2', 'the event row, under its object');
    await screenshot(page, 'timeline-4-click-reveals');

    // The keyboard: focus the canvas, the cursor goes to a mark, Enter reveals it.
    await v.select(v.row(/^Deployment\/web$/));
    await t.tab(`Timeline: Secret/${secret}`).click();
    await t.frame().locator('#canvas').focus();
    await page.keyboard.press('End');
    await eventually('the cursor described', async () => /^Secret\/tls-\S+: Warning at /.test((await t.frame().locator('#cursor').textContent()) ?? ''));
    await page.keyboard.press('Enter');
    await eventually('the event selected again', async () => /CertExpiring/.test((await selected.innerText().catch(() => '')) ?? ''));
  });

  it('draws an event that arrives while it is open, without reopening', async () => {
    await t.tab(`Timeline: Secret/${secret}`).click();
    const before = await t.counts();
    await createEvent(NS, `renewed.${stamp}`, { kind: 'Secret', name: secret, apiVersion: 'v1' }, 'CertRenewed', 'renewed by the ui test', 'Normal');
    await eventually('the new event counted', async () => (await t.counts()).events === before.events + 1);
    await eventually('its mark drawn in the normal colour', async () => (await t.marks(NORMAL)).length === 1);
    assert.equal((await t.marks(WARNING)).length, 1, 'the warning is still there');
    await screenshot(page, 'timeline-5-live-event');
  });

  it('applies the view\'s filter and follows it as it changes', async () => {
    await v.select(v.row(/^Deployment\/web$/));
    await v.moreAction('Show Timeline');
    await eventually('every object', async () => (await t.scope()) === 'All objects');
    await eventually('normal marks', async () => (await t.marks(NORMAL)).length > 0);
    const all = await t.counts();
    await v.titleButton('Show Warnings Only');
    await eventually('the filter in the panel', async () => (await t.filter()) === 'Filter: Warning');
    await eventually('warnings only', async () => {
      const c = await t.counts();
      return c.events > 0 && c.events < all.events && (await t.marks(NORMAL)).length === 0 && (await t.marks(WARNING)).length > 0;
    });
    await screenshot(page, 'timeline-6-warnings-only');
    await v.titleButton('Show All Event Types');
    await eventually('every type again', async () => (await t.filter()) === '' && (await t.counts()).events >= all.events && (await t.marks(NORMAL)).length > 0);
  });

  it('comes back after a window reload, on the object it showed, and still draws', async () => {
    // The earlier tests left the Secret's row open (its event revealed), so it may stick to
    // the top of the view under the title: closed again, it is a plain row to right-click.
    await v.titleButton('Collapse All');
    await v.rowMenu(v.row(`Secret/${secret}`), 'Show Timeline for This Object', () => t.tab(`Timeline: Secret/${secret}`).isVisible());
    await eventually('the object\'s lane', async () => (await t.scope()) === `Secret/${secret} in ${NS}`);
    await page.keyboard.press('F1');
    await v.type('>Developer: Reload Window');
    await v.pick('Developer: Reload Window');
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
    await t.tab(`Timeline: Secret/${secret}`).waitFor({ timeout: 60_000 });
    await t.tab(`Timeline: Secret/${secret}`).click();
    await eventually('the same scope after the reload', async () => (await t.scope().catch(() => '')) === `Secret/${secret} in ${NS}`, 90_000);
    await eventually('its marks drawn again', async () => (await t.marks(WARNING).catch(() => [])).length === 1 && (await t.marks(NORMAL).catch(() => [])).length === 1, 90_000);
    await screenshot(page, 'timeline-7-after-reload');
  });
});
