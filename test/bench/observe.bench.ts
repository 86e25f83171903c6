// Cluster observation against client-go on a real apiserver of our own, every side in the
// same run, interleaved (goals 1, 2 and 7 of issue 12):
//  1. Initial sync of 50,000 and of 200,000 realistic events: start to a complete, grouped
//     store; ours beside client-go's pager (500 per page), client-go's informer and a bare
//     Node paged list over keep-alive; kubectl as a second reference.
//  2. During our sync: the longest event-loop stall, peak RSS against the steady heap, and
//     heap per stored event.
//  3. Goal 6: the warnings-only view of the 200,000-event cluster (fieldSelector
//     type=Warning, a store of its own) from start to complete, beside client-go's pager
//     with the same selector; target under 1 s. Then the view switched to warnings only
//     after the sync, as users do: ready with the warnings already held, then complete.
//  4. Watch latency at 200 events/s, watching every namespace: create response to store
//     (ours) and to the informer's handler (client-go).
// Each Node side runs in a fresh child process (this file with `child ...`), so memory and
// stalls are its own; the client-go sides are test/bench/go, built by build.sh.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { Event } from '../../src/record/types';
import { ControlPlane } from '../env/controlPlane';
import { repoRoot } from '../env/paths';
import { clientGo, clientGoBinary, type GoSync } from './clientGo';
import type { CpuWaitFigures } from './cpuWait';
import { benchChild, benchEntry, interleaved, median, percentile, printTable, type Row } from './harness';
import { credentialsOf, KeepAliveClient } from './keepAlive';
import { oursLatency, type LatencyFigures } from './latencySide';
import { fillEvents, RealisticCluster } from './realistic';
import { autogroupsEnabled, inBackground } from './background';
import { bareSync, oursSwitch, oursSync, type SwitchFigures, type SyncFigures } from './syncSides';
import { DEFAULT_MAX_EVENTS } from '../../src/model/eventStore';

const NAMESPACES = 12;
/**
 * The two store sizes; KEV_BENCH_SIZES=5000,20000 runs a quick check of the benchmark itself,
 * and one size (KEV_BENCH_SIZES=50000) only the sections of the first size and the latency.
 */
const SIZES = process.env.KEV_BENCH_SIZES ? process.env.KEV_BENCH_SIZES.split(',').map(Number) : [50_000, 200_000];
/** Runs per side (interleaved); kubectl gets fewer at the larger size (it takes minutes). */
const RUNS = 3;
const KUBECTL_RUNS: Record<number, number> = { 50_000: 3, 200_000: 1 };
/** Requests in flight while filling the apiserver. */
const CREATE_CONCURRENCY = 32;
const LATENCY_RATE = 200;
const LATENCY_SECONDS = 10;
const LATENCY_NAMESPACE = 'latency';

const OURS = 'ours: EventObserver → EventStore';
const PAGER = 'client-go pager (500 per page)';
const PAGER_PLAIN = 'client-go pager, compression off';
const INFORMER = 'client-go informer (to HasSynced)';
const BARE = 'bare Node paged list (keep-alive)';
const KUBECTL = 'kubectl get events -A -o json';

/** Runs this file as a child: `child <mode> <json args>`; resolves with what it prints. */
function child<T>(mode: string, args: unknown): Promise<T> {
  return benchChild<T>(__filename, [mode, JSON.stringify(args)]);
}

async function childMain(mode: string, args: Record<string, unknown>): Promise<void> {
  const kubeconfig = args.kubeconfig as string;
  let out: unknown;
  if (mode === 'ours') out = await oursSync(kubeconfig, args.expected as number, args.fieldSelector as string | undefined, args.cap as number | undefined);
  else if (mode === 'bare') out = await bareSync(kubeconfig, args.expected as number);
  else if (mode === 'switch') out = await oursSwitch(kubeconfig, args.mainCap as number, WARNINGS_ONLY, WARNINGS_FILTER, args.expected as number);
  else if (mode === 'latency') out = await oursLatency(kubeconfig, LATENCY_NAMESPACE, args.template as Event, args.prefix as string, LATENCY_RATE, LATENCY_SECONDS);
  else throw new Error(`unknown child mode ${mode}`);
  console.log(JSON.stringify(out));
}

