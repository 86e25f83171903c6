// The product as a newcomer meets it, in Chromium: the first run opens the Events view with
// the Get Started walkthrough beside it, each step ticked by doing it (a listed cluster, a
// crash loop diagnosed from its row's menu, the walkthrough's own Show Warnings Only button,
// the timeline from the "..." menu, an event recorded through the walkthrough's button); and
// the extension's page in the Extensions view shows its icon and the README, its pictures
// described by their alt text where VS Code refuses a path inside the .vsix.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { writeDemoWorkspace } from '../env/demoWorkspace';
import { repoRoot } from '../env/paths';
import { SEEDED } from '../env/seedCluster';
import { eventually, EventsViewPage } from './eventsViewPage';
import { openWorkbench, screenshot, type Workbench } from './support';

const NS = SEEDED.payments.namespace;
const WALKTHROUGH = 'Get Started with Kubernetes Events';

describe('the first run, in Chromium: the walkthrough, each step done by doing it', function () {
  this.timeout(300_000);
  let workbench: Workbench;
  let page: Page;
  let v: EventsViewPage;

  before(async () => {
    workbench = await openWorkbench('walkthrough', { settings: { 'kubernetesEvents.namespaces': [NS], 'kubernetesEvents.walkthrough.openOnFirstRun': true } });
    page = workbench.page;
    v = new EventsViewPage(page);
  });
  after(async () => {
    await workbench?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !page) return;
    await screenshot(page, `failed-walkthrough-${(this.currentTest.title ?? 'test').slice(0, 40).replace(/\W+/g, '-')}`);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  });

  const walkthrough = () => page.locator('.gettingStartedContainer');
  const step = (id: string) => walkthrough().locator(`button.getting-started-step[data-step-id$="#${id}"]`);
  const done = async (id: string) => (await step(id).getAttribute('aria-checked')) === 'true';
  /**
   * Brings the walkthrough back as a person does: its tab, or (a preview tab another editor
   * replaced) Welcome: Open Walkthrough... and ours picked.
   */
  async function showWalkthrough(): Promise<void> {
    const tab = page.locator('.editor-group-container .tab', { hasText: /^Welcome/ }).first();
    if (await tab.isVisible()) await tab.click();
    else {
      await v.runCommand('Welcome: Open Walkthrough...');
      await v.pick(WALKTHROUGH);
    }
    await walkthrough().waitFor({ timeout: 15_000 });
  }

  it('opens the Events view with the walkthrough beside it on the first run, its first step ticked once the cluster is listed', async () => {
    await v.open();
    await walkthrough().waitFor({ timeout: 60_000 });
    await eventually('the walkthrough\'s title', async () => (await walkthrough().innerText()).includes(WALKTHROUGH));
    const titles = (await walkthrough().locator('button.getting-started-step .step-title').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(titles, ['Connect a cluster', 'Read a crash loop', 'Show warnings only', 'Open the timeline', 'Record an event']);
    assert.ok(await page.locator('.part.sidebar').isVisible(), 'the Events view is open');
    await v.row(new RegExp(`^Pod/${SEEDED.payments.crashLoop}-`)).waitFor({ timeout: 120_000 });
    await eventually('"Connect a cluster" ticked', () => done('connect'), 30_000);
    for (const id of ['crashLoop', 'warningsOnly', 'timeline', 'record']) assert.equal(await done(id), false, `${id} is not done before it is done`);
    await screenshot(page, 'walkthrough-1-first-run');
  });

  it('ticks "Read a crash loop" when a crash-looping pod is diagnosed from its row\'s menu', async () => {
    const pods = v.objectRows().filter({ hasText: new RegExp(`^Pod/${SEEDED.payments.crashLoop}-`) });
    let crashing = pods.first();
    await eventually('a checkout pod with BackOff warnings', async () => {
      for (const row of await pods.all()) if (/^[1-9]\d*$/.test(await v.badge(row))) return ((crashing = row), true);
      return false;
    }, 120_000);
    const diagnoseTab = page.locator('.editor-group-container .tab', { hasText: /^Diagnose/ }).first();
    await v.rowMenu(crashing, 'Diagnose', () => diagnoseTab.isVisible());
    await showWalkthrough();
    await eventually('"Read a crash loop" ticked', () => done('crashLoop'));
  });

  it('ticks "Show warnings only" when its own button in the walkthrough is clicked, and the view shows warnings only', async () => {
    await step('warningsOnly').click();
    await walkthrough().getByRole('button', { name: 'Show Warnings Only', exact: true }).click();
    await eventually('the filter in the view\'s header', async () => /Warning/.test(await v.header()));
    await eventually('"Show warnings only" ticked', () => done('warningsOnly'));
  });

  it('ticks "Open the timeline" when the timeline is opened from the view\'s "..." menu', async () => {
    await v.moreAction('Show Timeline');
    await page.locator('.editor-group-container .tab', { hasText: 'Events Timeline' }).first().waitFor({ timeout: 30_000 });
    await showWalkthrough();
    await eventually('"Open the timeline" ticked', () => done('timeline'));
  });

  it('ticks "Record an event" only once an event is recorded through its button, not when the input is left', async () => {
    await step('record').click();
    const record = walkthrough().getByRole('button', { name: 'Record Event...', exact: true });
    await record.click();
    await v.waitForQuickTitle('Record Event (1/8)');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1000);
    assert.equal(await done('record'), false, 'leaving the input records nothing');
    await record.click();
    await v.waitForQuickTitle('Record Event (1/8)');
    await v.type('Deployment');
    await v.pick('Deployment');
    await v.waitForQuickTitle('Record Event (2/8)');
    await v.type(SEEDED.payments.crashLoop);
    await v.pickWith(SEEDED.payments.crashLoop, NS);
    await v.waitForQuickTitle('Record Event (3/8)');
    await v.pick('Normal');
    await v.waitForQuickTitle('Record Event (4/8)');
    await v.type('WalkthroughDone');
    await v.accept();
    await v.waitForQuickTitle('Record Event (5/8)');
    await v.type('recorded from the walkthrough: 漢字 🚀');
    await v.accept();
    await v.waitForQuickTitle('Record Event (6/8)');
    await v.pick('events.k8s.io/v1');
    await v.waitForQuickTitle('Record Event (7/8)');
    await v.type('Walkthrough');
    await v.accept();
    await v.waitForQuickTitle('Record Event (8/8)');
    await v.accept();
    await v.notification(/Recorded Normal WalkthroughDone \(events\.k8s\.io\/v1, action Walkthrough\) on Deployment\/checkout/).waitFor({ timeout: 30_000 });
    await eventually('"Record an event" ticked', () => done('record'));
    for (const id of ['connect', 'crashLoop', 'warningsOnly', 'timeline']) assert.equal(await done(id), true, `${id} is still ticked`);
    await screenshot(page, 'walkthrough-2-all-done');
  });
});

