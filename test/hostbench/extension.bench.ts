// Inside the real extension host: activation, the first complete list, a burst of 1,000
// recorded events until the tree has settled (median of 5), and the cost of keeping ages
// current with 20,000 events in the store. Prints, asserts nothing about time.
import * as assert from 'node:assert/strict';
import type { Services } from '../../src/services/services';
import { extensionApi, report, TreeReader, waitFor } from '../host/support';

const BURSTS = 5;
const BURST_SIZE = 1000;
const AGE_EVENTS = 20_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('host benchmark', function () {
  this.timeout(600_000);
  let s: Services;

  it('activation and the first list', async () => {
    const started = Date.now();
    const api = await extensionApi();
    s = api.testing.services;
    await waitFor('the first list', () => s.status.viewState === 'ready' || s.status.viewState === 'empty', 60_000);
    report(`activate(): ${api.testing.activationMs.toFixed(1)} ms; the view ready (first list done, watch open) ${Date.now() - started} ms after this test started`);
  });

  it(`a burst of ${BURST_SIZE} recorded events to a settled tree, median of ${BURSTS}`, async () => {
    const times: number[] = [];
    const refreshes: number[] = [];
    for (let b = 0; b < BURSTS; b++) {
      const before = s.tree.refreshes;
      const start = Date.now();
      await Promise.all(Array.from({ length: BURST_SIZE }, (_, i) => s.recording.recorder.event({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `bench-${b}-${i % 100}`, namespace: 'default' } }, 'Normal', `Bench${i % 7}`, `event ${i}`)));
      await waitFor('every event in the store', () => [...s.store.all()].filter((e) => e.involvedObject.name.startsWith(`bench-${b}-`)).reduce((n, e) => n + e.count, 0) === BURST_SIZE, 60_000);
      await waitFor('a settled tree', () => s.tree.isSettled, 60_000);
      times.push(Date.now() - start);
      refreshes.push(s.tree.refreshes - before);
    }
    assert.equal(times.length, BURSTS);
    report(`burst of ${BURST_SIZE} events to a settled tree: median ${median(times)} ms [${times.join(', ')}], refreshes per burst [${refreshes.join(', ')}]`);
  });

  it(`keeping ages current with ${AGE_EVENTS} events stored: the cost of one tick over every drawn row`, async () => {
    const t = new TreeReader(s);
    const now = Date.now();
    s.store.batch(() => {
      for (let i = 0; i < AGE_EVENTS; i++) {
        const object = { kind: 'Pod', namespace: 'bench-ages', name: `pod-${i % 2000}`, uid: `uid-${i % 2000}`, apiVersion: 'v1', fieldPath: '' };
        s.store.upsert({ uid: `age-${i}`, namespace: 'bench-ages', name: `age-${i}`, resourceVersion: String(i), type: i % 5 ? 'Normal' : 'Warning', reason: 'Pulled', message: `Successfully pulled image "registry.example/app:${i}" in 1.2s`, count: 1 + (i % 3), firstSeen: now - (i % 600) * 1000, lastSeen: now - (i % 120) * 1000, source: 'kubelet', sourceHost: 'node-1', reportingInstance: '', action: '', involvedObject: object, origin: 'core/v1' });
      }
    });
    await waitFor('a settled tree', () => s.tree.isSettled, 60_000);
    s.tree.ticker.setVisible(true);
    // Draw what VS Code draws: every object, and the events of 50 expanded ones.
    const groups = t.groups();
    const ctx = s.tree.context();
    for (const g of groups) {
      s.tree.ticker.rendered(g, ctx);
    }
    for (const g of groups.slice(0, 50)) for (const e of t.events(g)) s.tree.ticker.rendered(e, ctx);
    const costs: number[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const before = performance.now();
      s.tree.ticker.tick();
      costs.push(performance.now() - before);
    }
    report(`ages at ${s.store.size} events (${groups.length} object rows, ${Math.min(50, groups.length)} expanded): a tick costs median ${median(costs).toFixed(1)} ms [${costs.map((c) => c.toFixed(1)).join(', ')}], ${s.tree.ticker.stats.refreshed} rows refreshed over ${s.tree.ticker.stats.ticks} ticks`);
  });
});