/** Runs a command with its output to /dev/null (the time is the command's, not a pipe's); resolves with ms. */
function timed(cmd: string, args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = fs.openSync(os.devNull, 'w');
    const start = performance.now();
    const proc = spawn(cmd, args, { stdio: ['ignore', out, 'inherit'] });
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const ms = performance.now() - start;
      fs.closeSync(out);
      if (code === 0) resolve(ms);
      else reject(new Error(`${path.basename(cmd)} exited with ${code}`));
    });
  });
}

/**
 * The kubeconfig with `disable-compression: true`: client-go asks even a local apiserver for
 * gzip, ours does not (src/cluster/compression.ts), so the pager is also timed without it.
 */
function uncompressed(kubeconfig: string): string {
  const config = yaml.load(fs.readFileSync(kubeconfig, 'utf8')) as { clusters: { cluster: Record<string, unknown> }[] };
  for (const c of config.clusters) c.cluster['disable-compression'] = true;
  const file = kubeconfig.replace(/(\.kubeconfig)?$/, '-uncompressed.kubeconfig');
  fs.writeFileSync(file, yaml.dump(config));
  return file;
}

async function syncBenchmark(kubeconfig: string, kubectl: string, created: number, controlPlanePids: readonly number[]): Promise<void> {
  // One untimed list first: it checks the count and warms the apiserver for every side alike.
  const expected = (await clientGo<{ events: number }>(['pager', '-kubeconfig', kubeconfig])).events;
  // The apiserver may record an event of its own meanwhile (kube-system, default): counted too.
  if (expected < created) throw new Error(`the apiserver holds ${expected} events, fewer than the ${created} created`);
  if (expected > created) console.log(`  (the apiserver holds ${expected - created} event${expected - created > 1 ? 's' : ''} of its own beside the ${created.toLocaleString('en-US')} created)`);
  const oursFigures: SyncFigures[] = [];
  const bareFigures: SyncFigures[] = [];
  const plain = uncompressed(kubeconfig);
  const goRss: number[] = [];
  const pagerCpu: number[] = [];
  const informerCpu: number[] = [];
  const sides = [
    {
      label: OURS,
      run: async () => {
        const f = await child<SyncFigures>('ours', { kubeconfig, expected });
        oursFigures.push(f);
        return f.ms;
      },
    },
    {
      label: PAGER,
      run: async () => {
        const f = await clientGo<GoSync>(['pager', '-kubeconfig', kubeconfig, '-expect', String(expected)]);
        goRss.push(f.peakRssMiB);
        pagerCpu.push(f.cpuMs);
        return f.ms;
      },
    },
    { label: PAGER_PLAIN, run: async () => (await clientGo<{ ms: number }>(['pager', '-kubeconfig', plain, '-expect', String(expected)])).ms },
    {
      label: INFORMER,
      run: async () => {
        const f = await clientGo<GoSync>(['informer', '-kubeconfig', kubeconfig, '-expect', String(expected)]);
        informerCpu.push(f.cpuMs);
        return f.ms;
      },
    },
    {
      label: BARE,
      run: async () => {
        const f = await child<SyncFigures>('bare', { kubeconfig, expected });
        bareFigures.push(f);
        return f.ms;
      },
    },
  ];
  const results = await interleaved(RUNS, sides);
  const kubectlRuns = KUBECTL_RUNS[expected] ?? RUNS;
  const kubectlMs: number[] = [];
  for (let r = 0; r < kubectlRuns; r++) kubectlMs.push(await timed(kubectl, ['--kubeconfig', kubeconfig, 'get', 'events', '-A', '-o', 'json']));

  const n = expected.toLocaleString('en-US');
  const groups = oursFigures[0].groups;
  printTable(`initial sync of ${n} events on ${groups.toLocaleString('en-US')} objects in ${NAMESPACES} namespaces, start to a complete grouped store, ${RUNS} runs interleaved`, 'ms', [
    { label: OURS, values: results.get(OURS) as number[], vs: PAGER, note: `target: at most ${SYNC_GOAL_RATIO.toFixed(2)}` },
    { label: `${OURS} (vs compression off)`, values: results.get(OURS) as number[], vs: PAGER_PLAIN },
    { label: PAGER, values: results.get(PAGER) as number[], note: 'asks for gzip, as client-go does' },
    { label: PAGER_PLAIN, values: results.get(PAGER_PLAIN) as number[], vs: PAGER, note: 'as ours asks a local apiserver' },
    { label: INFORMER, values: results.get(INFORMER) as number[], vs: PAGER },
    { label: BARE, values: results.get(BARE) as number[], vs: PAGER },
    { label: KUBECTL, values: kubectlMs, vs: PAGER, note: `second reference (${kubectlRuns} run${kubectlRuns > 1 ? 's' : ''}, after the others)` },
  ]);
  const ratio = oursFigures.map((f) => f.peakRssMiB / f.steadyHeapMiB);
  const rows: Row[] = [
    { label: 'ours: longest event-loop stall (ms)', values: oursFigures.map((f) => f.maxStallMs), note: 'target: under 50' },
    { label: 'ours: peak RSS (MiB)', values: oursFigures.map((f) => f.peakRssMiB) },
    { label: 'ours: steady heap, store held (MiB)', values: oursFigures.map((f) => f.steadyHeapMiB) },
    { label: 'ours: peak RSS / steady heap', values: ratio, decimals: 2, note: 'target: at most 2.00' },
    { label: 'ours: RSS growth / heap growth', values: oursFigures.map((f) => f.rssGrowthMiB / f.heapGrowthMiB), decimals: 2, note: 'what the sync held at its peak against what it keeps' },
    { label: 'ours: heap per stored event (bytes)', values: oursFigures.map((f) => f.heapPerEventBytes) },
    ...cpuRows('ours', oursFigures),
    { label: 'bare Node: longest event-loop stall (ms)', values: bareFigures.map((f) => f.maxStallMs) },
    ...cpuRows('bare Node', bareFigures),
    { label: 'bare Node: peak RSS (MiB)', values: bareFigures.map((f) => f.peakRssMiB) },
    { label: 'client-go pager: peak RSS (MiB)', values: goRss },
  ];
  printTable(`the same syncs of ${n} events: event loop and memory (each Node side in a fresh process)`, '', rows);
  printTable(`the same syncs of ${n} events: the client's CPU time, start to synced (user and system, every thread: V8's and Go's collectors too)`, 'ms', [
    { label: OURS, values: oursFigures.map((f) => f.cpuMs), vs: PAGER, note: 'on two cores shared with the control plane, less is less waiting' },
    { label: PAGER, values: pagerCpu },
    { label: INFORMER, values: informerCpu, vs: PAGER },
    { label: BARE, values: bareFigures.map((f) => f.cpuMs), vs: PAGER },
  ]);
  if (expected <= DEFAULT_MAX_EVENTS) return;
  // As a user's settings have it: the store keeps the newest DEFAULT_MAX_EVENTS of the list.
  const capped: SyncFigures[] = [];
  for (let r = 0; r < RUNS; r++) capped.push(await child<SyncFigures>('ours', { kubeconfig, expected, cap: DEFAULT_MAX_EVENTS }));
  printTable(`the sync of ${n} events into a store at its default cap (${DEFAULT_MAX_EVENTS.toLocaleString('en-US')}, the newest kept), start to the list complete, ${RUNS} runs`, '', [
    { label: 'ours: sync (ms)', values: capped.map((f) => f.ms) },
    { label: 'ours: longest event-loop stall (ms)', values: capped.map((f) => f.maxStallMs), note: 'target: under 50' },
    { label: 'ours: peak RSS (MiB)', values: capped.map((f) => f.peakRssMiB) },
    { label: 'ours: steady heap, store held (MiB)', values: capped.map((f) => f.steadyHeapMiB) },
  ]);
  await backgroundedSync(kubeconfig, expected, controlPlanePids);
}

