// npm run bench -- logs: a followed container log at 10,000 lines a second for 60 s, through
// the real apiserver's pods/log from KWOK's kubelet, the lines written to the container's log
// file as a container runtime writes them. Ours is Diagnose's host side in a Node process of
// its own, as the extension host runs it: LogFollower → LogBuffer → the panel's LogFeed, one
// message every UPDATE_MS serialized as postMessage does. Measured: the longest event-loop
// stall (what every extension in the host would feel), peak resident memory, lag from each
// line's kubelet timestamp to its arrival, and lines lost or out of order (the answer is 0).
// The reference is client-go following the same log (GetLogs with Follow, read by line).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ApiClient } from '../../src/cluster/apiRequest';
import { loadKubeconfig } from '../../src/cluster/kubeconfig';
import { LogFollower } from '../../src/cluster/podLogs';
import { restConfigFor } from '../../src/cluster/restConfig';
import { LOG_BUFFER_BYTES, LogBuffer } from '../../src/model/diagnose/logBuffer';
import { LogFeed, UPDATE_MS } from '../../src/views/diagnose/logFeed';
import { ControlPlane } from '../env/controlPlane';
import { criLine, kwokLogFile, LOGS_CONTAINER, LOGS_NAMESPACE } from '../env/kwokLogs';
import { ensureLogPods } from '../env/logPods';
import { repoRoot } from '../env/paths';
import { seedNodes } from '../env/seedCluster';
import { clientGo, clientGoBinary } from './clientGo';
import { benchChild, benchEntry, interleaved, median, printTable } from './harness';
import { KubeConfig } from '@kubernetes/client-node';

const RATE = Number(process.env.KEV_BENCH_LOG_RATE ?? 10_000);
const SECONDS = Number(process.env.KEV_BENCH_LOG_SECONDS ?? 60);
const RUNS = 3;
const POD = 'ticker';
/** The writer appends this often (a runtime writes as the container prints; 10 ms batches keep the rate even). */
const WRITE_EVERY_MS = 10;
/** The event-loop delay histogram's sampling period (ms). */
const LOOP_RESOLUTION_MS = 10;

interface Figures {
  readonly lines: number;
  readonly disordered: number;
  readonly missing: number;
  readonly lagP50Ms: number;
  readonly lagMaxMs: number;
  readonly maxRss: number;
  /** Ours only: the longest event-loop stall, and what the buffer held at the end. */
  readonly stallMs?: number;
  readonly heldBytes?: number;
  readonly messages?: number;
  /** Ours only: resident memory before following, and the live heap (after a full GC) it added by the end. */
  readonly rssAtStart?: number;
  readonly liveGrowth?: number;
}

/** One line as a busy web service logs it: the marker and sequence first, then a structured record. */
function line(marker: string, seq: number): string {
  const id = (seq * 2654435761) >>> 0;
  return `${marker} ${seq} time=${new Date().toISOString()} level=INFO msg="request served" method=GET path=/api/v1/orders/ord_${id.toString(36)} status=200 bytes=${(id % 9000) + 200} latency=${(id % 90) + 3}ms trace_id=${id.toString(16).padStart(8, '0')}${(id ^ 0x5bd1e995).toString(16).padStart(8, '0')}`;
}

/** Writes RATE lines a second for SECONDS to the file, in WRITE_EVERY_MS batches; resolves when done. */
function write(file: string, marker: string): Promise<void> {
  const total = RATE * SECONDS;
  const fd = fs.openSync(file, 'a');
  const start = performance.now();
  let written = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * RATE));
      if (due > written) {
        const now = new Date();
        let chunk = '';
        for (; written < due; written++) chunk += criLine(now, 'stdout', line(marker, written));
        fs.writeSync(fd, chunk);
      }
      if (written >= total) {
        clearInterval(timer);
        fs.closeSync(fd);
        resolve();
      }
    }, WRITE_EVERY_MS);
  });
}

/** Ours, in this file run as a child: follows until the last numbered line, then reports. */
async function oursChild(kubeconfig: string, marker: string, expect: number): Promise<Figures> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const live = () => {
    gc();
    const m = process.memoryUsage();
    return m.heapUsed + m.external;
  };
  const liveAtStart = live();
  const rssAtStart = process.memoryUsage().rss;
  const client = new ApiClient(restConfigFor(loadKubeconfig(kubeconfig)));
  const buffer = new LogBuffer();
  const feed = new LogFeed(buffer);
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  let maxRss = 0;
  let messages = 0;
  const rss = setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage().rss)), 100);
  const post = setInterval(() => {
    const m = feed.next();
    if (m) {
      JSON.stringify(m);
      messages++;
    }
  }, UPDATE_MS);
  const seen = new Uint8Array(expect);
  const lags: number[] = [];
  let next = 0;
  let disordered = 0;
  let done: () => void = () => undefined;
  const finished = new Promise<void>((r) => (done = r));
  const prefix = `${marker} `;
  const follower = new LogFollower(client, { namespace: LOGS_NAMESPACE, pod: POD, container: LOGS_CONTAINER }, { tailLines: 0 }, {
    onLines: (lines) => {
      const now = Date.now();
      buffer.add(lines);
      for (const l of lines) {
        if (!l.text.startsWith(prefix)) continue;
        lags.push(now - Date.parse(l.timestamp));
        const n = Number(l.text.slice(prefix.length, l.text.indexOf(' ', prefix.length)));
        if (seen[n] || n !== next) disordered++;
        seen[n] = 1;
        next = n + 1;
        if (n === expect - 1) done();
      }
    },
    onProblem: (p) => console.error(`problem: ${p.message}`),
  });
  loop.enable();
  follower.start();
  await finished;
  loop.disable();
  clearInterval(post);
  clearInterval(rss);
  await follower.stop();
  client.dispose();
  lags.sort((a, b) => a - b);
  // What the follow holds at the end, less the figures kept for this report (the lags, the seen bits).
  const liveGrowth = live() - liveAtStart - lags.length * 8 - seen.length;
  return {
    rssAtStart,
    liveGrowth,
    lines: lags.length,
    disordered,
    missing: seen.reduce((n, s) => n + (s ? 0 : 1), 0),
    lagP50Ms: lags[Math.floor(lags.length / 2)] ?? 0,
    lagMaxMs: lags[lags.length - 1] ?? 0,
    maxRss,
    stallMs: loop.max / 1e6,
    heldBytes: buffer.bytes,
    messages,
  };
}

