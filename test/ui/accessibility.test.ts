// The extension as a screen reader and a keyboard reach it, in Chromium: the Events view's
// rows read from Chromium's own accessibility tree (not from the DOM's attributes); the
// timeline opened, driven and left by keyboard alone, the event under its cursor announced
// through its live region; and the High Contrast themes, dark and light, where the colours
// we draw in (warnings, marks, labels) keep at least 4.5:1 against their background.
import * as assert from 'node:assert/strict';
import type { CDPSession, Page } from 'playwright-core';
import { createEvent, seedWorkload } from './cluster';
import { eventually, EventsViewPage, TREE } from './eventsViewPage';
import { openWorkbench, screenshot, type Workbench } from './support';
import { TimelinePage } from './timelinePage';

const NS = 'ui-a11y';
const SECRET = `tls-more-${Date.now().toString(36)}`;
const WARNING = '--vscode-list-warningForeground';
const NORMAL = '--vscode-charts-blue';

interface AXNode {
  nodeId: string;
  role?: { value?: string };
  name?: { value?: string };
  properties?: { name: string; value: { value?: unknown } }[];
  childIds?: string[];
}

/** Chromium's accessibility tree of the workbench page (webviews, in frames of their own, aside). */
async function axTree(page: Page): Promise<AXNode[]> {
  const session = await page.context().newCDPSession(page);
  try {
    await session.send('Accessibility.enable');
    const { nodes } = (await session.send('Accessibility.getFullAXTree')) as { nodes: AXNode[] };
    return nodes;
  } finally {
    await session.detach().catch(() => undefined);
  }
}

interface DomNode {
  backendNodeId: number;
  attributes?: string[];
  children?: DomNode[];
  contentDocument?: DomNode;
  shadowRoots?: DomNode[];
}

/**
 * What Chromium's accessibility tree holds for the element with this id inside a webview
 * (frames within frames, found through the DOM with frames pierced): its live property and
 * the text it would speak.
 */
