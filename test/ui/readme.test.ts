// The lively local cluster (KWOK: test/env/seedCluster.ts) as a person reads it in Chromium,
// watching its four teams' namespaces: the crash-looping checkout's BackOff warnings on its
// pods, the event's details on hover, the roll-up under Deployment/checkout and
// CronJob/report, and the timeline of it all. Its screenshots (readme-*) are the README's.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { SEEDED } from '../env/seedCluster';
import { ownedInCluster } from './cluster';
import { eventually, EventsViewPage } from './eventsViewPage';
import { openWorkbench, screenshot, type Workbench } from './support';
import { TimelinePage } from './timelinePage';

const NAMESPACES = [SEEDED.shop.namespace, SEEDED.payments.namespace, SEEDED.batch.namespace, SEEDED.monitoring.namespace];
const WARNING = '--vscode-list-warningForeground';

describe('the lively cluster in Chromium (the README\'s pictures)', function () {
  this.timeout(300_000);
  let workbench: Workbench;
  let page: Page;
  let v: EventsViewPage;

  before(async () => {
    workbench = await openWorkbench('readme', { settings: { 'kubernetesEvents.namespaces': NAMESPACES } });
    page = workbench.page;
    v = new EventsViewPage(page);
    await v.open();
  });
  after(async () => {
    await workbench?.close();
  });
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed' || !page) return;
    await screenshot(page, `failed-readme-${(this.currentTest.title ?? 'test').slice(0, 40).replace(/\W+/g, '-')}`);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
  });

  const checkoutPods = () => v.objectRows().filter({ hasText: new RegExp(`^Pod/${SEEDED.payments.crashLoop}-`) });

  it('shows the crash-looping pod with its BackOff warnings counted in its badge, and the kubelet\'s events beneath', async () => {
    await checkoutPods().first().waitFor({ timeout: 120_000 });
    // The crash-looping one by its badge: a checkout pod the cluster replaced early (a slow
    // start) is a row too, and rows move as events come.
    let name = '';
    await eventually('BackOff warnings on a checkout pod', async () => {
      for (const row of await checkoutPods().all()) if (/^[1-9]\d*$/.test(await v.badge(row))) name = (await row.locator('.label-name').innerText()).trim();
      return name !== '';
    }, 120_000);
    const checkoutPod = v.row(name);
    await v.expand(checkoutPod);
    const backOff = v.level(2).filter({ hasText: 'BackOff: Back-off restarting failed container' }).first();
    await backOff.waitFor({ timeout: 30_000 });
    assert.match(await backOff.locator('.label-name').innerText(), /^\d+[smh]\S*( \(x\d+ over \S+\))? · BackOff: Back-off restarting failed container \S+ in pod checkout-/);
    for (const reason of ['Scheduled', 'Pulled', 'Started']) assert.ok((await v.level(2).filter({ hasText: `${reason}: ` }).count()) > 0, `the pod's ${reason} event`);
    await screenshot(page, 'readme-1-crash-loop');

    const hover = await v.hoverText(backOff, /^Warning BackOff\n/);
    assert.match(hover.text, /Back-off restarting failed container/);
    assert.match(hover.text, /kubelet/);
    await screenshot(page, 'readme-2-event-details');
    await page.mouse.move(1, 1);
  });

  it('rolls the pods up under their workloads: Deployment/checkout sums its pods\' warnings, CronJob/report holds its Jobs', async () => {
    await v.openAndPick(() => v.moreAction('Group By...'), 'Group Events By', 'Workload');
    const checkout = v.row(`Deployment/${SEEDED.payments.crashLoop}`);
    await checkout.waitFor({ timeout: 30_000 });
    await eventually('the pods\' BackOff warnings summed on the Deployment', async () => /^[1-9]\d*$/.test(await v.badge(checkout)));
    await v.row(`CronJob/${SEEDED.batch.cronJob}`).waitFor({ timeout: 30_000 });
    // Pods the cluster deleted before the roll-up first watched them (the web rollout's first
    // ReplicaSet, a checkout pod replaced while a slow cluster started) have no owner we know
    // of and stay at the top; every checkout pod the cluster has is under the Deployment.
    for (const row of await checkoutPods().all()) {
      const pod = (await row.locator('.label-name').innerText()).trim().replace(/^Pod\//, '');
      assert.ok(!(await ownedInCluster('Pod', pod, SEEDED.payments.namespace)), `${pod} is a live checkout pod, yet at the top`);
    }
    // A Pod, ReplicaSet or Job at the top either has no owner (db-migrate, a plain Job) or
    // is one the cluster deleted before its owner was ever watched.
    let live = '';
    await eventually('no live owned object at the top', async () => {
      live = '';
      for (const row of await v.objectRows().all()) {
        const m = /^(Pod|ReplicaSet|Job)\/(\S+)$/.exec((await row.locator('.label-name').innerText()).trim());
        const namespace = /· ([a-z0-9-]+)$/.exec((await row.locator('.label-description').innerText()).trim())?.[1];
        if (m && namespace && (await ownedInCluster(m[1] as 'Pod' | 'ReplicaSet' | 'Job', m[2], namespace))) live = `${m[0]} in ${namespace}`;
      }
      return live === '';
    }).catch((e: Error) => {
      throw new Error(`${e.message}: ${live} is in the cluster with an owner, yet at the top`);
    });
    await v.expand(checkout);
    await v.level(2).filter({ hasText: new RegExp(`^ReplicaSet/${SEEDED.payments.crashLoop}-`) }).first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'readme-3-workload-rollup');
  });

  it('draws the timeline of every workload, the crash loop\'s warnings in the warning colour', async () => {
    const t = new TimelinePage(page);
    await v.moreAction('Show Timeline');
    await t.tab('Events Timeline').waitFor({ timeout: 30_000 });
    await eventually('lanes', async () => (await t.counts()).lanes >= 5);
    await eventually('warning marks', async () => (await t.marks(WARNING)).length > 0);
    await screenshot(page, 'readme-4-timeline');
    await v.moreAction('Group By...');
    await v.pick('Object');
  });
});
