// The event store against the store it replaced ("before", kept below as it was, only as
// this benchmark's reference), in the same run, min and median of RUNS runs each:
//  1. The memory cap: 1,000,000 upserts through a 20,000 cap shaped as one object, 1,000
//     objects, and every event its own object: time per event and the worst single upsert
//     (goal: under 5 ms), and how many change notifications the evictions cost.
//  2. A filter change on a 200,000-event store: the longest event-loop stall
//     (monitorEventLoopDelay max; goal: under 50 ms) and the time until the view is complete.
//  3. A tree refresh after 5 events changed in 5 groups, and the warning badge, at 20,000
//     and 200,000 events: what the tree and the controller pay per refresh.
//  4. History at the default cap (20,000 realistic events): save (first, after 100 changes,
//     after none) and load: time, bytes written, longest stall, time until events show.
//  5. At 200,000 events: history pruned with half of it aged out together, then the storeCap
//     setting lowered to the default: time and the longest stall (goal: under 50 ms).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { objectKey, sortTime, type ClusterEvent } from '../../src/model/clusterEvent';
import { EventStore } from '../../src/model/eventStore';
import { matchesFilter, NO_FILTER, type EventFilter } from '../../src/model/filters';
import { median, min } from './harness';

const RUNS = 3;
const CAP = 20_000;
const UPSERTS = 1_000_000;
/** The old store can take seconds per upsert: each of its runs stops after this long. */
const BEFORE_BUDGET_MS = 12_000;
const FILTER_STORE = 200_000;
const STALL_GOAL_MS = 50;
const WORST_UPSERT_GOAL_MS = 5;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const fmt = (x: number, digits = 2) => x.toFixed(digits);
const stats = (xs: number[], digits = 2, unit = '') => `min ${fmt(min(xs), digits)}${unit}, median ${fmt(median(xs), digits)}${unit}`;

// ── Realistic events: kubelet-like messages, distinct strings ──────────────────────────

const T0 = Date.parse('2026-01-01T00:00:00Z');
const REASONS = ['Pulled', 'Created', 'Started', 'BackOff', 'Unhealthy', 'FailedScheduling', 'Killing', 'SuccessfulCreate'];

function realisticEvent(i: number, object: number, opts: { time?: number; count?: number } = {}): ClusterEvent {
  const reason = REASONS[i % REASONS.length];
  const warning = reason === 'BackOff' || reason === 'Unhealthy' || reason === 'FailedScheduling';
  const pod = `web-${object}-7d9f8c6b5-${(object * 7919).toString(36).slice(-5)}`;
  const ns = `team-${object % 17}`;
  const time = opts.time ?? T0 + i;
  const message = warning
    ? `Back-off restarting failed container app-${i % 13} in pod ${pod}_${ns}(${(i * 2654435761).toString(16)}): readiness probe failed: Get "http://10.${object % 250}.${i % 250}.7:8080/healthz": context deadline exceeded`
    : `Container image "registry.example.com/${ns}/app:v1.${i % 97}.${i % 13}" already present on machine; started container app-${i % 13} (event ${i})`;
  return {
    uid: `ev-${i.toString(36)}-${(i * 40503).toString(36)}`,
    namespace: ns,
    name: `${pod}.${(T0 + i).toString(16)}${i.toString(16)}`,
    resourceVersion: String(100000 + i),
    type: warning ? 'Warning' : 'Normal',
    reason,
    message,
    count: opts.count ?? 1,
    firstSeen: time,
    lastSeen: time,
    source: 'kubelet',
    sourceHost: `node-${object % 40}.cluster.internal`,
    reportingInstance: `node-${object % 40}`,
    action: '',
    involvedObject: { kind: 'Pod', namespace: ns, name: pod, uid: `pod-uid-${object}`, apiVersion: 'v1', fieldPath: `spec.containers{app-${i % 13}}` },
    origin: 'core/v1',
  };
}

// ── The store as it was before (the reference; only what the benchmark exercises) ──────

interface BeforeGroup {
  readonly key: string;
  readonly events: Map<string, ClusterEvent>;
  sorted: ClusterEvent[] | undefined;
  lastSeen: number;
  filtered: { filter: EventFilter; group: { key: string; events: ClusterEvent[]; lastSeen: number; warnings: number } | undefined } | undefined;
}