async function liveRegion(page: Page, id: string): Promise<{ live: string; text: string } | undefined> {
  const session: CDPSession = await page.context().newCDPSession(page);
  try {
    await session.send('DOM.enable');
    await session.send('Accessibility.enable');
    const { root } = (await session.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
    const found: DomNode[] = [];
    const walk = (n: DomNode) => {
      const attrs = n.attributes ?? [];
      for (let i = 0; i + 1 < attrs.length; i += 2) if (attrs[i] === 'id' && attrs[i + 1] === id) found.push(n);
      for (const c of [...(n.children ?? []), ...(n.contentDocument ? [n.contentDocument] : []), ...(n.shadowRoots ?? [])]) walk(c);
    };
    walk(root);
    const target = found.pop();
    if (!target) return undefined;
    const { nodes } = (await session.send('Accessibility.getPartialAXTree', { backendNodeId: target.backendNodeId, fetchRelatives: true })) as { nodes: (AXNode & { backendDOMNodeId?: number })[] };
    const self = nodes.find((n) => n.backendDOMNodeId === target.backendNodeId);
    if (!self) return undefined;
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const live = self.properties?.find((p) => p.name === 'live')?.value.value;
    const text = (self.childIds ?? []).map((c) => String(byId.get(c)?.name?.value ?? '')).join(' ').trim() || String(self.name?.value ?? '');
    return { live: typeof live === 'string' ? live : '', text };
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/** The names Chromium gives the tree items (the rows of every tree on screen). */
async function treeItemNames(page: Page): Promise<string[]> {
  return (await axTree(page)).filter((n) => n.role?.value === 'treeitem').map((n) => String(n.name?.value ?? ''));
}

/** WCAG's contrast ratio of two CSS colours (the first composited over the second when translucent). */
async function contrast(page: Page, fg: string, bg: string): Promise<number> {
  return page.evaluate(
    ([f, b]) => {
      const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
      const rgb = (colour: string, under?: number[]) => {
        ctx.clearRect(0, 0, 1, 1);
        if (under) {
          ctx.fillStyle = `rgb(${under.join(',')})`;
          ctx.fillRect(0, 0, 1, 1);
        }
        ctx.fillStyle = colour;
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
      };
      const lum = (c: number[]) => {
        const [r, g, bl] = c.map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
      };
      const back = rgb(b);
      const front = rgb(f, back);
      const [hi, lo] = [lum(front), lum(back)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    },
    [fg, bg],
  );
}

describe('accessible in Chromium: names, the keyboard, High Contrast', function () {
  this.timeout(300_000);
  let workbench: Workbench;
  let page: Page;
  let v: EventsViewPage;
  let t: TimelinePage;

  before(async () => {
    await seedWorkload(NS);
    // Three events on one object, one more than the two the view shows under it.
    for (const reason of ['Rotated', 'Mounted', 'Expiring']) await createEvent(NS, `${SECRET}.${reason.toLowerCase()}`, { kind: 'Secret', name: SECRET, apiVersion: 'v1' }, reason, `${reason} the certificate`, 'Normal');
    workbench = await openWorkbench('a11y', { settings: { 'kubernetesEvents.namespaces': [NS], 'kubernetesEvents.maxChildren': 2 } });
    page = workbench.page;
    v = new EventsViewPage(page);
    t = new TimelinePage(page);
    await v.open();
    await v.row(/^Deployment\/web$/).waitFor({ timeout: 90_000 });
  });
  after(async () => {
    await workbench?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !page) return;
    await screenshot(page, `failed-a11y-${(this.currentTest.title ?? 'test').slice(0, 40).replace(/\W+/g, '-')}`);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  });

  it('gives every row a name that reads as a sentence, in Chromium\'s accessibility tree: objects, events and Show more', async () => {
    let names: string[] = [];
    const object = /^Pod web-\S+ in namespace ui-a11y: \d+ live warnings?, \d+ events?, the last \d+ (seconds?|minutes?)( \d+ seconds?)? ago\.$/;
    await eventually('a pod row named in words', async () => (names = await treeItemNames(page)).some((n) => object.test(n)));
    assert.ok(names.some((n) => /^Deployment web in namespace ui-a11y: \d+ events?, the last .+ ago\.$/.test(n)), names.join('\n'));
    // A pod of web: FailedScheduling, as the scheduler keeps trying.
    const pod = v.objectRows().filter({ hasText: /^Pod\/web-/ }).first();
    await v.expand(pod);
    const event = /^Warning event FailedScheduling, (\d+ times over .+, the last .+ ago|.+ ago): 0\/\d+ nodes are available: .+\.$/;
    await eventually('its event named as a sentence', async () => (names = await treeItemNames(page)).some((n) => event.test(n))).catch(() => undefined);
    assert.ok(names.some((n) => event.test(n)), `an event row named as a sentence:\n${names.join('\n')}`);
    // maxChildren is 2: the Secret's third event is behind Show more.
    await v.expand(v.row(`Secret/${SECRET}`));
    await eventually('the Show more row, named', async () => (names = await treeItemNames(page)).includes(`Show 1 more event of Secret/${SECRET}.`));
    assert.ok(names.some((n) => n.startsWith(`Secret ${SECRET} in namespace ui-a11y: 3 events, the last `)), names.join('\n'));
    // After the object, the words: no kubectl short age ("4m49s") left unspoken.
    for (const n of names.filter((x) => /^(Pod|Deployment|ReplicaSet|Secret) /.test(x))) assert.doesNotMatch(n.slice(n.indexOf(': ')), /\b\d+[smhdy]\d*[smhdy]?\b/, `no kubectl short age left in words: ${n}`);
  });

  it('opens and drives the timeline by keyboard alone, announcing the event under its cursor, Enter selecting it in the view', async () => {
    await page.mouse.move(1, 1);
    await page.keyboard.press('F1');
    // F1 opens the palette with its ">" typed.
    await page.keyboard.type('Kubernetes Events: Show Timeline');
    await page.locator('.quick-input-list .monaco-list-row.focused[aria-label^="Kubernetes Events: Show Timeline"]').first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await t.tab('Events Timeline').waitFor({ timeout: 30_000 });
    await eventually('lanes drawn', async () => (await t.counts()).lanes >= 3);
    // Tab moves through the panel's controls to the canvas, as a keyboard user goes.
    const active = () => t.frame().locator(':focus').evaluate((e) => e.id).catch(() => '');
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await active()) === 'canvas';
    }
    assert.ok(reached, 'Tab reaches the timeline\'s canvas');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    let announced = '';
    await eventually('the cursor\'s event, reason and message, in the live region of the accessibility tree', async () => {
      const region = await liveRegion(page, 'cursor');
      announced = region?.live === 'polite' ? region.text : '';
      return /^(Pod|Secret)\/\S+: (Warning|Normal) at .+\. (FailedScheduling: 0\/\d+ nodes are available|\w+: \w+ the certificate)/.test(announced);
    }).catch(() => undefined);
    assert.match(announced, /^(Pod|Secret)\/\S+: (Warning|Normal) at .+\. (FailedScheduling: 0\/\d+ nodes are available|\w+: \w+ the certificate)/, 'what a screen reader says of the cursor\'s event');
    const before = await t.frame().locator('#cursor').textContent();
    await page.keyboard.press('ArrowDown');
    await eventually('the cursor moved to another lane', async () => (await t.frame().locator('#cursor').textContent()) !== before);
    // Its details come a moment after the move: then Enter shows that event in the Events view.
    let text = '';
    await eventually('the new lane\'s event announced with its reason', async () => /^(.+?): (Warning|Normal) at .*? (\w+): /.test((text = (await t.frame().locator('#cursor').textContent()) ?? '')));
    await page.keyboard.press('Enter');
    const selected = page.locator(`${TREE} .monaco-list-row[aria-selected="true"]`);
    await eventually('the event selected in the tree', async () => (await selected.getAttribute('aria-level').catch(() => '')) === '2');
    const reason = /^(.+?): (Warning|Normal) at .*? (\w+): /.exec(text);
    assert.ok(reason, `the cursor says the object, type, time and reason: ${text}`);
    await eventually('the same event selected', async () => (await selected.innerText()).includes(`${reason[3]}: `));
    await screenshot(page, 'a11y-1-timeline-keyboard');
  });

  for (const theme of ['Dark High Contrast', 'Light High Contrast']) {
    it(`keeps our colours at 4.5:1 or more in ${theme}: warning rows and badges in the view, marks and labels on the timeline`, async () => {
      const wanted = theme.startsWith('Light') ? 'hc-light' : 'hc-black';
      await v.setTheme(theme, wanted);

      // The view: a row with live warnings draws its label and badge in list.warningForeground.
      await v.showContainer();
      const warned = v.objectRows().filter({ hasText: /^Pod\/web-/ }).first();
      await warned.waitFor({ timeout: 30_000 });
      const sidebar = await page.locator('.part.sidebar').evaluate((e) => getComputedStyle(e).backgroundColor);
      const label = await warned.locator('.label-name').first().evaluate((e) => getComputedStyle(e).color);
      const badge = await warned.locator('.monaco-icon-label').first().evaluate((e) => getComputedStyle(e, '::after').color);
      assert.ok((await contrast(page, label, sidebar)) >= 4.5, `a warning row's label ${label} on ${sidebar}: ${(await contrast(page, label, sidebar)).toFixed(2)}:1`);
      assert.ok((await contrast(page, badge, sidebar)) >= 4.5, `a warning row's badge ${badge} on ${sidebar}: ${(await contrast(page, badge, sidebar)).toFixed(2)}:1`);

      // The timeline: its marks, labels and words in the theme's colours, against the editor's background.
      await t.tab('Events Timeline').click();
      // Marks of one occurrence are small and, in High Contrast, ringed in contrastBorder: any of
      // the warning colour's pixels on the plot shows the canvas draws in it.
      // The canvas's warning colour is list.warningForeground, else (High Contrast themes leave
      // it out) editorWarning.foreground, as theme.ts reads them.
      const warningVar = (await t.frame().locator('body').evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--vscode-list-warningForeground').trim())) ? WARNING : '--vscode-editorWarning-foreground';
      await eventually('the warning colour drawn on the plot', async () => (await t.lowestOf(warningVar)) !== undefined);
      const colours = await t.frame().locator('body').evaluate((body, vars) => {
        const style = getComputedStyle(document.documentElement);
        return { background: getComputedStyle(body).backgroundColor, ...Object.fromEntries(vars.map((n) => [n, style.getPropertyValue(n).trim()])), text: getComputedStyle(document.getElementById('cursor') as HTMLElement).color };
      }, [warningVar, NORMAL, '--vscode-editor-foreground', '--vscode-descriptionForeground']) as Record<string, string>;
      for (const name of [warningVar, NORMAL, '--vscode-editor-foreground', '--vscode-descriptionForeground', 'text']) {
        if (!colours[name]) continue;
        const ratio = await contrast(page, colours[name], colours.background);
        assert.ok(ratio >= 4.5, `${name} ${colours[name]} on ${colours.background}: ${ratio.toFixed(2)}:1`);
      }
      await screenshot(page, `a11y-${theme.startsWith('Light') ? 3 : 2}-${wanted}`);
    });
  }
});