/**
 * The sync again with the control plane in the background (background.ts): our stalls when
 * the cores are ours whenever we want them, as beside a remote apiserver, against the same
 * for the bare Node list. Linux only.
 */
async function backgroundedSync(kubeconfig: string, expected: number, pids: readonly number[]): Promise<void> {
  if (!autogroupsEnabled() || pids.length === 0) {
    console.log('  (the sync with the control plane in the background: skipped, the kernel does not schedule by autogroup)');
    return;
  }
  const ours: SyncFigures[] = [];
  const bare: SyncFigures[] = [];
  await inBackground(pids, () =>
    interleaved(RUNS, [
      { label: OURS, run: async () => (ours.push(await child<SyncFigures>('ours', { kubeconfig, expected })), ours[ours.length - 1].ms) },
      { label: BARE, run: async () => (bare.push(await child<SyncFigures>('bare', { kubeconfig, expected })), bare[bare.length - 1].ms) },
    ]),
  );
  printTable(`the sync of ${expected.toLocaleString('en-US')} events with etcd and the apiserver in the background (their autogroups at nice 19: the cores ours when we want them, as beside a remote apiserver), ${RUNS} runs interleaved`, '', [
    { label: 'ours: sync (ms)', values: ours.map((f) => f.ms), note: 'the apiserver now yields the cores to us' },
    { label: 'ours: longest event-loop stall (ms)', values: ours.map((f) => f.maxStallMs), note: 'target: under 50' },
    ...cpuRows('ours', ours),
    { label: 'bare Node: sync (ms)', values: bare.map((f) => f.ms) },
    { label: 'bare Node: longest event-loop stall (ms)', values: bare.map((f) => f.maxStallMs) },
    ...cpuRows('bare Node', bare),
  ]);
}