describe('npm start\'s first run, in Chromium, and the extension\'s page a newcomer opens next', function () {
  this.timeout(240_000);
  let workbench: Workbench;
  let page: Page;

  after(async () => {
    await workbench?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && page) await screenshot(page, `failed-start-${(this.currentTest.title ?? 'test').slice(0, 40).replace(/\W+/g, '-')}`);
  });

  it('lands on the Events view with the walkthrough beside it, nothing clicked, in the workspace of manifests npm start opens on the local cluster', async () => {
    workbench = await openWorkbench('start', { settings: { 'kubernetesEvents.walkthrough.openOnFirstRun': true }, prepareWorkspace: writeDemoWorkspace });
    page = workbench.page;
    const v = new EventsViewPage(page);
    await page.locator('.gettingStartedContainer', { hasText: WALKTHROUGH }).waitFor({ timeout: 60_000 });
    await v.row(new RegExp(`^Pod/${SEEDED.payments.crashLoop}-`)).waitFor({ timeout: 60_000 });
    assert.match(await page.locator('.part.sidebar .title-label').first().innerText(), /Kubernetes Events/i);
    await screenshot(page, 'start-1-first-run');
  });

  it('shows the icon, the Preview badge and the README, each picture loaded or, where VS Code refuses its path, described by its alt text', async () => {
    assert.ok(page, 'the workbench npm start opens is open (the test before)');
    const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const pictures = [...readme.matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g)].map((m) => ({ alt: m[1], src: m[2] }));
    assert.ok(pictures.length >= 3, `the README has its pictures (${pictures.length})`);
    // The Extensions view from the activity bar, as a person opens it: installed extensions first.
    await page.getByRole('tab', { name: /^Extensions/ }).click();
    const item = page.locator('.extensions-viewlet .monaco-list-row', { hasText: 'Kubernetes Events' }).first();
    await item.waitFor({ timeout: 30_000 });
    await item.click();
    const editor = page.locator('.extension-editor');
    await editor.waitFor({ timeout: 30_000 });
    await eventually('the icon loaded', async () => editor.locator('.header img.icon').evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth >= 128));
    await eventually('the Preview badge', async () => /Preview/i.test(await editor.locator('.header').innerText()));
    // VS Code lays a webview's iframe over the editor, outside the editor's own elements.
    const body = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');
    await body.locator('h1').first().waitFor({ timeout: 30_000 });
    assert.equal((await body.locator('h1').first().innerText()).trim(), 'Kubernetes Events');
    let shown: { alt: string; src: string; loaded: boolean }[] = [];
    await eventually('every picture of the README on the page', async () => {
      shown = await body.locator('img').evaluateAll((imgs) => imgs.map((i) => ({ alt: (i as HTMLImageElement).alt, src: (i as HTMLImageElement).getAttribute('src') ?? '', loaded: (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0 })));
      return shown.length === pictures.length && shown.every((s) => s.loaded || s.src === '');
    }, 30_000).catch(() => undefined);
    assert.deepEqual(shown.map((s) => s.alt), pictures.map((p) => p.alt), 'each picture in its place, with its alt text');
    // The extension page's sanitizer keeps only http(s) image sources (relative paths and
    // data: go), so a picture shipped in the .vsix shows as its alt text there: it must say
    // what the picture shows. Any picture it does keep must load.
    for (const s of shown) {
      assert.ok(s.loaded || s.src === '', `${s.alt}: kept as ${s.src} but not loaded`);
      assert.ok(s.alt.length >= 30, `the picture's alt text says what it shows: "${s.alt}"`);
    }
    await screenshot(page, 'extension-page-readme');
  });
});