function byTimeNewestFirst(a: ClusterEvent, b: ClusterEvent): number {
  return sortTime(b) - sortTime(a) || Number(b.resourceVersion || 0) - Number(a.resourceVersion || 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

class BeforeStore {
  readonly events = new Map<string, ClusterEvent>();
  private readonly byName = new Map<string, string>();
  private readonly groups = new Map<string, BeforeGroup>();
  private readonly listeners: ((c: { groups: Set<string> }) => void)[] = [];
  evictions = 0;
  private pending: Set<string> | undefined;
  private batchDepth = 0;

  constructor(private readonly maxEvents: number) {}

  onDidChange(l: (c: { groups: Set<string> }) => void): void {
    this.listeners.push(l);
  }

  batch(f: () => void): void {
    this.batchDepth++;
    try {
      f();
    } finally {
      if (--this.batchDepth === 0) this.flush();
    }
  }

  upsert(e: ClusterEvent): void {
    const nameKey = `${e.namespace}/${e.name}`;
    const old = this.events.get(e.uid);
    if (old && objectKey(old.involvedObject) !== objectKey(e.involvedObject)) this.delete(e.uid);
    this.events.set(e.uid, e);
    this.byName.set(nameKey, e.uid);
    const key = objectKey(e.involvedObject);
    let group = this.groups.get(key);
    if (!group) {
      group = { key, events: new Map(), sorted: undefined, lastSeen: 0, filtered: undefined };
      this.groups.set(key, group);
    }
    group.events.set(e.uid, e);
    group.sorted = undefined;
    group.filtered = undefined;
    group.lastSeen = Math.max(group.lastSeen, sortTime(e));
    this.changed(key);
    if (this.events.size > this.maxEvents) this.evictOldestGroups();
  }

  view(filter: EventFilter): { key: string; events: ClusterEvent[]; lastSeen: number; warnings: number }[] {
    const out = [];
    for (const g of this.groups.values()) {
      if (g.filtered?.filter !== filter) {
        g.sorted ??= [...g.events.values()].sort(byTimeNewestFirst);
        const events = filter === NO_FILTER ? g.sorted : g.sorted.filter((e) => matchesFilter(e, filter));
        let warnings = 0;
        for (const e of events) if (e.type === 'Warning' && e.expiredAt === undefined) warnings++;
        g.filtered = { filter, group: events.length ? { key: g.key, events, lastSeen: sortTime(events[0]), warnings } : undefined };
      }
      if (g.filtered.group) out.push(g.filtered.group);
    }
    return out.sort((a, b) => b.lastSeen - a.lastSeen || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  saveHistory(file: string): void {
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ format: 1, savedAt: Date.now(), events: [...this.events.values()] }));
    fs.renameSync(tmp, file);
  }

  loadHistory(file: string): number {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { events: ClusterEvent[] };
    this.batch(() => {
      for (const e of saved.events) this.upsert(e);
    });
    return saved.events.length;
  }

  private delete(uid: string): void {
    const e = this.events.get(uid);
    if (!e) return;
    this.events.delete(uid);
    const nameKey = `${e.namespace}/${e.name}`;
    if (this.byName.get(nameKey) === uid) this.byName.delete(nameKey);
    const key = objectKey(e.involvedObject);
    const g = this.groups.get(key);
    if (g) {
      g.events.delete(uid);
      g.sorted = undefined;
      g.filtered = undefined;
      if (g.events.size === 0) this.groups.delete(key);
      else {
        let last = 0;
        for (const x of g.events.values()) last = Math.max(last, sortTime(x));
        g.lastSeen = last;
      }
    }
    this.changed(key);
  }

  private evictOldestGroups(): void {
    const target = Math.floor(this.maxEvents * 0.95);
    const oldestFirst = [...this.groups.values()].sort((a, b) => a.lastSeen - b.lastSeen);
    for (const g of oldestFirst) {
      if (this.events.size <= target) break;
      for (const uid of [...g.events.keys()]) {
        this.delete(uid);
        this.evictions++;
      }
    }
  }

  private changed(key: string): void {
    (this.pending ??= new Set()).add(key);
    if (this.batchDepth === 0) this.flush();
  }

  private flush(): void {
    if (!this.pending) return;
    const change = { groups: this.pending };
    this.pending = undefined;
    for (const l of this.listeners) l(change);
  }
}

// ── Measuring ───────────────────────────────────────────────────────────────────────────

/** Runs f with the event loop watched: its duration and the longest the loop waited. */
async function watched<T>(f: () => Promise<T> | T): Promise<{ ms: number; stallMs: number; result: T }> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  await new Promise((r) => setTimeout(r, 2));
  const start = performance.now();
  const result = await f();
  const ms = performance.now() - start;
  await new Promise((r) => setTimeout(r, 2));
  h.disable();
  return { ms, stallMs: h.max / 1e6, result };
}