function child(kubeconfig: string, marker: string, expect: number): Promise<Figures> {
  return benchChild(__filename, [kubeconfig, marker, String(expect)]);
}

/** One side's run: the follower started, the lines written, the follower's figures. */
async function run(plane: ControlPlane, follow: (marker: string, expect: number) => Promise<Figures>, marker: string): Promise<Figures> {
  const file = kwokLogFile(plane.info.dir, POD);
  // Each run starts from an empty file: a follow opened with tailLines=0 starts at its end.
  fs.truncateSync(file, 0);
  const expect = RATE * SECONDS;
  const following = follow(marker, expect);
  // The follow is open (its request on its way) before the first line is written.
  await new Promise((r) => setTimeout(r, 1000));
  await write(file, marker);
  return following;
}

async function main(): Promise<void> {
  clientGoBinary();
  const dir = path.join(repoRoot, '.run', 'bench-logs-plane');
  console.log('starting etcd, kube-apiserver, the controller manager (it lifts the new nodes\' not-ready taint), the scheduler and KWOK...');
  const plane = await ControlPlane.start(dir, undefined, ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok']);
  const kubeconfig = plane.info.adminKubeconfig;
  try {
    console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfig);
    await seedNodes(kc);
    await ensureLogPods(kc);
    console.log(`a followed log: ${RATE.toLocaleString('en-US')} lines/s for ${SECONDS} s (${(RATE * SECONDS).toLocaleString('en-US')} lines of ~${line('ours-0', 123456).length + 40} bytes), ${RUNS} runs a side, interleaved`);
    const ours: Figures[] = [];
    const go: Figures[] = [];
    await interleaved(RUNS, [
      { label: 'ours', run: async (r) => (ours.push(await run(plane, (m, n) => child(kubeconfig, m, n), `ours-${r}`)), 0) },
      { label: 'client-go', run: async (r) => (go.push(await run(plane, (m, n) => clientGo<Figures>(['logs', '-kubeconfig', kubeconfig, '-namespace', LOGS_NAMESPACE, '-pod', POD, '-container', LOGS_CONTAINER, '-marker', m, '-expect', String(n)]), `go-${r}`)), 0) },
    ]);
    const OURS = 'ours: LogFollower → LogBuffer → LogFeed';
    const GO = 'client-go: GetLogs(Follow).Stream, by line';
    printTable('longest event-loop stall while following', 'ms', [{ label: OURS, values: ours.map((f) => f.stallMs ?? 0), note: 'target < 50 ms; client-go reads on a goroutine (no loop to stall)' }], 0);
    printTable('peak resident memory', 'MiB', [
      { label: OURS, values: ours.map((f) => f.maxRss / 2 ** 20), vs: GO, note: `${median(ours.map((f) => (f.rssAtStart ?? 0) / 2 ** 20)).toFixed(0)} MiB of it before following (Node and the code)` },
      { label: GO, values: go.map((f) => f.maxRss / 2 ** 20) },
    ], 0);
    printTable('live memory the follow added, at the end (after a full GC)', 'MiB', [
      { label: OURS, values: ours.map((f) => (f.liveGrowth ?? 0) / 2 ** 20), note: `bound: the buffer's ${LOG_BUFFER_BYTES / 2 ** 20} MiB (it counts 2 bytes a character: it held ${(median(ours.map((f) => f.heldBytes ?? 0)) / 2 ** 20).toFixed(1)} MiB of log text)` },
    ], 1);
    printTable('lag from a line\'s kubelet timestamp to its arrival, median', 'ms', [
      { label: OURS, values: ours.map((f) => f.lagP50Ms), vs: GO },
      { label: GO, values: go.map((f) => f.lagP50Ms) },
    ], 0);
    printTable('lag, longest', 'ms', [
      { label: OURS, values: ours.map((f) => f.lagMaxMs), vs: GO },
      { label: GO, values: go.map((f) => f.lagMaxMs) },
    ], 0);
    printTable('lines lost or out of order (of each run\'s lines)', 'lines', [
      { label: OURS, values: ours.map((f) => f.missing + f.disordered) },
      { label: GO, values: go.map((f) => f.missing + f.disordered) },
    ], 0);
    console.log(`  ours posted ${median(ours.map((f) => f.messages ?? 0))} messages a run (one per ${UPDATE_MS} ms at most)`);
  } finally {
    await plane.stop();
  }
}

benchEntry(main, async ([kubeconfig, marker, expect]) => console.log(JSON.stringify(await oursChild(kubeconfig, marker, Number(expect)))));
