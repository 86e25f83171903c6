// The manifests a person edits, in Chromium, on the KWOK cluster: applied with
// `kubectl apply -f` (a crash-looping Deployment) and `kubectl apply -k` (a kustomize base
// and an overlay with a namePrefix), then opened from Quick Open. The Problems panel, the
// CodeLens, the hover and the Explorer are read as drawn; a Helm template, invalid YAML and a
// 10 MB file are opened beside them; hostile event text is looked at everywhere it shows.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from '../env/paths';
import { CRASH_LABEL, KWOK_NODE_KEY } from '../env/kwokStages';
import { adminKubeConfig, controlPlane, createEvent } from './cluster';
import { eventually, EventsViewPage } from './eventsViewPage';
import { openWorkbench, screenshot, type Workbench } from './support';
import { TimelinePage } from './timelinePage';

const NS = 'ui-manifests';
const HOSTILE = 'Line one\nline two [click me](command:workbench.action.openSettings) <img src=x onerror=alert(1)> **bold** https://evil.example/\u202eevil\u001b[31m';
const CART = `# The cart service. On the local cluster its container exits a few seconds after it starts.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: cart
  namespace: ${NS}
spec:
  replicas: 1
  selector:
    matchLabels: {app: cart}
  template:
    metadata:
      labels: {app: cart, ${CRASH_LABEL}: cart}
    spec:
      tolerations: [{key: ${KWOK_NODE_KEY}, operator: Exists, effect: NoSchedule}]
      containers:
      - name: cart
        image: ghcr.io/acme-shop/cart:1.0.3
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: cart-notes
  namespace: ${NS}
data:
  note: events about this one are written by anyone
`;
const FILES: Record<string, string> = {
  'deploy/cart.yaml': CART,
  'kustomize/base/kustomization.yaml': 'resources:\n- api.yaml\n',
  // No toleration: the scheduler finds no node for its pods (FailedScheduling).
  'kustomize/base/api.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec:\n      containers: [{name: api, image: ghcr.io/acme-shop/api:2.0.0}]\n',
  'kustomize/overlays/staging/kustomization.yaml': `resources:\n- ../../base\nnamespace: ${NS}\nnamePrefix: staging-\n`,
  'chart/Chart.yaml': 'apiVersion: v2\nname: cart\nversion: 0.1.0\n',
  'chart/templates/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ include "cart.fullname" . }}\n  labels:\n    {{- include "cart.labels" . | nindent 4 }}\n',
  'broken.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n  namespace: x\n',
};