type Shape = 'one object' | '1,000 objects' | 'every event its own object';
const SHAPES: Shape[] = ['one object', '1,000 objects', 'every event its own object'];
const objectOf = (shape: Shape, i: number) => (shape === 'one object' ? 0 : shape === '1,000 objects' ? i % 1000 : i);

interface CapRun {
  upserts: number;
  usPerEvent: number;
  worstMs: number;
  /** The worst upsert that no garbage collection pause overlapped. */
  worstNoGcMs: number;
  /** Upserts over the goal, and how many of those a GC pause overlapped. */
  over: number;
  overInGc: number;
  p9999Ms: number;
  notifications: number;
  evictions: number;
  size: number;
}

async function capRun(shape: Shape, which: 'before' | 'ours' | 'ours + view'): Promise<CapRun> {
  gc();
  const pauses: [number, number][] = [];
  const gcWatch = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) pauses.push([e.startTime, e.startTime + e.duration]);
  });
  gcWatch.observe({ entryTypes: ['gc'] });
  const slow: [number, number][] = [];
  const times = new Float64Array(UPSERTS);
  let notifications = 0;
  let store: { upsert(e: ClusterEvent): void; readonly size: number; readonly evictions: number };
  if (which === 'before') {
    const before = new BeforeStore(CAP);
    before.onDidChange(() => notifications++);
    store = {
      upsert: (e) => before.upsert(e),
      get size() {
        return before.events.size;
      },
      get evictions() {
        return before.evictions;
      },
    };
  } else {
    const ours = new EventStore({ maxEvents: CAP });
    ours.onDidChange(() => notifications++);
    if (which === 'ours + view') ours.liveView();
    store = ours;
  }
  let total = 0;
  let worst = 0;
  let i = 0;
  const deadline = which === 'before' ? performance.now() + BEFORE_BUDGET_MS : Infinity;
  for (; i < UPSERTS; i++) {
    const e = realisticEvent(i, objectOf(shape, i));
    const t = performance.now();
    store.upsert(e);
    const dt = performance.now() - t;
    total += dt;
    times[i] = dt;
    if (dt > worst) worst = dt;
    if (dt > 1) slow.push([t, t + dt]);
    if ((i & 1023) === 0 && performance.now() > deadline) break;
  }
  const upserts = Math.min(i + 1, UPSERTS);
  await new Promise((r) => setTimeout(r, 50));
  gcWatch.disconnect();
  const inGc = ([a, b]: [number, number]) => pauses.some(([c, d]) => c < b && d > a);
  const over = slow.filter(([a, b]) => b - a > WORST_UPSERT_GOAL_MS);
  const sorted = times.subarray(0, upserts).sort();
  return {
    upserts,
    usPerEvent: (total * 1000) / upserts,
    worstMs: worst,
    worstNoGcMs: Math.max(0, ...slow.filter((x) => !inGc(x)).map(([a, b]) => b - a)),
    over: over.length,
    overInGc: over.filter(inGc).length,
    p9999Ms: sorted[Math.floor(upserts * 0.9999)],
    notifications,
    evictions: store.evictions,
    size: store.size,
  };
}

