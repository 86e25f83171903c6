// The initial sync streamed from the watch cache (watch-list) against paged lists and
// client-go, every side in the same run, interleaved, at 50,000 and 200,000 realistic events:
//   ours streaming   EventObserver → EventStore, initialSync 'stream' (the default), its watch read as protobuf (the default)
//   ours streaming, JSON   the same, its watch read as JSON
//   ours paged       the same, initialSync 'pages'
//   client-go informer with its WatchListClient gate on (KUBE_FEATURE_WatchListClient=true)
//   client-go informer as released (paged list)
//   client-go pager (500 per page)
// client-go reads protobuf, as a typed client does for built-in types; its streaming informer
// and its pager also read JSON, as ours does, for the like-for-like comparison.
// For each: start to a complete store; the client's CPU time; and what the apiserver spent
// meanwhile, read from /proc (its CPU time and its peak resident set, reset before each
// side), with etcd's CPU beside it. Ours also reports the longest event-loop stall.
import * as os from 'node:os';
import * as path from 'node:path';
import type { InitialSync } from '../../src/cluster/listWatch';
import type { WatchEncoding } from '../../src/cluster/watchItems';
import { ControlPlane } from '../env/controlPlane';
import { repoRoot } from '../env/paths';
import { clientGo, clientGoBinary, type GoSync } from './clientGo';
import { benchChild, benchEntry, interleaved, median, printTable, type Row } from './harness';
import { credentialsOf, KeepAliveClient } from './keepAlive';
import { meterProcess, type ProcessFigures } from './processMeter';
import { fillEvents, RealisticCluster } from './realistic';
import { oursSync, type SyncFigures } from './syncSides';

const NAMESPACES = 12;
/** KEV_BENCH_SIZES=5000,20000 runs a quick check of the benchmark itself; KEV_BENCH_CPU_PROF=<dir> profiles our sides. */
const SIZES = process.env.KEV_BENCH_SIZES ? process.env.KEV_BENCH_SIZES.split(',').map(Number) : [50_000, 200_000];
const RUNS = 3;
const CREATE_CONCURRENCY = 32;

const STREAM = 'ours streaming (watch-list)';
const STREAM_JSON = 'ours streaming, JSON';
const PAGED = 'ours paged';
const GO_STREAM = 'client-go informer, WatchListClient on';
const GO_INFORMER = 'client-go informer, paged list';
const PAGER = 'client-go pager (500 per page)';
const GO_STREAM_JSON = 'client-go informer, WatchListClient on, JSON';
const PAGER_JSON = 'client-go pager, JSON';

/** Goals of issue 30: our streamed sync's time against the pager's and client-go's streaming informer's. */
const TIME_VS_PAGER = 0.8;
const TIME_VS_GO_STREAM = 1.0;
/** The apiserver's CPU during our sync at most the pager's; our client CPU at most this times the pager's. */
const CLIENT_CPU_VS_PAGER = 2.0;

interface Measured {
  readonly ms: number;
  readonly clientCpuMs: number;
  readonly apiserver: ProcessFigures;
  readonly etcd: ProcessFigures;
  readonly stallMs?: number;
  /** Of the longest stall, the time the main thread waited for a core (the apiserver and etcd share the two). */
  readonly stallWaitMs?: number;
  /** The most time the main thread ran on a core between two 5 ms probe ticks: our code's own longest stall. */
  readonly onCpuMs?: number;
}

interface ChildArgs {
  kubeconfig: string;
  expected: number;
  initialSync: InitialSync;
  watchEncoding?: WatchEncoding;
}

function child(args: ChildArgs): Promise<SyncFigures> {
  return benchChild(__filename, [JSON.stringify(args)]);
}