/** The stall's split (Linux): of the probe's longest gap, the time spent waiting for a core; and the most time on a core between two ticks. */
function cpuRows(side: string, figures: readonly SyncFigures[]): Row[] {
  const cpu = figures.map((f) => f.cpu);
  if (cpu.some((c) => c === undefined)) return [];
  const known = cpu as CpuWaitFigures[];
  return [
    { label: `${side}: longest probe gap (ms)`, values: known.map((c) => c.longestGapMs) },
    { label: `${side}:   of it waiting for a core (ms)`, values: known.map((c) => c.longestGapWaitMs), note: 'runnable, the cores busy elsewhere' },
    { label: `${side}: most time on a core in one gap (ms)`, values: known.map((c) => c.maxOnCpuMs), note: 'the code\'s own longest stall (to a scheduler tick)' },
  ];
}

async function latencyBenchmark(kubeconfig: string, producer: KeepAliveClient, template: Event): Promise<void> {
  const ours: LatencyFigures[] = [];
  const theirs: LatencyFigures[] = [];
  const templateFile = path.join(os.tmpdir(), `kev-latency-template-${process.pid}.json`);
  fs.writeFileSync(templateFile, JSON.stringify(template));
  const total = LATENCY_RATE * LATENCY_SECONDS;
  await interleaved(RUNS, [
    {
      label: 'ours',
      run: async (r) => {
        const f = await child<LatencyFigures>('latency', { kubeconfig, template, prefix: `ours-${r}` });
        ours.push(f);
        return f.arrived;
      },
    },
    {
      label: 'client-go',
      run: async (r) => {
        const f = await clientGo<LatencyFigures>(['latency', '-kubeconfig', kubeconfig, '-namespace', LATENCY_NAMESPACE, '-template', templateFile, '-prefix', `go-${r}`, '-rate', String(LATENCY_RATE), '-seconds', String(LATENCY_SECONDS)]);
        theirs.push(f);
        return f.arrived;
      },
    },
  ]);
  fs.rmSync(templateFile, { force: true });
  // Leave the apiserver with the events the sync benchmarks count, and no others.
  await producer.request('DELETE', `/api/v1/namespaces/${LATENCY_NAMESPACE}/events`);
  const p = (fs_: LatencyFigures[], q: number) => fs_.map((f) => percentile(f.latenciesMs, q));
  const arrived = (fs_: LatencyFigures[]) => fs_.map((f) => `${f.arrived}/${total}${f.early ? ` (${f.early} early)` : ''}`).join(', ');
  printTable(`watch latency: create response to the store, ${LATENCY_RATE} events/s for ${LATENCY_SECONDS} s, keep-alive producer, watch on all namespaces, ${RUNS} runs interleaved`, 'ms', [
    { label: 'ours p50', values: p(ours, 50), vs: 'client-go informer p50', decimals: 1 },
    { label: 'ours p90', values: p(ours, 90), vs: 'client-go informer p90', decimals: 1 },
    { label: 'ours p99', values: p(ours, 99), vs: 'client-go informer p99', decimals: 1, note: 'target: under 15' },
    { label: 'ours max', values: ours.map((f) => Math.max(...f.latenciesMs)), decimals: 1 },
    { label: 'client-go informer p50', values: p(theirs, 50), decimals: 1 },
    { label: 'client-go informer p90', values: p(theirs, 90), decimals: 1 },
    { label: 'client-go informer p99', values: p(theirs, 99), decimals: 1 },
    { label: 'client-go informer max', values: theirs.map((f) => Math.max(...f.latenciesMs)), decimals: 1 },
  ]);
  const q = (fs_: LatencyFigures[], x: number) => fs_.map((f) => percentile(f.fromRequestMs, x));
  printTable('the same events, from the create request (before it is sent) to the store: apiserver write and watch delivery included', 'ms', [
    { label: 'ours p50', values: q(ours, 50), vs: 'client-go informer p50', decimals: 1 },
    { label: 'ours p99', values: q(ours, 99), vs: 'client-go informer p99', decimals: 1 },
    { label: 'client-go informer p50', values: q(theirs, 50), decimals: 1 },
    { label: 'client-go informer p99', values: q(theirs, 99), decimals: 1 },
  ]);
  console.log(`  arrived: ours ${arrived(ours)}; client-go ${arrived(theirs)}`);
  console.log('  (on loopback the watch often delivers an event before its create response returns: such an event counts 0 ms, "early")');
  if ([...ours, ...theirs].some((f) => f.arrived < total)) throw new Error('events were lost on the watch');
}