async function benchCap(): Promise<void> {
  console.log(`\n1. memory cap: ${UPSERTS.toLocaleString('en')} upserts through a ${CAP.toLocaleString('en')} cap (runs: ${RUNS}; before stops after ${BEFORE_BUDGET_MS / 1000} s a run)`);
  for (const shape of SHAPES) {
    console.log(`  ${shape}:`);
    const results: Record<string, CapRun[]> = { before: [], ours: [], 'ours + view': [] };
    for (let r = 0; r < RUNS; r++) for (const which of ['before', 'ours', 'ours + view'] as const) results[which].push(await capRun(shape, which));
    for (const [which, runs] of Object.entries(results)) {
      const last = runs[runs.length - 1];
      console.log(
        `    ${which.padEnd(12)} ${stats(runs.map((x) => x.usPerEvent), 2, ' µs')}/event; worst upsert ${stats(runs.map((x) => x.worstMs), 1, ' ms')} ` +
          `(outside GC pauses ${stats(runs.map((x) => x.worstNoGcMs), 1, ' ms')}; p99.99 ${stats(runs.map((x) => x.p9999Ms), 3, ' ms')}; ` +
          `over ${WORST_UPSERT_GOAL_MS} ms: ${last.over} upserts, ${last.overInGc} of them in a GC pause)`,
      );
      console.log(`                 ${last.upserts.toLocaleString('en')} upserts, ${last.evictions.toLocaleString('en')} evicted, ${last.notifications.toLocaleString('en')} change notifications, ${last.size.toLocaleString('en')} left`);
    }
    const ratio = median(results.ours.map((x) => x.usPerEvent)) / median(results.before.map((x) => x.usPerEvent));
    const worst = Math.max(...results['ours + view'].map((x) => x.worstNoGcMs), ...results.ours.map((x) => x.worstNoGcMs));
    console.log(`    ratio ours / before (time per event): ${fmt(ratio, 3)}; worst upsert of ours outside GC pauses ${fmt(worst)} ms (goal: under ${WORST_UPSERT_GOAL_MS} ms) ${worst < WORST_UPSERT_GOAL_MS ? 'met' : 'NOT met'}`);
  }
}

// ── 2 and 3: views ──────────────────────────────────────────────────────────────────────

function fill(n: number, objects: number): { ours: EventStore; before: BeforeStore } {
  const ours = new EventStore({ maxEvents: n });
  const before = new BeforeStore(n);
  ours.batch(() => {
    for (let i = 0; i < n; i++) ours.upsert(realisticEvent(i, i % objects));
  });
  before.batch(() => {
    for (let i = 0; i < n; i++) before.upsert(realisticEvent(i, i % objects));
  });
  return { ours, before };
}

async function benchFilterChange(): Promise<void> {
  const objects = 5_000;
  console.log(`\n2. filter change on ${FILTER_STORE.toLocaleString('en')} events about ${objects.toLocaleString('en')} objects (runs: ${RUNS})`);
  const { ours, before } = fill(FILTER_STORE, objects);
  const filters: [string, () => EventFilter][] = [
    ['warnings only', () => ({ types: ['Warning'] })],
    ['text "deadline"', () => ({ text: 'deadline' })],
  ];
  for (const [name, make] of filters) {
    const b: { ms: number; stallMs: number }[] = [];
    const sync: { ms: number; stallMs: number }[] = [];
    const live: { ms: number; stallMs: number; first: number }[] = [];
    for (let r = 0; r < RUNS; r++) {
      gc();
      b.push(await watched(() => before.view(make()).length));
      gc();
      sync.push(await watched(() => ours.view(make()).length));
      gc();
      let view: ReturnType<EventStore['liveView']> | undefined;
      let first = 0;
      const w = await watched(async () => {
        const start = performance.now();
        view = ours.liveView(make());
        first = performance.now() - start;
        await view.ready;
        return view.groupCount;
      });
      view?.dispose();
      live.push({ ...w, first });
    }
    console.log(`  ${name}:`);
    console.log(`    before, view(filter):           ${stats(b.map((x) => x.ms), 0, ' ms')}; longest stall ${stats(b.map((x) => x.stallMs), 0, ' ms')}`);
    console.log(`    ours, view(filter) (at once):   ${stats(sync.map((x) => x.ms), 0, ' ms')}; longest stall ${stats(sync.map((x) => x.stallMs), 0, ' ms')}`);
    console.log(`    ours, liveView(filter) sliced:  ${stats(live.map((x) => x.ms), 0, ' ms')} until complete, first groups after ${stats(live.map((x) => x.first), 1, ' ms')}; longest stall ${stats(live.map((x) => x.stallMs), 1, ' ms')}`);
    const stall = median(live.map((x) => x.stallMs));
    console.log(`    ratio of longest stalls ours / before: ${fmt(stall / median(b.map((x) => x.stallMs)), 3)} (goal: under ${STALL_GOAL_MS} ms) ${Math.max(...live.map((x) => x.stallMs)) < STALL_GOAL_MS ? 'met' : 'NOT met'}`);
  }
}