async function syncs(kubeconfig: string, plane: ControlPlane, created: number): Promise<void> {
  const expected = (await clientGo<{ events: number }>(['pager', '-kubeconfig', kubeconfig])).events;
  if (expected < created) throw new Error(`the apiserver holds ${expected} events, fewer than the ${created} created`);
  const apiserverPid = plane.info.pids['kube-apiserver'] as number;
  const etcdPid = plane.info.pids.etcd as number;
  const figures = new Map<string, Measured[]>();
  const metered = (label: string, f: () => Promise<Omit<Measured, 'apiserver' | 'etcd'>>) => ({
    label,
    run: async () => {
      const apiserver = meterProcess(apiserverPid);
      const etcd = meterProcess(etcdPid);
      const m = await f();
      const out = { ...m, apiserver: apiserver.stop(), etcd: etcd.stop() };
      figures.set(label, [...(figures.get(label) ?? []), out]);
      return out.ms;
    },
  });
  const ours = (initialSync: InitialSync, watchEncoding?: WatchEncoding) => async () => {
    const f = await child({ kubeconfig, expected, initialSync, watchEncoding });
    return { ms: f.ms, clientCpuMs: f.cpuMs, stallMs: f.maxStallMs, stallWaitMs: f.cpu?.longestGapWaitMs, onCpuMs: f.cpu?.maxOnCpuMs };
  };
  const go = (args: string[], env: Record<string, string> = {}) => async () => {
    const f = await clientGo<GoSync>([...args, '-kubeconfig', kubeconfig, '-expect', String(expected)], undefined, env);
    return { ms: f.ms, clientCpuMs: f.cpuMs };
  };
  await interleaved(RUNS, [
    metered(STREAM, ours('stream', 'protobuf')),
    metered(STREAM_JSON, ours('stream', 'json')),
    metered(PAGED, ours('pages')),
    metered(GO_STREAM, go(['informer'], { KUBE_FEATURE_WatchListClient: 'true' })),
    metered(GO_INFORMER, go(['informer'], { KUBE_FEATURE_WatchListClient: 'false' })),
    metered(PAGER, go(['pager'])),
    metered(GO_STREAM_JSON, go(['informer', '-json'], { KUBE_FEATURE_WatchListClient: 'true' })),
    metered(PAGER_JSON, go(['pager', '-json'])),
  ]);
  const n = expected.toLocaleString('en-US');
  const of = (label: string, pick: (m: Measured) => number) => (figures.get(label) as Measured[]).map(pick);
  const ratio = (a: string, b: string, pick: (m: Measured) => number) => median(of(a, pick)) / median(of(b, pick));
  const goal = (met: boolean, text: string) => `${text}, ${met ? 'met' : 'NOT met'}`;
  const labels = [STREAM, STREAM_JSON, PAGED, GO_STREAM, GO_INFORMER, PAGER, GO_STREAM_JSON, PAGER_JSON];
  const rows = (pick: (m: Measured) => number, vs: string): Row[] => labels.map((label) => ({ label, values: of(label, pick), vs: label === vs ? undefined : vs }));
  const time = rows((m) => m.ms, PAGER);
  time[0] = {
    ...time[0],
    note: `${goal(ratio(STREAM, PAGER, (m) => m.ms) <= TIME_VS_PAGER, `target: at most ${TIME_VS_PAGER.toFixed(2)} of the pager`)}; ${goal(ratio(STREAM, GO_STREAM, (m) => m.ms) <= TIME_VS_GO_STREAM, `${ratio(STREAM, GO_STREAM, (m) => m.ms).toFixed(2)} of client-go's streaming informer, target at most ${TIME_VS_GO_STREAM.toFixed(2)}`)}`,
  };
  printTable(`initial sync of ${n} events in ${NAMESPACES} namespaces, start to a complete store, ${RUNS} runs interleaved`, 'ms', time);
  const clientCpu = rows((m) => m.clientCpuMs, PAGER);
  clientCpu[0] = { ...clientCpu[0], note: goal(ratio(STREAM, PAGER, (m) => m.clientCpuMs) <= CLIENT_CPU_VS_PAGER, `target: at most ${CLIENT_CPU_VS_PAGER.toFixed(2)}`) };
  printTable(`the same syncs: the client's CPU time, start to synced (user and system, every thread)`, 'ms', clientCpu);
  const apiserverCpu = rows((m) => m.apiserver.cpuMs, PAGER);
  apiserverCpu[0] = { ...apiserverCpu[0], note: goal(ratio(STREAM, PAGER, (m) => m.apiserver.cpuMs) <= 1, 'target: at most the pager\'s') };
  printTable(`the same syncs: the apiserver's CPU time meanwhile (/proc/<pid>/stat)`, 'ms', apiserverCpu);
  printTable(`the same syncs: the apiserver's peak resident set meanwhile (VmHWM, reset before each side)`, 'MiB', rows((m) => m.apiserver.peakRssMiB, PAGER));
  printTable(`the same syncs: etcd's CPU time meanwhile`, 'ms', rows((m) => m.etcd.cpuMs, PAGER));
  printTable(`the same syncs: ours, the extension host's longest event-loop stall`, 'ms', [
    { label: STREAM, values: of(STREAM, (m) => m.stallMs ?? NaN), note: 'target: under 50' },
    { label: STREAM_JSON, values: of(STREAM_JSON, (m) => m.stallMs ?? NaN) },
    { label: PAGED, values: of(PAGED, (m) => m.stallMs ?? NaN) },
  ]);
  printTable(`the same stalls split by the main thread's schedstat: of the longest gap between 5 ms probe ticks, the time waiting for a core`, 'ms', [
    { label: STREAM, values: of(STREAM, (m) => m.stallWaitMs ?? NaN) },
    { label: STREAM_JSON, values: of(STREAM_JSON, (m) => m.stallWaitMs ?? NaN) },
    { label: PAGED, values: of(PAGED, (m) => m.stallWaitMs ?? NaN) },
  ]);
  printTable(`the most time on a core between two probe ticks (our code's own longest stall, to a scheduler tick)`, 'ms', [
    { label: STREAM, values: of(STREAM, (m) => m.onCpuMs ?? NaN), note: 'target: under 50' },
    { label: STREAM_JSON, values: of(STREAM_JSON, (m) => m.onCpuMs ?? NaN) },
    { label: PAGED, values: of(PAGED, (m) => m.onCpuMs ?? NaN) },
  ]);
}

async function main(): Promise<void> {
  clientGoBinary();
  const dir = path.join(repoRoot, '.run', 'bench-control-plane');
  console.log('starting etcd and kube-apiserver for the benchmark...');
  const plane = await ControlPlane.start(dir, undefined, ['etcd', 'kube-apiserver']);
  const kubeconfig = plane.info.adminKubeconfig;
  const producer = new KeepAliveClient(await credentialsOf(kubeconfig), CREATE_CONCURRENCY);
  try {
    console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; Kubernetes ${plane.kubectl(['version', '-o', 'json']).match(/"gitVersion":\s*"([^"]+)"/g)?.pop()?.split('"')[3] ?? '?'}`);
    let held = 0;
    for (const [i, size] of SIZES.entries()) {
      const cluster = new RealisticCluster(10 + i, NAMESPACES, `w${i}`);
      if (i === 0) for (const ns of cluster.namespaceNames) await producer.request('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
      await fillEvents(producer, CREATE_CONCURRENCY, cluster, size - held);
      held = size;
      await syncs(kubeconfig, plane, size);
    }
  } finally {
    producer.dispose();
    await plane.stop();
  }
}

benchEntry(main, async ([json]) => {
  const args = JSON.parse(json) as ChildArgs;
  console.log(JSON.stringify(await oursSync(args.kubeconfig, args.expected, undefined, undefined, args.initialSync, args.watchEncoding)));
});
