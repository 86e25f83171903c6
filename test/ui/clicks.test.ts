// The Events view used as a person uses it, in Chromium: select a row, then every title
// button and "..." action; the Record flow with Back; hovering hostile text and clicking
// where a link would be; waiting for ages to move; the state always on screen; problems
// with their buttons; warnings only while the apiserver is frozen; a reload that shows
// loading, then rows. Screenshots go to test-results/screenshots/.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { createEvent, freezeApiserver } from './cluster';
import { eventually, type EventsViewPage } from './eventsViewPage';
import { screenshot, useEventsView, type Workbench } from './support';

const NS = 'ui-clicks';
const HOSTILE = 'renew at https://evil.example/renew?token=abc or www.evil.example [run](command:workbench.action.closeWindow) <img src=x onerror=alert(1)> **bold** $(zap)\n\nsecond paragraph after a blank line';


describe('the Events view, clicked in Chromium', function () {
  this.timeout(240_000);
  const suite = useEventsView('clicks', NS);
  let page: Page;
  let v: EventsViewPage;
  let workbench: Workbench;
  before(() => ({ page, v, workbench } = suite));

  it('keeps the context and the live warnings in sight: in the header and in the status bar, which switches context', async () => {
    await eventually('the context in the header', async () => /kev-admin/i.test(await v.header()));
    const item = v.statusBarItem();
    assert.match(await item.innerText(), /kev-admin\s+\d+/);
    await item.click();
    await v.waitForQuickTitle('Switch Context');
    await screenshot(page, 'ui-1-status-bar-switch-context');
    await v.pick('kev-admin');
  });

  it('after a click on a row, each title button does its own job and takes nothing from the row', async () => {
    await v.select(v.level(1).filter({ hasText: /^Pod\// }).first());
    await v.titleButton('Show Warnings Only');
    await eventually('the filter in the header', async () => /Warning/.test(await v.header()));
    await v.stableLabels(1);
    for (const row of await v.objectRows().all()) assert.match(await v.badge(row), /^[1-9]\d*$/, `${await row.innerText()} has warnings`);
    await v.titleButton('Show All Event Types');
    await eventually('all types again', async () => (await v.labels(1)).some((l) => l.startsWith('Deployment/')));

    await v.select(v.row(/^Pod\//));
    await v.openAndPick(() => v.titleButton('Filter Events'), 'Filter Events (1/2)', 'Kind');
    await v.waitForQuickTitle('Filter Events (2/2)');
    await v.pick('Deployment');
    await v.accept();
    await eventually('only deployments', async () => (await v.stableLabels(1)).every((l) => l.startsWith('Deployment/')));
    assert.match(await v.header(), /kind: Deployment/i);
    await v.titleButton('Clear Filters');
    await eventually('the filter cleared', async () => !/kind:/i.test(await v.header()));

    await v.select(v.row(/^Deployment\/web$/));
    await v.titleButton('Refresh Events');
    await v.row(/^Deployment\/web$/).waitFor({ timeout: 30_000 });
    assert.match(await v.header(), /kev-admin/i, 'still on kev-admin: Refresh did not take the row for a context');
  });

  it('after a click on a row, each "..." action does its own job: Switch Context, Sort By, Export, Open Kubeconfig, Show Log', async () => {
    await v.select(v.row(/^Deployment\/web$/));
    await v.openAndPick(() => v.moreAction('Switch Context...'), 'Switch Context', 'kev-limited');
    // The limited user may not list events: the message, and the buttons to get out of it.
    const problem = v.rows().filter({ hasText: /^Cannot list events/ }).first();
    await problem.waitFor({ timeout: 30_000 });
    for (const action of ['Retry', 'Switch Context…', 'Show Log']) await v.row(action).waitFor();
    await screenshot(page, 'ui-2-forbidden-with-actions');
    await v.openAndPick(() => v.row('Switch Context…').click(), 'Switch Context', 'kev-admin');
    await v.row(/^Deployment\/web$/).waitFor({ timeout: 30_000 });

    await v.select(v.row(/^Deployment\/web$/));
    await v.openAndPick(() => v.moreAction('Sort By...'), 'Sort Objects By', 'Name');
    await eventually('rows by name', async () => {
      const names = (await v.stableLabels(1)).map((l) => l.slice(l.indexOf('/') + 1));
      return names.join('\n') === [...names].sort((a, b) => a.localeCompare(b)).join('\n');
    });
    await v.moreAction('Sort By...');
    await v.pick('Last seen');

    await v.select(v.row(/^Deployment\/web$/));
    await v.openAndPick(() => v.moreAction('Export Events...'), 'Export Events: format', 'CSV');
    // VS Code's own save dialog proposes a file in the workspace folder.
    await v.waitForQuickTitle('Export Events');
    const input = page.locator('.quick-input-widget input');
    await eventually('the proposed file name', async () => (await input.inputValue()).endsWith('.csv'));
    const proposed = await input.inputValue();
    assert.equal(path.dirname(proposed), workbench.server.options.workspace);
    assert.match(path.basename(proposed), /^events-kev-admin-\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d\.csv$/);
    await v.accept();
    await v.notificationButton(/Exported \d+ events to events-kev-admin-/, 'Open');
    await page.locator('.editor-group-container .tab', { hasText: path.basename(proposed) }).waitFor({ timeout: 30_000 });
    assert.match(fs.readFileSync(proposed, 'utf8'), /^namespace,object,type,reason,age,count,from,message,firstSeen,lastSeen,expired\r\n/);

    await v.select(v.row(/^Deployment\/web$/));
    await v.moreAction('Open Kubeconfig');
    await page.locator('.editor-group-container .tab', { hasText: 'admin.kubeconfig' }).waitFor({ timeout: 30_000 });
    await v.moreAction('Show Log');
    await page.locator('.part.panel .monaco-editor', { hasText: 'Connected context="kev-admin"' }).first().waitFor({ timeout: 30_000 });
  });

  it('records an event in five steps with Back, inline validation and the apiserver\'s limits, then says where it went', async () => {
    await v.select(v.row(/^Pod\//));
    await v.moreAction('Record Event...');
    await v.waitForQuickTitle('Record Event (1/8)');
    await v.type('Deployment');
    await v.pick('Deployment');
    await v.waitForQuickTitle('Record Event (2/8)');
    await v.type('web');
    await v.pickWith('web', NS);
    await v.waitForQuickTitle('Record Event (3/8)');
    await v.pick('Warning');
    await v.waitForQuickTitle('Record Event (4/8)');
    await v.type('not one word');
    await eventually('the inline validation message', async () => /A reason is one word/.test(await v.validationMessage()));
    await v.accept();
    await v.waitForQuickTitle('Record Event (4/8)');
    await v.back();
    await v.waitForQuickTitle('Record Event (3/8)');
    await v.pick('Normal');
    await v.waitForQuickTitle('Record Event (4/8)');
    assert.equal(await page.locator('.quick-input-widget input').inputValue(), 'not one word', 'Back kept the answer');
    await v.type('UiRecorded');
    await v.accept();
    await v.waitForQuickTitle('Record Event (5/8)');
    assert.match(await page.locator('.quick-input-widget input').getAttribute('placeholder') ?? '', /up to 1024 bytes/);
    await v.type('漢字とemoji 🚀 recorded with the record flow');
    await eventually('the byte count under the input', async () => /^49 of 1024 bytes/.test(await v.validationMessage()));
    await screenshot(page, 'ui-3-record-message-step');
    await v.accept();
    // core/v1 asked for: recorded as the message is accepted there.
    await v.waitForQuickTitle('Record Event (6/8)');
    await v.pick('core/v1');
    await v.notification(/Recorded Normal UiRecorded on Deployment\/web in ui-clicks in this window only: the sink is off/).waitFor({ timeout: 30_000 });
    const webRows = v.level(1).filter({ hasText: /^Deployment\/web/ }).filter({ hasText: NS });
    await v.expand(webRows.first());
    const recorded = v.level(2).filter({ hasText: 'UiRecorded: 漢字とemoji 🚀 recorded with the record flow' }).first();
    await recorded.waitFor({ timeout: 30_000 });
    await eventually('the "recorded here" mark', async () => (await v.badge(recorded)) === 'R');
    assert.match(await v.badge(v.row(/^Pod\//)), /^[1-9]\d*$/, 'an unscheduled pod has its FailedScheduling warnings as its badge');
    // Record on This Object, from the row's inline button: three steps of its own, and the API's.
    await recorded.hover();
    await recorded.locator('.action-label[aria-label^="Record Event on This Object"]').click();
    await v.waitForQuickTitle('Record Event (1/6)');
    await page.keyboard.press('Escape');
  });

  it('shows hostile text as text when hovered: nothing is a link, clicking where one would be does nothing', async () => {
    const stamp = Date.now().toString(36);
    await createEvent(NS, `hostile.${stamp}`, { kind: 'Secret', name: `tls-${stamp}`, apiVersion: 'v1' }, 'CertExpiring', HOSTILE);
    await v.expand(v.row(`Secret/tls-${stamp}`));
    const row = v.level(2).filter({ hasText: 'CertExpiring' }).first();
    await row.waitFor({ timeout: 30_000 });
    const hover = await v.hoverText(row, /^Warning CertExpiring\n/);
    assert.equal(hover.links, 0, `no link in the hover: ${hover.html}`);
    assert.ok(hover.text.endsWith(HOSTILE), `the message exactly, blank line kept:\n${hover.text}`);
    await screenshot(page, 'ui-4-hostile-hover');
    const pages = page.context().pages().length;
    await page.getByText('https://evil.example/renew', { exact: false }).last().click();
    await page.waitForTimeout(1000);
    assert.equal(page.context().pages().length, pages, 'no page opened');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no "open external link" dialog');
    await page.mouse.move(0, 0);
  });

  it('keeps ages current: an event row\'s age moves while nobody touches anything', async () => {
    const stamp = Date.now().toString(36);
    await createEvent(NS, `ticking.${stamp}`, { kind: 'ConfigMap', name: `ticking-${stamp}`, apiVersion: 'v1' }, 'Ticking', `an event to watch age ${stamp}`);
    await v.expand(v.row(`ConfigMap/ticking-${stamp}`));
    const row = v.level(2).filter({ hasText: `Ticking: an event to watch age ${stamp}` }).first();
    await row.waitFor({ timeout: 30_000 });
    const age = (l: string) => Number(/^(\d+)s · /.exec(l)?.[1]);
    const first = await row.locator('.label-name').innerText();
    const started = Date.now();
    // Ages are redrawn every 5 s: within 12 s the row has moved on at least 5 s.
    await eventually('the age to move', async () => age(await row.locator('.label-name').innerText()) >= age(first) + 5, 12_000);
    const later = await row.locator('.label-name').innerText();
    assert.ok(age(later) - age(first) <= Math.ceil((Date.now() - started) / 1000) + 1, `"${first}" then "${later}": never ahead of the clock`);
  });

  it('pauses live updates: new events wait, what is open stays as it was, a row says how many, Resume shows them', async () => {
    const stamp = Date.now().toString(36);
    // An object open before the pause, with one event.
    await createEvent(NS, `open.${stamp}`, { kind: 'ConfigMap', name: `open-${stamp}`, apiVersion: 'v1' }, 'BeforePause', 'the one event before the pause', 'Normal');
    const open = v.row(`ConfigMap/open-${stamp}`);
    await open.waitFor({ timeout: 30_000 });
    await v.expand(open);
    await v.row(/BeforePause: the one event before the pause/).waitFor({ timeout: 10_000 });
    await v.titleButton('Pause Live Updates');
    await v.row(/^Live updates paused/).waitFor({ timeout: 10_000 });
    const before = await v.stableLabels(1);
    await createEvent(NS, `paused.${stamp}`, { kind: 'ConfigMap', name: `paused-${stamp}`, apiVersion: 'v1' }, 'WhilePaused', 'arrived during the pause');
    await createEvent(NS, `open2.${stamp}`, { kind: 'ConfigMap', name: `open-${stamp}`, apiVersion: 'v1' }, 'DuringPause', 'a second event on the open object', 'Normal');
    await v.row(/^Live updates paused: \d+ changes? waiting$/).waitFor({ timeout: 30_000 });
    // Past a tick of the ages (every 5 s), which redraws rows.
    await page.waitForTimeout(6_000);
    assert.deepEqual((await v.labels(1)).filter((l) => !l.startsWith('Live') && !l.startsWith('Resume')), before.filter((l) => !l.startsWith('Live') && !l.startsWith('Resume')), 'rows stay where they were');
    assert.equal(await v.rows().filter({ hasText: /DuringPause/ }).count(), 0, 'nothing new under the open object');
    assert.match(await open.innerText(), /· 1 event ·/, 'its count as it was');
    await screenshot(page, 'ui-5-paused');
    await v.row('Resume Live Updates').click();
    await v.row(`ConfigMap/paused-${stamp}`).waitFor({ timeout: 30_000 });
    await v.row(/DuringPause: a second event on the open object/).waitFor({ timeout: 30_000 });
    await v.row(/^Live updates paused/).waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('paused, Show Warnings Only ends the pause: the paused rows, then the warnings, never the live rows of all types between', async () => {
    const name = `normal-${Date.now().toString(36)}`;
    const normal = `ConfigMap/${name}`;
    await createEvent(NS, name, { kind: 'ConfigMap', name, apiVersion: 'v1' }, 'Synced', 'an object with no warning', 'Normal');
    await v.row(normal).waitFor({ timeout: 30_000 });
    await v.titleButton('Pause Live Updates');
    await v.row(/^Live updates paused/).waitFor({ timeout: 10_000 });
    const frames = await watchTopRows(page);
    await v.titleButton('Show Warnings Only');
    await v.row(/^Live updates paused/).waitFor({ state: 'detached', timeout: 30_000 });
    // Each frame drawn: the paused rows (with their status row), or warnings only.
    const between = (await frames()).filter((rows) => !rows.some((r) => r.startsWith('Live updates paused')) && rows.includes(normal));
    assert.deepEqual(between, [], 'no frame shows the object without warnings once the pause has gone');
    await eventually('the filter in the header, not "paused"', async () => /Warning/.test(await v.header()) && !/paused/i.test(await v.header()));
    await v.objectRows().filter({ hasText: /^Pod\// }).first().waitFor({ timeout: 30_000 });
    for (const row of await v.objectRows().all()) assert.match(await v.badge(row), /^[1-9]\d*$/, `${await row.innerText()} has warnings`);
    assert.equal(await v.rows().filter({ hasText: /^No events match/ }).count(), 0);
    await v.titleButton('Show All Event Types');
    await eventually('all types again', async () => (await v.labels(1)).some((l) => l.startsWith('Deployment/')));
  });

  it('says when a filter hides everything, with Clear Filters beside it', async () => {
    await v.openAndPick(() => v.titleButton('Filter Events'), 'Filter Events (1/2)', 'Text in reason, message or object name');
    await v.waitForQuickTitle('Filter Events (2/2): text');
    await v.type('no-event-says-this');
    await v.accept();
    await v.row(/^No events match the filter: "no-event-says-this"$/).waitFor({ timeout: 10_000 });
    // The status bar counts every live warning, the filter's or not: a new one counts at once.
    const count = async () => Number(/kev-admin\s+(\d+)/.exec(await v.statusBarItem().innerText())?.[1] ?? 0);
    const before = await count();
    const stamp = Date.now().toString(36);
    await createEvent(NS, `hidden.${stamp}`, { kind: 'ConfigMap', name: `hidden-${stamp}`, apiVersion: 'v1' }, 'Hidden', 'a warning the filter hides');
    await eventually('the status bar counting the new warning', async () => (await count()) > before);
    await v.row('Clear Filters').click();
    await v.row(/^Deployment\/web$/).waitFor({ timeout: 10_000 });
  });

  it('asks before writing to the cluster, saves the choice for the workspace, and shows that the sink is on', async () => {
    await v.moreAction('Enable Sink');
    const text = await v.dialogButton('Enable for This Workspace');
    assert.match(text, /Write the events you record to the cluster of context "kev-admin"\?/);
    assert.match(text, /created as user "kev-admin" on https:\/\/127\.0\.0\.1:\d+/);
    await eventually('"sink on" in the header', async () => /sink on/i.test(await v.header()));
    await v.statusBarItem().locator('.codicon-cloud-upload').waitFor();
    const file = path.join(workbench.server.options.workspace, '.vscode', 'settings.json');
    await eventually('the choice saved in the workspace settings', async () => fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>)['kubernetesEvents.sink.enabled'] === true);
    await screenshot(page, 'ui-6-sink-on');
  });

  it('Show Warnings Only with the apiserver frozen: the warnings already here at once, a row saying the rest is asked for; thawed, the row goes', async () => {
    await v.select(v.row(/^Pod\//));
    const thaw = freezeApiserver();
    try {
      await v.titleButton('Show Warnings Only');
      await v.row(/^Asking kev-admin for type=Warning… \(meanwhile, the events already here\)$/).waitFor({ timeout: 10_000 });
      const objects = await v.objectRows().all();
      assert.ok(objects.length > 0, 'the warnings this window holds are shown before the apiserver answers');
      for (const row of objects) assert.match(await v.badge(row), /^[1-9]\d*$/, `${await row.innerText()} has warnings`);
      assert.ok((await v.labels(1)).some((l) => l.startsWith('Pod/')), 'the unscheduled pod, with its FailedScheduling warnings');
      await screenshot(page, 'ui-6b-warnings-only-apiserver-frozen');
    } finally {
      thaw();
    }
    await eventually('the rest listed: the row gone', async () => (await v.row(/^Asking kev-admin/).count()) === 0, 90_000);
    assert.ok((await v.objectRows().count()) > 0);
    await v.titleButton('Show All Event Types');
    await eventually('all types again', async () => (await v.labels(1)).some((l) => l.startsWith('Deployment/')));
  });

  it('after a reload: loading at once (the apiserver frozen), then rows; the sink still on', async () => {
    const thaw = freezeApiserver();
    try {
      await page.keyboard.press('F1');
      await v.type('>Developer: Reload Window');
      await v.pick('Developer: Reload Window');
      await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60_000 });
      await v.showContainer();
      await v.row(/^Loading events from kev-admin…/).waitFor({ timeout: 30_000 });
      assert.equal(await page.getByText('There is no data provider registered').count(), 0);
      await screenshot(page, 'ui-7-reload-loading');
    } finally {
      thaw();
    }
    await v.row(/^Deployment\/web$/).waitFor({ timeout: 90_000 });
    await eventually('"sink on" after the reload', async () => /sink on/i.test(await v.header()), 60_000);
    await v.moreAction('Disable Sink');
    await eventually('sink off', async () => !/sink on/i.test(await v.header()));
  });
});

/** Notes, in the page, the top rows' labels each time the tree draws them. */
async function watchTopRows(page: Page): Promise<() => Promise<string[][]>> {
  await page.evaluate(() => {
    const w = window as unknown as { kevFrames: string[][] };
    w.kevFrames = [];
    const tree = document.querySelector('.part.sidebar .monaco-list[role="tree"]');
    if (!tree) throw new Error('no tree in the side bar');
    const note = () => w.kevFrames.push(Array.from(tree.querySelectorAll('.monaco-list-row[aria-level="1"] .label-name')).map((l) => l.textContent ?? ''));
    note();
    new MutationObserver(note).observe(tree, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { kevFrames: string[][] }).kevFrames);
}