describe('manifests in the editor (Problems, CodeLens, hover, Explorer)', function () {
  this.timeout(420_000);
  let workbench: Workbench;
  let page: Page;
  let v: EventsViewPage;
  let context = '';
  const workspace = path.join(repoRoot, '.run', 'ui-manifests', 'workspace');

  before(async () => {
    workbench = await openWorkbench('manifests', { settings: { 'kubernetesEvents.namespaces': [NS] } });
    page = workbench.page;
    v = new EventsViewPage(page);
    context = adminKubeConfig().getCurrentContext();
    for (const [file, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
      fs.writeFileSync(path.join(workspace, file), text);
    }
    // 10 MB of real YAML: a ConfigMap holding a large bundle.
    const line = `  line-${'x'.repeat(90)}: "${'y'.repeat(100)}"\n`;
    fs.writeFileSync(path.join(workspace, 'big.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n${line.repeat(Math.ceil(10_000_000 / line.length)).replace(/line-x+/g, (m, i: number) => `${m}${i}`)}`);
    const plane = controlPlane();
    try {
      plane.kubectl(['create', 'namespace', NS]);
    } catch {
      /* left by an earlier run */
    }
    plane.kubectl(['apply', '-f', path.join(workspace, 'deploy', 'cart.yaml')]);
    plane.kubectl(['apply', '-k', path.join(workspace, 'kustomize', 'overlays', 'staging')]);
    const uid = plane.kubectl(['get', 'configmap', 'cart-notes', '-n', NS, '-o', 'jsonpath={.metadata.uid}']).trim();
    await createEvent(NS, `cart-notes.${Date.now().toString(36)}`, { kind: 'ConfigMap', name: 'cart-notes', apiVersion: 'v1', uid }, 'Hostile', HOSTILE);
    await v.open();
  });
  after(async () => {
    await workbench?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !page) return;
    await screenshot(page, `failed-manifests-${(this.currentTest.title ?? 'test').slice(0, 40).replace(/\W+/g, '-')}`);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  });

  /** Quick Open (Ctrl+P), the file's name, Enter: the editor shows it. */
  async function openFile(relative: string): Promise<void> {
    await page.keyboard.press('Control+P');
    // Quick Open, not a hidden Go to Line left from an earlier test.
    await page.locator('.quick-input-widget:visible input').waitFor({ timeout: 10_000 });
    await v.type(relative);
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: path.basename(relative) }).filter({ hasText: path.dirname(relative) === '.' ? '' : path.dirname(relative) }).first();
    await pick.waitFor({ timeout: 15_000 });
    await pick.click();
    await page.locator('.tabs-container .tab.active', { hasText: path.basename(relative) }).waitFor({ timeout: 30_000 });
  }

  const editor = () => page.locator('.part.editor .editor-instance .monaco-editor').first();
  const lenses = () => editor().locator('.codelens-decoration');
  const lineOf = (text: string) => editor().locator('.view-line', { hasText: text }).first();

  async function lensTexts(): Promise<string[]> {
    return (await lenses().allInnerTexts()).map((t) => t.trim());
  }

  /** The lens drawn just above a line (lenses are not in line order in the page). */
  async function lensAbove(text: string): Promise<Locator | undefined> {
    const line = await lineOf(text).boundingBox();
    if (!line) return undefined;
    let best: { lens: Locator; y: number } | undefined;
    for (const lens of await lenses().all()) {
      const box = await lens.boundingBox();
      if (box && box.y < line.y && (!best || box.y > best.y)) best = { lens, y: box.y };
    }
    return best?.lens;
  }

  /** The commands of the lens line above a line, as drawn: VS Code puts " | " between them. */
  async function lensCommandsAbove(text: string): Promise<string[]> {
    const drawn = ((await (await lensAbove(text))?.innerText()) ?? '').trim();
    return drawn ? drawn.split(/\s\|\s/).map((t) => t.trim()) : [];
  }

  /** The first of them: the counts (Diagnose follows it for an object the cluster has). */
  async function lensTextAbove(text: string): Promise<string> {
    return (await lensCommandsAbove(text))[0] ?? '';
  }

  const DEPLOYMENT = 'apiVersion: apps/v1';

  /** Rests the pointer on a line of the editor until a hover comes that matches. */
  async function hoverLine(text: string, of: RegExp): Promise<{ text: string; links: number; html: string }> {
    const hover = page.locator('.monaco-hover:visible .hover-contents').last();
    for (let attempt = 0; attempt < 6; attempt++) {
      const box = await lineOf(text).boundingBox();
      if (!box) throw new Error(`no line "${text}" on screen`);
      await page.mouse.move(box.x + 20 + attempt * 6, box.y - 40);
      await page.mouse.move(box.x + 20 + attempt * 6, box.y + box.height / 2, { steps: 4 });
      try {
        await hover.waitFor({ timeout: 5_000 });
        const seen = await hover.innerText();
        if (of.test(seen)) return { text: seen, links: await hover.locator('a, [href], [data-href], img').count(), html: await hover.innerHTML() };
      } catch {
        /* no hover yet: point again */
      }
      await page.mouse.move(1, 1);
    }
    throw new Error(`no hover matching ${of} on "${text}"`);
  }

  const problemRows = () => page.locator('.markers-panel .monaco-list-row');

  async function showProblems(): Promise<void> {
    if (!(await page.locator('.markers-panel').isVisible())) await page.keyboard.press('Control+Shift+M');
    await page.locator('.markers-panel').waitFor({ timeout: 15_000 });
  }

  it("shows the crash-looping Deployment's BackOff in the Problems panel, on its name's line", async () => {
    await openFile('deploy/cart.yaml');
    await eventually('the lens counting warnings above Deployment/cart', async () => /^[1-9]\d* warnings? · \d+ events? · \S+ ago$/.test(await lensTextAbove(DEPLOYMENT)), 180_000);
    await eventually('Diagnose beside the counts', async () => (await lensCommandsAbove(DEPLOYMENT))[1] === 'Diagnose');
    await showProblems();
    const backOff = problemRows().filter({ hasText: 'BackOff' }).first();
    await backOff.waitFor({ timeout: 60_000 });
    const text = await backOff.innerText();
    assert.match(text, /BackOff x?\d* ?\(last \S+\) on Pod\/cart-[a-z0-9]+-[a-z0-9]+: Back-off restarting failed container cart in pod cart-/);
    assert.ok(text.includes(`Kubernetes Events (${context})`), `the source names the context: ${text}`);
    assert.match(text, /\[Ln 5, Col 9\]/, 'on the value of metadata.name');
    await screenshot(page, 'manifests-1-problems');
  });

  it("reveals the Deployment's events, its pods' with them, when its lens is clicked", async () => {
    // Clicked where it is drawn, as a person does: VS Code draws the lenses again as their
    // counts change, in another order in the page, so the nth lens found may be another's.
    const box = await (await lensAbove(DEPLOYMENT))?.locator('a').first().boundingBox();
    assert.ok(box, 'a lens above the Deployment');
    await page.mouse.click(box.x + Math.min(20, box.width / 2), box.y + box.height / 2);
    // The view's title says the filter (VS Code title-cases it and may cut it short).
    await eventually('the view narrowed to the Deployment and what it owns', async () => /deployment\/cart and/i.test(await v.header()));
    const labels = await v.stableLabels(1);
    assert.ok(labels.some((l) => /^Pod\/cart-/.test(l)), `the pods are shown: ${labels.join(' | ')}`);
    assert.ok(labels.every((l) => /^(Pod|ReplicaSet|Deployment)\/cart/.test(l)), `only cart's objects: ${labels.join(' | ')}`);
    await screenshot(page, 'manifests-2-lens-reveals');
    await v.runCommand('Kubernetes Events: Clear Filters');
  });

  it("offers Show Events and Show Timeline as the Problems entry's quick fixes; the timeline opens on the crash-looping pod", async () => {
    await openFile('deploy/cart.yaml');
    await page.keyboard.press('Control+G');
    await v.type(':5:9');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+.');
    const fixes = page.locator('.action-widget .monaco-list-row');
    await fixes.first().waitFor({ timeout: 15_000 });
    const labels = (await fixes.allInnerTexts()).map((t) => t.trim());
    assert.ok(labels.includes('Show Events for Deployment/cart'), labels.join(' | '));
    assert.ok(labels.some((l) => /^Show Timeline for Pod\/cart-[a-z0-9]+-[a-z0-9]+$/.test(l)), labels.join(' | '));
    await fixes.filter({ hasText: /^Show Timeline for Pod\/cart-/ }).first().click();
    const timeline = new TimelinePage(page);
    await timeline.tab(/^Timeline: Pod\/cart-/).waitFor({ timeout: 30_000 });
    await eventually('the pod\'s BackOff on the timeline', async () => (await timeline.counts()).warnings > 0);
    await screenshot(page, 'manifests-6-quick-fix-timeline');
    await timeline.close(/^Timeline: Pod\/cart-/);
  });

  it('shows the newest events as plain text when the pointer rests on the resource header', async () => {
    await openFile('deploy/cart.yaml');
    const hover = await hoverLine('kind: Deployment', /LAST SEEN/);
    assert.match(hover.text, new RegExp(`Deployment/cart in ${NS} · ${context.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · \\d+ warnings? · \\d+ events?`));
    assert.match(hover.text, /Warning\s+BackOff\s+Pod\/cart-/);
    assert.equal(hover.links, 0);
    await screenshot(page, 'manifests-3-hover');
    await page.mouse.move(1, 1);
  });

  it('badges the manifest and its folder in the Explorer', async () => {
    await page.keyboard.press('Control+Shift+E');
    const tree = page.locator('.explorer-folders-view');
    await tree.waitFor({ timeout: 15_000 });
    const row = (name: string) => tree.locator('.monaco-list-row', { hasText: new RegExp(`^${name}$`) }).first();
    await row('deploy').waitFor({ timeout: 15_000 });
    if ((await row('deploy').getAttribute('aria-expanded')) !== 'true') await row('deploy').click();
    await row('cart.yaml').waitFor({ timeout: 15_000 });
    // The Problems panel's own decoration counts the warnings; ours adds no second badge.
    await eventually('one warning badge on cart.yaml', async () => /^[1-9]\d*$/.test(await v.badge(row('cart.yaml'))));
    const colour = (r: Locator) => r.locator('.label-name').first().evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color);
    assert.notEqual(await colour(row('deploy')), await colour(row('chart')), 'the folder takes the warning colour');
    await screenshot(page, 'manifests-4-explorer');
    // With the Problems surface off (settings.json edited, as a user does), the badge is ours.
    const settingsFile = path.join(workspace, '.vscode', 'settings.json');
    const before = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : '{}';
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(settingsFile, JSON.stringify({ ...(JSON.parse(before) as object), 'kubernetesEvents.manifests.problems': false }, null, 2));
    try {
      await showProblems();
      await eventually('the BackOff gone from the Problems panel', async () => (await problemRows().filter({ hasText: 'BackOff' }).count()) === 0);
      await eventually('our badge on cart.yaml', async () => /^[1-9]\d*$/.test(await v.badge(row('cart.yaml'))));
    } finally {
      fs.writeFileSync(settingsFile, before);
    }
    await showProblems();
    await problemRows().filter({ hasText: 'BackOff' }).first().waitFor({ timeout: 30_000 });
  });

  it("maps the kustomize base to the object the overlay's namePrefix named, with its pods' scheduling warnings", async () => {
    await openFile('kustomize/base/api.yaml');
    await eventually('the lens above the base Deployment', async () => /^[1-9]\d* warnings? · /.test(await lensTextAbove(DEPLOYMENT)), 120_000);
    await showProblems();
    const failed = problemRows().filter({ hasText: /FailedScheduling .*on Pod\/staging-api-/ }).first();
    await failed.waitFor({ timeout: 60_000 });
  });

  it('turns the lens to "not in" the context when the object is renamed in the editor', async () => {
    await openFile('deploy/cart.yaml');
    // Go to Line 5, column 9 (the name), select to the end of the line and type over it.
    await page.keyboard.press('Control+G');
    await v.type(':5:9');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+End');
    await page.keyboard.type('cart-renamed');
    await eventually(`the lens saying not in ${context}, and no Diagnose`, async () => JSON.stringify(await lensCommandsAbove(DEPLOYMENT)) === JSON.stringify([`not in ${context}`]), 30_000);
    await screenshot(page, 'manifests-5-renamed');
    await page.keyboard.press('Control+Z');
    await eventually('the lens counting again', async () => /warnings? · /.test(await lensTextAbove(DEPLOYMENT)), 30_000);
  });

  it('opens a Helm template, invalid YAML and a 10 MB file with nothing thrown, no lens and no popup', async () => {
    for (const file of ['chart/templates/deployment.yaml', 'broken.yaml', 'big.yaml']) {
      await openFile(file);
      await lineOf('apiVersion').waitFor({ timeout: 30_000 });
      assert.deepEqual(await lensTexts(), [], `${file} has no lens`);
    }
    const toasts = await page.locator('.notifications-toasts .notification-toast').allInnerTexts();
    assert.deepEqual(toasts.filter((t) => /Kubernetes Events|manifest/i.test(t)), []);
    // The editor still answers: the cart's lens is back at once.
    await openFile('deploy/cart.yaml');
    await eventually('the lens above cart', async () => /warnings? · /.test(await lensTextAbove(DEPLOYMENT)), 15_000);
  });

  it('keeps hostile event text inert in the Problems panel and the hover', async () => {
    await showProblems();
    const row = problemRows().filter({ hasText: 'Hostile' }).first();
    await row.waitFor({ timeout: 30_000 });
    const text = await row.innerText();
    assert.ok(text.includes('Line one line two [click me](command:workbench.action.openSettings) <img src=x onerror=alert(1)> **bold** https://evil.example/\\u202eevil^[[31m'), text);
    assert.equal(await row.locator('a[href], [data-href], .monaco-link, img').count(), 0, 'nothing in the entry is a link or an image');
    const hover = await hoverLine('name: cart-notes', /Hostile/);
    assert.equal(hover.links, 0, hover.html);
    assert.ok(hover.text.includes('[click me](command:workbench.action.openSettings) <img src=x onerror=alert(1)> **bold**'), hover.text);
    await page.mouse.move(1, 1);
  });
});