/** The selector of the warnings-only view (src/services: the focus on warnings). */
const WARNINGS_ONLY = 'type=Warning';
/** The view's filter that FocusService narrows with WARNINGS_ONLY. */
const WARNINGS_FILTER = { types: ['Warning'] };
/** Goal 1: a sync takes at most this much of client-go's pager's time. */
const SYNC_GOAL_RATIO = 1.1;
/** Goal 6: a warnings-only view of the large cluster is ready (its first warnings shown) within this. */
const WARNINGS_ONLY_GOAL_MS = 1000;

async function warningsOnlyBenchmark(kubeconfig: string, clusterSize: number): Promise<void> {
  const expected = (await clientGo<{ events: number }>(['pager', '-kubeconfig', kubeconfig, '-field-selector', WARNINGS_ONLY])).events;
  const plain = uncompressed(kubeconfig);
  const oursFigures: SyncFigures[] = [];
  const sides = [
    {
      label: OURS,
      run: async () => {
        const f = await child<SyncFigures>('ours', { kubeconfig, expected, fieldSelector: WARNINGS_ONLY });
        oursFigures.push(f);
        return f.ms;
      },
    },
    { label: PAGER, run: async () => (await clientGo<{ ms: number }>(['pager', '-kubeconfig', kubeconfig, '-field-selector', WARNINGS_ONLY, '-expect', String(expected)])).ms },
    { label: PAGER_PLAIN, run: async () => (await clientGo<{ ms: number }>(['pager', '-kubeconfig', plain, '-field-selector', WARNINGS_ONLY, '-expect', String(expected)])).ms },
  ];
  const results = await interleaved(RUNS, sides);
  const ours = results.get(OURS) as number[];
  const first = oursFigures.map((f) => f.firstMs ?? NaN);
  const paced = median(ours) / median(results.get(PAGER) as number[]) <= SYNC_GOAL_RATIO;
  printTable(`warnings-only view of the ${clusterSize.toLocaleString('en-US')}-event cluster (fieldSelector ${WARNINGS_ONLY}: ${expected.toLocaleString('en-US')} events), start to a complete grouped store, ${RUNS} runs interleaved`, 'ms', [
    // No client can have the whole list sooner than the apiserver sends it: that is paced.
    { label: OURS, values: ours, vs: PAGER, note: `the apiserver's pace, target: at most ${SYNC_GOAL_RATIO.toFixed(2)}, ${paced ? 'met' : 'NOT met'}` },
    { label: 'ours: first warnings in the view (the first batch of the first page)', values: first, decimals: 1, note: `ready: under ${WARNINGS_ONLY_GOAL_MS} ms, ${Math.max(...first) < WARNINGS_ONLY_GOAL_MS ? 'met' : 'NOT met'}; the rest fill in as pages arrive` },
    { label: PAGER, values: results.get(PAGER) as number[] },
    { label: PAGER_PLAIN, values: results.get(PAGER_PLAIN) as number[], vs: PAGER },
    { label: 'ours: longest event-loop stall', values: oursFigures.map((f) => f.maxStallMs), note: 'target: under 50' },
  ]);
  // The usual way in: the view switched to warnings only once the main store has synced. The
  // focused view starts from the warnings the main store holds (src/model/focusSeed.ts).
  for (const mainCap of [DEFAULT_MAX_EVENTS, clusterSize * 2]) {
    const figures: SwitchFigures[] = [];
    for (let r = 0; r < RUNS; r++) figures.push(await child<SwitchFigures>('switch', { kubeconfig, mainCap, expected }));
    const held = figures[0].held.toLocaleString('en-US');
    const seeded = figures[0].seeded.toLocaleString('en-US');
    printTable(`switching the view to warnings only after the sync, the main store holding ${held} events (cap ${mainCap.toLocaleString('en-US')}): ${seeded} warnings shown at once, the other ${(expected - figures[0].seeded).toLocaleString('en-US')} from the apiserver's list, ${RUNS} runs`, 'ms', [
      { label: 'ours: view ready (the warnings held)', values: figures.map((f) => f.readyMs), decimals: 1, note: `target: under ${WARNINGS_ONLY_GOAL_MS} ms` },
      { label: 'ours: view complete (list in)', values: figures.map((f) => f.completeMs) },
      { label: 'ours: longest event-loop stall', values: figures.map((f) => f.maxStallMs), note: 'target: under 50' },
    ]);
  }
}