async function benchRefresh(): Promise<void> {
  console.log(`\n3. one tree refresh after 5 events changed in 5 groups, and the warning badge (runs: ${RUNS}, 20 refreshes each)`);
  for (const n of [20_000, 200_000]) {
    const objects = n / 40;
    const { ours, before } = fill(n, objects);
    const filter: EventFilter = { types: ['Warning'] };
    const view = ours.liveView(filter);
    await view.ready;
    before.view(filter);
    const seen = new Set<string>();
    const beforeRuns: number[] = [];
    const oursRuns: number[] = [];
    const beforeBadge: number[] = [];
    const oursBadge: number[] = [];
    let next = n;
    for (let r = 0; r < RUNS; r++) {
      let tBefore = 0;
      let tOurs = 0;
      let bBefore = 0;
      let bOurs = 0;
      for (let k = 0; k < 20; k++) {
        const changes = Array.from({ length: 5 }, (_, j) => realisticEvent(next + j, (next * 31 + j * 977) % objects, { time: T0 + next + j }));
        next += 5;
        // Before: the change, then the tree's view(filter) (filters and sorts what changed, sorts every group).
        let t = performance.now();
        before.batch(() => changes.forEach((e) => before.upsert(e)));
        const groups = before.view(filter);
        void groups.map((g) => g.key).join('\n');
        tBefore += performance.now() - t;
        t = performance.now();
        void [...before.events.values()].filter((e) => e.type === 'Warning' && e.expiredAt === undefined && !seen.has(e.uid)).length;
        bBefore += performance.now() - t;
        // Ours: the change (the live view moves the changed groups), then the changed groups and whether the order moved.
        let orderChanged = false;
        const sub = view.onDidChange((c) => (orderChanged ||= c.orderChanged));
        t = performance.now();
        ours.batch(() => changes.forEach((e) => ours.upsert(e)));
        for (const e of changes) view.group(objectKey(e.involvedObject))?.newest(50);
        tOurs += performance.now() - t;
        sub.dispose();
        void orderChanged;
        t = performance.now();
        void ours.unseenWarnings.count;
        bOurs += performance.now() - t;
      }
      beforeRuns.push(tBefore / 20);
      oursRuns.push(tOurs / 20);
      beforeBadge.push(bBefore / 20);
      oursBadge.push(bOurs / 20);
    }
    console.log(`  ${n.toLocaleString('en')} events, ${objects.toLocaleString('en')} objects:`);
    console.log(`    refresh: before ${stats(beforeRuns, 3, ' ms')}; ours ${stats(oursRuns, 3, ' ms')}; ratio ${fmt(median(oursRuns) / median(beforeRuns), 4)}`);
    console.log(`    badge:   before ${stats(beforeBadge, 3, ' ms')}; ours ${stats(oursBadge, 4, ' ms')}`);
  }
}

// ── 4: history ──────────────────────────────────────────────────────────────────────────

