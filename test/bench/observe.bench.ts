// Cluster observation against kubectl, on a real apiserver of our own, in the same run:
//  1. 50,000 events: time from start to a complete, grouped store, against
//     `kubectl get events -A -o json` on the same server (median of 3 each; ratio).
//  2. Heap per stored event (after a full GC).
//  3. Latency from an event's create request to its arrival in the store, at 200 events/s.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { ApiClient } from '../../src/cluster/apiRequest';
import { EventObserver } from '../../src/cluster/eventObserver';
import { EventStore } from '../../src/model/eventStore';
import { kubeConfigFor, loadKubeconfig } from '../../src/cluster/kubeconfig';
import { ControlPlane } from '../env/controlPlane';
import { repoRoot } from '../env/paths';

const EVENTS = 50_000;
const NAMESPACES = 10;
const OBJECTS = 500;
const CREATE_CONCURRENCY = 32;
const RUNS = 3;
const RATE_PER_SECOND = 200;
const RATE_SECONDS = 15;

const run = promisify(execFile);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function eventBody(i: number, namespace: string): string {
  const object = `obj-${Math.floor(i / NAMESPACES) % OBJECTS}`;
  const now = new Date().toISOString();
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `bench.${i}.${Date.now().toString(16)}`, namespace },
    involvedObject: { kind: 'Pod', name: object, namespace, uid: `uid-${namespace}-${object}`, apiVersion: 'v1' },
    reason: i % 5 === 0 ? 'BackOff' : 'Pulled',
    message: `Container image "registry.example/app:${i % 97}" already present on machine (event ${i})`,
    type: i % 5 === 0 ? 'Warning' : 'Normal',
    source: { component: 'kubelet', host: `node-${i % 20}` },
    firstTimestamp: now,
    lastTimestamp: now,
    count: 1,
  });
}

async function createEvents(client: ApiClient, count: number): Promise<number> {
  const start = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const ns = `bench-${i % NAMESPACES}`;
      await client.request({ method: 'POST', path: `/api/v1/namespaces/${ns}/events`, body: eventBody(i, ns) });
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
  return Date.now() - start;
}

async function loadStore(client: ApiClient): Promise<{ ms: number; store: EventStore; groups: number }> {
  const store = new EventStore({ maxEvents: EVENTS * 2 });
  const start = process.hrtime.bigint();
  const observer = new EventObserver(client, store);
  observer.start();
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (observer.listsCompleted > 0) {
        clearInterval(check);
        resolve();
      }
    }, 1);
  });
  const groups = store.view().length;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  await observer.stop();
  return { ms, store, groups };
}

async function main(): Promise<void> {
  const dir = path.join(repoRoot, '.run', 'bench-control-plane');
  console.log('starting etcd and kube-apiserver for the benchmark...');
  const plane = await ControlPlane.start(dir, undefined, ['etcd', 'kube-apiserver']);
  try {
    const kc = kubeConfigFor(loadKubeconfig(plane.info.adminKubeconfig));
    const client = new ApiClient(kc);
    for (let n = 0; n < NAMESPACES; n++) await client.request({ method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: `bench-${n}` } }) });
    const createMs = await createEvents(client, EVENTS);
    console.log(`created ${EVENTS} events about ${OBJECTS * NAMESPACES} objects in ${(createMs / 1000).toFixed(1)} s (${Math.round(EVENTS / (createMs / 1000))}/s, ${CREATE_CONCURRENCY} at a time)`);

    // 2 first, on a quiet heap: heap per stored event.
    gc();
    gc();
    const baseline = process.memoryUsage().heapUsed;
    const held = await loadStore(new ApiClient(kc));
    gc();
    gc();
    const perEvent = (process.memoryUsage().heapUsed - baseline) / held.store.size;
    const heapLine = `heap per stored event: ${perEvent.toFixed(0)} bytes (${(perEvent / 1024).toFixed(2)} KiB; target: under 2 KiB), ${held.store.size} events held`;

    // 1. Ours against kubectl, alternating, median of RUNS.
    const kubectl = path.join(plane.info.binDir, 'kubectl');
    const ours: number[] = [];
    const theirs: number[] = [];
    let groups = 0;
    for (let r = 0; r < RUNS; r++) {
      const loaded = await loadStore(new ApiClient(kc));
      ours.push(loaded.ms);
      groups = loaded.groups;
      if (loaded.store.size !== EVENTS) throw new Error(`the store holds ${loaded.store.size} events, not ${EVENTS}`);
      const start = process.hrtime.bigint();
      const out = await run(kubectl, ['--kubeconfig', plane.info.adminKubeconfig, 'get', 'events', '-A', '-o', 'json'], { maxBuffer: 1 << 30 });
      theirs.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (!out.stdout.includes(`"bench.${EVENTS - 1}.`)) throw new Error('kubectl did not print every event');
    }
    console.log(`\nfull list of ${EVENTS} events (median of ${RUNS}):`);
    console.log(`  ours, start to a complete grouped store (${groups} groups): ${median(ours).toFixed(0)} ms   [${ours.map((x) => x.toFixed(0)).join(', ')}]`);
    console.log(`  kubectl get events -A -o json:                          ${median(theirs).toFixed(0)} ms   [${theirs.map((x) => x.toFixed(0)).join(', ')}]`);
    console.log(`  ratio ours / kubectl: ${(median(ours) / median(theirs)).toFixed(2)}  (target: at most 1.00)`);

    console.log(`\n${heapLine}`);

    // 3. Latency at a steady rate, while watching.
    const store = new EventStore({ maxEvents: EVENTS * 3 });
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    store.onDidChange((c) => {
      const now = performance.now();
      for (const key of c.groups) {
        for (const e of store.group(key)?.events ?? []) {
          const t = sentAt.get(e.name);
          if (t !== undefined) {
            latencies.push(now - t);
            sentAt.delete(e.name);
          }
        }
      }
    });
    const observer = new EventObserver(new ApiClient(kc), store, { namespaces: ['bench-0'] });
    observer.start();
    while (observer.state.get('bench-0')?.phase !== 'watching') await new Promise((r) => setTimeout(r, 10));
    const producer = new ApiClient(kc);
    const total = RATE_PER_SECOND * RATE_SECONDS;
    const start = performance.now();
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const body = JSON.parse(eventBody(EVENTS + i, 'bench-0')) as { metadata: { name: string } };
      body.metadata.name = `rate.${i}`;
      sentAt.set(body.metadata.name, performance.now());
      pending.push(producer.request({ method: 'POST', path: '/api/v1/namespaces/bench-0/events', body: JSON.stringify(body) }));
    }
    await Promise.all(pending);
    const deadline = Date.now() + 10_000;
    while (latencies.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await observer.stop();
    producer.dispose();
    console.log(`\nlatency from create request to the store at ${RATE_PER_SECOND} events/s for ${RATE_SECONDS} s (${latencies.length} of ${total} arrived):`);
    console.log(`  p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms  (target: p99 under 50 ms)`);
    client.dispose();
  } finally {
    await plane.stop();
  }
}

main().catch((e: Error) => {
  console.error(e.stack ?? e.message);
  process.exit(1);
});