async function main(): Promise<void> {
  clientGoBinary();
  const dir = path.join(repoRoot, '.run', 'bench-control-plane');
  console.log('starting etcd and kube-apiserver for the benchmark...');
  const plane = await ControlPlane.start(dir, undefined, ['etcd', 'kube-apiserver']);
  const kubeconfig = plane.info.adminKubeconfig;
  const kubectl = path.join(plane.info.binDir, 'kubectl');
  const producer = new KeepAliveClient(await credentialsOf(kubeconfig), CREATE_CONCURRENCY);
  try {
    console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
    const first = new RealisticCluster(1, NAMESPACES, 'a');
    for (const ns of [...first.namespaceNames, LATENCY_NAMESPACE]) await producer.request('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
    await fillEvents(producer, CREATE_CONCURRENCY, first, SIZES[0]);
    const pids = [plane.info.pids.etcd, plane.info.pids['kube-apiserver']].filter((p): p is number => p !== undefined);
    await syncBenchmark(kubeconfig, kubectl, SIZES[0], pids);
    // A kubelet event about one pod, as the latency template (each copy gets its own pod).
    const kubeletEvent = new RealisticCluster(2, 1).events(1_000).find((e) => e.event.source?.component === 'kubelet') as { event: Event };
    const template: Event = { ...kubeletEvent.event, metadata: {} };
    template.involvedObject = { ...template.involvedObject, namespace: LATENCY_NAMESPACE };
    await latencyBenchmark(kubeconfig, producer, template);
    if (SIZES.length < 2) return;
    await fillEvents(producer, CREATE_CONCURRENCY, new RealisticCluster(3, NAMESPACES, 'b'), SIZES[1] - SIZES[0]);
    await syncBenchmark(kubeconfig, kubectl, SIZES[1], pids);
    await warningsOnlyBenchmark(kubeconfig, SIZES[1]);
  } finally {
    producer.dispose();
    await plane.stop();
  }
}

benchEntry(main, ([what, args]) => childMain(what, JSON.parse(args) as Record<string, unknown>));
