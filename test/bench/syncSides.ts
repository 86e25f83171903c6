// The Node sides of the initial-sync benchmark, each run in a fresh child process so its
// peak resident memory and its event-loop stalls are its own:
//   ours  the extension's path through its narrowest surface: an ApiClient for the
//         kubeconfig's context, an EventObserver on every namespace into an EventStore
//         with the tree's live view attached, from start() to a store holding every
//         event and a view holding every group
//   bare  a plain paged list over one keep-alive agent: each page parsed, the next one
//         requested, then the page's items stored by UID and grouped by involved object
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ApiClient } from '../../src/cluster/apiRequest';
import { EventObserver } from '../../src/cluster/eventObserver';
import type { InitialSync } from '../../src/cluster/listWatch';
import { loadKubeconfig } from '../../src/cluster/kubeconfig';
import { restConfigFor } from '../../src/cluster/restConfig';
import type { WatchEncoding } from '../../src/cluster/watchItems';
import { EventStore } from '../../src/model/eventStore';
import type { EventFilter } from '../../src/model/filters';
import { seedFocus } from '../../src/model/focusSeed';
import { FOCUS_MIN_CAP } from '../../src/services/focusService';
import { startCpuWaitProbe, type CpuWaitFigures } from './cpuWait';
import { credentialsOf, KeepAliveClient } from './keepAlive';

/** Items per page of the bare list: what client-go's pager and the extension ask for. */
const PAGE_SIZE = 500;
/** The event-loop delay histogram's sampling period (ms): stalls are seen to this precision. */
const STALL_RESOLUTION_MS = 1;

export interface SyncFigures {
  readonly ms: number;
  /** From the start to the first events in the store's live view (what the tree shows first). */
  readonly firstMs?: number;
  readonly events: number;
  readonly groups: number;
  /** The longest event-loop stall during the sync (perf_hooks.monitorEventLoopDelay, max). */
  readonly maxStallMs: number;
  /** The longest stall split into time on a core and time waiting for one (Linux only). */
  readonly cpu?: CpuWaitFigures;
  /** The process's CPU time from the start to synced: user and system, every thread (V8's GC helpers too). */
  readonly cpuMs: number;
  /** The process's peak resident set (getrusage maxrss). */
  readonly peakRssMiB: number;
  /** The heap once the sync is over and garbage collected, the store still held. */
  readonly steadyHeapMiB: number;
  /** (steady heap - heap before the start) / events. */
  readonly heapPerEventBytes: number;
  /** Peak RSS less the RSS at the start, and steady heap less the heap at the start. */
  readonly rssGrowthMiB: number;
  readonly heapGrowthMiB: number;
}

const gc = (): void => {
  const f = (globalThis as { gc?: () => void }).gc;
  if (!f) throw new Error('run with --expose-gc');
  f();
  f();
};
const MiB = 1024 * 1024;

/** Measures f (which resolves with what it holds, events and groups) with the stall monitor on. */
async function measured(f: (start: number) => Promise<{ events: number; groups: number; hold: unknown; firstMs?: number }>): Promise<SyncFigures> {
  gc();
  const baseHeap = process.memoryUsage().heapUsed;
  const baseRss = process.memoryUsage().rss;
  const stalls = monitorEventLoopDelay({ resolution: STALL_RESOLUTION_MS });
  stalls.enable();
  const probe = startCpuWaitProbe();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const { events, groups, hold, firstMs } = await f(start);
  const ms = performance.now() - start;
  const cpuUsed = process.cpuUsage(cpuStart);
  stalls.disable();
  const cpu = probe?.stop();
  gc();
  const steadyHeap = process.memoryUsage().heapUsed;
  const figures: SyncFigures = {
    ms,
    firstMs,
    events,
    groups,
    maxStallMs: stalls.max / 1e6,
    cpu,
    cpuMs: (cpuUsed.user + cpuUsed.system) / 1000,
    peakRssMiB: (process.resourceUsage().maxRSS * 1024) / MiB,
    steadyHeapMiB: steadyHeap / MiB,
    heapPerEventBytes: (steadyHeap - baseHeap) / events,
    rssGrowthMiB: (process.resourceUsage().maxRSS * 1024 - baseRss) / MiB,
    heapGrowthMiB: (steadyHeap - baseHeap) / MiB,
  };
  // Held until here so the steady heap includes it.
  void hold;
  return figures;
}

/**
 * `fieldSelector` narrows the list as the warnings-only view does (`type=Warning`). `cap`: the
 * store's cap, as a user's settings have it (the default keeps the newest 20,000); without
 * it the cap is above the event count, so the figure is the time to the whole list in store.
 */
