// The workload roll-up's cost (issue 10). At 20,000 and 200,000 events on pods owned by
// ReplicaSets owned by Deployments: the roll-up built afresh (on switching to it, or after a
// new filter) at once and, as the tree does, in slices (its longest slice is the stall), and
// kept current per tree refresh after 5 events changed, beside the object
// grouping's own refresh of the same view (its reference: what the tree pays anyway); min
// and median of RUNS runs. Synchronous work: each of those times is also an event-loop stall.
import type { ClusterEvent } from '../../src/model/clusterEvent';
import { EventStore } from '../../src/model/eventStore';
import { OwnerIndex } from '../../src/model/ownerIndex';
import { Rollup, RollupBuild } from '../../src/model/rollup';
import { Slice } from '../../src/model/slices';
import { median, min } from './harness';

const RUNS = 5;
const SIZES = [20_000, 200_000];
/** Events per pod, pods per ReplicaSet, ReplicaSets per Deployment: a rolled-out Deployment. */
const EVENTS_PER_POD = 4;
const PODS_PER_RS = 5;
const RS_PER_DEPLOYMENT = 2;
const T0 = Date.parse('2026-01-01T00:00:00Z');

/** The pod's ReplicaSet and Deployment, and the namespace they are in. */
function placeOf(pod: number): { rs: number; deployment: number; ns: string } {
  const rs = Math.floor(pod / PODS_PER_RS);
  const deployment = Math.floor(rs / RS_PER_DEPLOYMENT);
  return { rs, deployment, ns: `team-${deployment % 17}` };
}

function podEvent(i: number, pod: number, time = T0 + i): ClusterEvent {
  const { rs, deployment, ns } = placeOf(pod);
  const name = `web-${deployment}-${rs % RS_PER_DEPLOYMENT}-${pod.toString(36)}`;
  const warning = i % 5 === 0;
  return {
    uid: `ev-${i}`, namespace: ns, name: `${name}.${i.toString(16)}`, resourceVersion: String(i), type: warning ? 'Warning' : 'Normal',
    reason: warning ? 'BackOff' : 'Pulled', message: warning ? `Back-off restarting failed container app in pod ${name}_${ns}` : `Container image "registry.example.com/${ns}/app:v1.${i % 97}" already present on machine`,
    count: 1, firstSeen: time, lastSeen: time, source: 'kubelet', sourceHost: `node-${pod % 40}`, reportingInstance: '', action: '',
    involvedObject: { kind: 'Pod', namespace: ns, name, uid: `pod-${pod}`, apiVersion: 'v1', fieldPath: '' }, origin: 'core/v1',
  };
}

function ownersOf(pods: number): OwnerIndex {
  const owners = new OwnerIndex();
  for (let pod = 0; pod < pods; pod++) {
    const { rs, deployment, ns } = placeOf(pod);
    const e = podEvent(0, pod);
    owners.set({ kind: 'Pod', namespace: ns, name: e.involvedObject.name, uid: `pod-${pod}`, apiVersion: 'v1', owner: { kind: 'ReplicaSet', name: `web-${deployment}-${rs % RS_PER_DEPLOYMENT}`, uid: `rs-${rs}-${ns}`, apiVersion: 'apps/v1' } });
    owners.set({ kind: 'ReplicaSet', namespace: ns, name: `web-${deployment}-${rs % RS_PER_DEPLOYMENT}`, uid: `rs-${rs}-${ns}`, apiVersion: 'apps/v1', owner: { kind: 'Deployment', name: `web-${deployment}`, uid: `d-${deployment}-${ns}`, apiVersion: 'apps/v1' } });
    owners.set({ kind: 'Deployment', namespace: ns, name: `web-${deployment}`, uid: `d-${deployment}-${ns}`, apiVersion: 'apps/v1' });
  }
  return owners;
}

async function main(): Promise<void> {
  console.log(`workload roll-up: a tree refresh after 5 events changed, and built afresh (runs: ${RUNS}); reference: the object grouping's refresh of the same view`);
  for (const n of SIZES) {
    const pods = n / EVENTS_PER_POD;
    const store = new EventStore({ maxEvents: n * 2 });
    store.batch(() => {
      for (let i = 0; i < n; i++) store.upsert(podEvent(i, i % pods));
    });
    const view = store.liveView();
    await view.ready;
    const owners = ownersOf(pods);
    const objectMs: number[] = [];
    const buildMs: number[] = [];
    const updateMs: number[] = [];
    let rollup: Rollup | undefined;
    for (let r = 0; r < RUNS; r++) {
      const t = performance.now();
      rollup = new Rollup(owners, 'lastSeen', view.groups());
      buildMs.push(performance.now() - t);
    }
    // As the tree builds it: in slices, the event loop free between them.
    const slicedMs: number[] = [];
    const longestStep: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const build = new RollupBuild(owners, 'lastSeen', view.groups());
      const start = performance.now();
      let longest = 0;
      for (;;) {
        const t = performance.now();
        const done = build.step(new Slice());
        longest = Math.max(longest, performance.now() - t);
        if (done) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      slicedMs.push(performance.now() - start);
      longestStep.push(longest);
    }
    const changed = new Set<string>();
    const listener = view.onDidChange((c) => c.groups.forEach((k) => changed.add(k)));
    for (let r = 0; r < RUNS; r++) {
      store.batch(() => {
        for (let k = 0; k < 5; k++) store.upsert(podEvent(n + r * 5 + k, (r * 997 + k * 131) % pods, T0 + n + r * 5 + k));
      });
      let t = performance.now();
      view.groups();
      objectMs.push(performance.now() - t);
      t = performance.now();
      (rollup as Rollup).update(changed, (key) => view.group(key));
      changed.clear();
      updateMs.push(performance.now() - t);
    }
    listener.dispose();
    const roots = (rollup as Rollup).roots.length;
    const ns = (ms: number) => ((ms * 1e6) / store.size).toFixed(0);
    console.log(`  ${store.size.toLocaleString('en')} events, ${view.groupCount.toLocaleString('en')} pods, ${roots.toLocaleString('en')} Deployments:`);
    console.log(`    object grouping, refresh:  min ${min(objectMs).toFixed(2)} ms, median ${median(objectMs).toFixed(2)} ms`);
    console.log(`    roll-up, refresh:          min ${min(updateMs).toFixed(2)} ms, median ${median(updateMs).toFixed(2)} ms; ratio roll-up / object grouping ${(median(updateMs) / Math.max(median(objectMs), 0.001)).toFixed(2)}`);
    console.log(`    roll-up, built at once:    min ${min(buildMs).toFixed(1)} ms, median ${median(buildMs).toFixed(1)} ms = ${ns(median(buildMs))} ns per stored event`);
    console.log(`    roll-up, built in slices (switching to it, a new filter): complete after min ${min(slicedMs).toFixed(1)} ms, median ${median(slicedMs).toFixed(1)} ms; longest slice min ${min(longestStep).toFixed(1)} ms, median ${median(longestStep).toFixed(1)} ms (stall goal: under 50 ms)`);
    view.dispose();
  }
}

main().catch((e: Error) => {
  console.error(e.stack ?? e.message);
  process.exit(1);
});