async function benchHistory(): Promise<void> {
  const n = CAP;
  const objects = 2_000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kev-bench-history-'));
  const identity = JSON.stringify({ server: 'https://bench.example:6443', user: 'bench', context: 'bench' });
  try {
    const rows: Record<string, { ms: number; stallMs: number; bytes?: number; firstMs?: number }[]> = {};
    const add = (k: string, v: { ms: number; stallMs: number; bytes?: number; firstMs?: number }) => (rows[k] ??= []).push(v);
    let fileBytes = 0;
    for (let r = 0; r < RUNS; r++) {
      const run = path.join(dir, `run-${r}`);
      fs.mkdirSync(run);
      // Before: the whole store as one JSON file, written and read synchronously.
      const before = new BeforeStore(n);
      before.batch(() => {
        for (let i = 0; i < n; i++) before.upsert(realisticEvent(i, i % objects));
      });
      const beforeFile = path.join(run, 'before.json');
      gc();
      add('before: save', await watched(() => before.saveHistory(beforeFile)));
      fileBytes = fs.statSync(beforeFile).size;
      add('before: save, nothing changed', { ...(await watched(() => before.saveHistory(beforeFile))), bytes: fileBytes });
      gc();
      add('before: load', await watched(() => new BeforeStore(n).loadHistory(beforeFile)));

      // Ours.
      const ours = new EventStore({ historyFolder: run, maxEvents: n });
      await ours.loadHistory(identity);
      ours.batch(() => {
        for (let i = 0; i < n; i++) ours.upsert(realisticEvent(i, i % objects));
      });
      const size = () => fs.statSync(ours.historyLog?.file as string).size;
      gc();
      const first = await watched(() => ours.saveHistory());
      add('ours: first save (whole log)', { ...first, bytes: size() });
      for (let i = 0; i < 100; i++) ours.upsert(realisticEvent(i * 97, (i * 97) % objects, { count: 2 + r, time: T0 + n + i }));
      let was = size();
      add('ours: save after 100 changes', { ...(await watched(() => ours.saveHistory())), bytes: size() - was });
      was = size();
      add('ours: save, nothing changed', { ...(await watched(() => ours.saveHistory())), bytes: size() - was });
      gc();
      const loaded = new EventStore({ historyFolder: run, maxEvents: n });
      let firstMs = 0;
      const start = performance.now();
      const sub = loaded.onDidChange(() => {
        if (!firstMs && loaded.size > 0) firstMs = performance.now() - start;
      });
      const load = await watched(() => loaded.loadHistory(identity));
      sub.dispose();
      if (loaded.size !== n) throw new Error(`loaded ${loaded.size} events, not ${n}`);
      add('ours: load', { ...load, firstMs });
    }
    console.log(`\n4. history of ${n.toLocaleString('en')} realistic events (the old file: ${(fileBytes / 1048576).toFixed(1)} MiB; runs: ${RUNS})`);
    for (const [k, v] of Object.entries(rows)) {
      const bytes = v[0].bytes !== undefined ? `; ${stats(v.map((x) => (x.bytes as number) / 1024), 1, ' KiB')} written` : '';
      const firstMs = v[0].firstMs !== undefined ? `; first events shown after ${stats(v.map((x) => x.firstMs as number), 1, ' ms')}` : '';
      console.log(`  ${k.padEnd(32)} ${stats(v.map((x) => x.ms), 1, ' ms')}; longest stall ${stats(v.map((x) => x.stallMs), 1, ' ms')}${bytes}${firstMs}`);
    }
    const ratio = (a: string, b: string) => fmt(median(rows[a].map((x) => x.stallMs)) / median(rows[b].map((x) => x.stallMs)), 3);
    console.log(`  ratio of longest stalls ours / before: save ${ratio('ours: first save (whole log)', 'before: save')}, load ${ratio('ours: load', 'before: load')} (goal: under ${STALL_GOAL_MS} ms)`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function benchPruneAndCap(): Promise<void> {
  const objects = 5_000;
  const hour = 3_600_000;
  console.log(`\n5. ${FILTER_STORE.toLocaleString('en')} events about ${objects.toLocaleString('en')} objects: half of them history that aged out together, pruned; then the cap lowered to ${CAP.toLocaleString('en')} (runs: ${RUNS})`);
  const prune: { ms: number; stallMs: number; result: number }[] = [];
  const lower: { ms: number; stallMs: number; result: number }[] = [];
  for (let r = 0; r < RUNS; r++) {
    let now = T0 + FILTER_STORE;
    const store = new EventStore({ maxEvents: FILTER_STORE, historyWindowMs: hour, now: () => now });
    store.batch(() => {
      for (let i = 0; i < FILTER_STORE; i++) store.upsert(realisticEvent(i, i % objects));
    });
    // Expired by one relist, so they age out in the same minute.
    store.batch(() => {
      for (let i = 0; i < FILTER_STORE / 2; i++) store.expire(realisticEvent(i, i % objects).uid);
    });
    now += 2 * hour;
    gc();
    prune.push(await watched(() => store.pruneHistory()));
    gc();
    lower.push(await watched(() => store.setMaxEvents(CAP)));
    if (store.size !== CAP) throw new Error(`the cap left ${store.size} events`);
  }
  const line = (label: string, xs: { ms: number; stallMs: number; result: number }[]) =>
    console.log(`  ${label} ${xs[0].result.toLocaleString('en')}: ${stats(xs.map((x) => x.ms), 0, ' ms')}; longest stall ${stats(xs.map((x) => x.stallMs), 1, ' ms')} (goal: under ${STALL_GOAL_MS} ms) ${Math.max(...xs.map((x) => x.stallMs)) < STALL_GOAL_MS ? 'met' : 'NOT met'}`);
  line('pruned', prune);
  line('cap lowered, dropped', lower);
}

async function main(): Promise<void> {
  const only = process.env.STORE_BENCH_ONLY;
  if (!only || only.includes('cap')) await benchCap();
  if (!only || only.includes('filter')) await benchFilterChange();
  if (!only || only.includes('refresh')) await benchRefresh();
  if (!only || only.includes('history')) await benchHistory();
  if (!only || only.includes('prune')) await benchPruneAndCap();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