export async function oursSync(kubeconfig: string, expected: number, fieldSelector?: string, cap?: number, initialSync?: InitialSync, watchEncoding?: WatchEncoding): Promise<SyncFigures> {
  const client = new ApiClient(restConfigFor(loadKubeconfig(kubeconfig)));
  const store = new EventStore({ maxEvents: cap ?? expected * 2 });
  const held = Math.min(expected, cap ?? expected);
  // The tree's path: a live view attached before the list, kept current as pages arrive.
  const view = store.liveView();
  let observer: EventObserver | undefined;
  const figures = await measured(async (start) => {
    let firstMs: number | undefined;
    const first = view.onDidChange(() => {
      if (firstMs === undefined && view.groupCount > 0) firstMs = performance.now() - start;
    });
    const complete = new Promise<void>((resolve) => {
      const listener = store.onDidChange(() => {
        if (store.size >= held) {
          listener.dispose();
          resolve();
        }
      });
    });
    observer = new EventObserver(client, store, { fieldSelector, initialSync, watchEncoding });
    observer.start();
    await complete;
    // The sync is complete when the initial state is known complete (the list's last page, the
    // stream's end bookmark), as for client-go's HasSynced; a capped store is full long before.
    while (observer.listsCompleted === 0) await new Promise((r) => setTimeout(r, 1));
    await view.ready;
    first.dispose();
    if (initialSync !== undefined && observer.lastSync !== (initialSync === 'stream' ? 'streamed' : 'paged')) throw new Error(`asked to ${initialSync}, the sync was ${observer.lastSync ?? 'not complete'}`);
    if (initialSync === 'stream' && watchEncoding !== undefined && observer.lastWatchEncoding !== watchEncoding) throw new Error(`asked for ${watchEncoding}, the watch was ${observer.lastWatchEncoding ?? 'not read'}`);
    return { events: store.size, groups: view.groupCount, hold: store, firstMs };
  });
  view.dispose();
  await observer?.stop();
  return figures;
}

interface ListPage {
  items: { metadata: { uid: string }; involvedObject?: { kind?: string; namespace?: string; name?: string; uid?: string } }[];
  metadata: { continue?: string };
}

export async function bareSync(kubeconfig: string, expected: number): Promise<SyncFigures> {
  const client = new KeepAliveClient(await credentialsOf(kubeconfig), 2);
  const figures = await measured(async () => {
    const byUid = new Map<string, unknown>();
    const groups = new Map<string, unknown[]>();
    const path = (token?: string) => `/api/v1/events?limit=${PAGE_SIZE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    let next: Promise<string> | undefined = client.request('GET', path());
    while (next) {
      const page = JSON.parse(await next) as ListPage;
      // The next page is on its way while this one is stored.
      next = page.metadata.continue ? client.request('GET', path(page.metadata.continue)) : undefined;
      for (const item of page.items) {
        byUid.set(item.metadata.uid, item);
        const o = item.involvedObject ?? {};
        const key = `${o.kind}/${o.namespace}/${o.name}/${o.uid}`;
        const group = groups.get(key);
        if (group) group.push(item);
        else groups.set(key, [item]);
      }
    }
    return { events: byUid.size, groups: groups.size, hold: [byUid, groups] };
  });
  client.dispose();
  if (figures.events !== expected) throw new Error(`the bare list returned ${figures.events} events, not ${expected}`);
  return figures;
}

export interface SwitchFigures {
  /** Events the main store held when the view switched. */
  readonly held: number;
  /** Events the focused view showed at once (what the main store held and matched). */
  readonly seeded: number;
  /** From the switch to a focused view holding them (seeded, its live view built). */
  readonly readyMs: number;
  /** From the switch to the focused list complete (everything the apiserver has). */
  readonly completeMs: number;
  readonly events: number;
  /** The longest event-loop stall from the switch to complete. */
  readonly maxStallMs: number;
}

/**
 * The warnings-only view switched on after the main store has synced, as FocusService does
 * it: a store of its own seeded from the main one, its live view built (ready), then its
 * list+watch with the field selector until the list is in (complete). `mainCap`: the main
 * store's cap (the default 20,000 holds the newest events only).
 */
export async function oursSwitch(kubeconfig: string, mainCap: number, fieldSelector: string, filter: EventFilter, expected: number): Promise<SwitchFigures> {
  const client = new ApiClient(restConfigFor(loadKubeconfig(kubeconfig)));
  const main = new EventStore({ maxEvents: mainCap });
  const mainObserver = new EventObserver(client, main);
  mainObserver.start();
  while (mainObserver.listsCompleted === 0) await new Promise((r) => setTimeout(r, 50));
  const stalls = monitorEventLoopDelay({ resolution: STALL_RESOLUTION_MS });
  stalls.enable();
  const start = performance.now();
  const focus = new EventStore({ maxEvents: FOCUS_MIN_CAP });
  const seeded = await seedFocus(main, focus, filter);
  const observer = new EventObserver(client, focus, { fieldSelector });
  observer.start();
  const view = focus.liveView(filter);
  await view.ready;
  const readyMs = performance.now() - start;
  while (observer.listsCompleted === 0) await new Promise((r) => setTimeout(r, 5));
  const completeMs = performance.now() - start;
  stalls.disable();
  const figures = { held: main.size, seeded, readyMs, completeMs, events: focus.size, maxStallMs: stalls.max / 1e6 };
  view.dispose();
  await observer.stop();
  await mainObserver.stop();
  client.dispose();
  if (figures.events < expected) throw new Error(`the focused store holds ${figures.events} events, not the ${expected} the apiserver has`);
  return figures;
}
