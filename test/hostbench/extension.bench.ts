// Inside the real extension host: activation, the first complete list, and a burst of
// 1,000 recorded events until the tree has settled (median of 5). Prints, asserts nothing
// about time.
import * as assert from 'node:assert/strict';
import type { KubernetesEventsApi } from '../../src/extension';
import { extensionApi, report, waitFor } from '../host/support';

const BURSTS = 5;
const BURST_SIZE = 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('host benchmark', function () {
  this.timeout(300_000);
  let api: KubernetesEventsApi;

  it('activation and the first list', async () => {
    const started = Date.now();
    api = await extensionApi();
    await waitFor('the first list', async () => (api.controller.viewState === 'ready' || api.controller.viewState === 'empty' ? true : undefined), 60_000);
    report(`activate(): ${api.activationMs} ms; the view ready (first list done, watch open) ${Date.now() - started} ms after this test started`);
  });

  it(`a burst of ${BURST_SIZE} recorded events to a settled tree, median of ${BURSTS}`, async () => {
    const tree = api.controller.tree;
    const times: number[] = [];
    const refreshes: number[] = [];
    for (let b = 0; b < BURSTS; b++) {
      const before = tree.refreshes;
      const start = Date.now();
      await Promise.all(
        Array.from({ length: BURST_SIZE }, (_, i) => api.controller.recorder.event({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `bench-${b}-${i % 100}`, namespace: 'default' } }, 'Normal', `Bench${i % 7}`, `event ${i}`)),
      );
      await waitFor('every event in the store', async () => ([...api.controller.store.all()].filter((e) => e.involvedObject.name.startsWith(`bench-${b}-`)).reduce((n, e) => n + e.count, 0) === BURST_SIZE ? true : undefined), 60_000);
      await waitFor('a settled tree', async () => (tree.isSettled ? true : undefined), 60_000);
      times.push(Date.now() - start);
      refreshes.push(tree.refreshes - before);
    }
    assert.equal(times.length, BURSTS);
    report(`burst of ${BURST_SIZE} events to a settled tree: median ${median(times)} ms [${times.join(', ')}], refreshes per burst [${refreshes.join(', ')}]`);
  });
});
