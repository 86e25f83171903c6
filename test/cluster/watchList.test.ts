// The initial state streamed from the watch cache (watch-list, sendInitialEvents) against the
// real apiserver of each release: the same events as the paged list, byte for byte, for both
// event APIs, the field-selected views and the owners' metadata; the fallback to pages where the
// server refuses to stream (a release with the WatchList gate off, a proxy that drops the
// parameter); an apiserver SIGKILLed and one SIGSTOPped in the middle of the initial stream.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type * as net from 'node:net';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { ApiClient } from '../../src/cluster/apiRequest';
import { EventObserver } from '../../src/cluster/eventObserver';
import { ListWatch, type EventApi, type InitialSync, type ListWatchOptions, type RawObject } from '../../src/cluster/listWatch';
import { normalizeEvent, type RawEvent } from '../../src/cluster/normalize';
import type { WatchEncoding } from '../../src/cluster/watchItems';
import type { RestConfig } from '../../src/cluster/restConfig';
import { EventStore } from '../../src/model/eventStore';
import { ControlPlane } from '../env/controlPlane';
import { pollUntil } from '../support/wait';
import { controlPlaneDir, createNamespace, kubeConfigFor, restConfigOf } from './support';

/** Events in the namespace the faults interrupt: enough that the stream is still on its way when the first 500 are in. */
const FAULT_EVENTS = 4_000;
/** How long a fault lasts: past both the watch's silence (4 s) and a request's deadline. */
const FAULT_MS = 6_000;
/** The fault tests' request deadline, so a page asked of a frozen apiserver fails within the fault. */
const FAULT_DEADLINE_MS = 3_000;
const TEXT = '漢字 👩‍👩‍👧‍👦 مرحبا \u200F e\u0301 \u0007 <b>&amp;</b> ';

interface Sync {
  items: RawObject[];
  how: 'streamed' | 'paged' | undefined;
  refused: string | undefined;
  encoding: WatchEncoding | undefined;
}

/** One initial sync through a ListWatch, its items in arrival order (the watch after it is stopped). */
/** One initial sync to its end; with `untilWatching`, also until the watch after it has opened (how it is encoded is known then). */
async function syncOnce(config: RestConfig, options: ListWatchOptions, untilWatching = false): Promise<Sync> {
  const client = new ApiClient(config);
  let items: RawObject[] = [];
  let done = false;
  let watching = false;
  const watch = new ListWatch<RawObject>(client, options, {
    onListPage: (page, first) => {
      if (first) items = [];
      items.push(...page);
    },
    onListDone: () => {
      done = true;
    },
    onEvent: () => undefined,
    // A paged list is done before its watch opens.
    onState: (s) => s.phase === 'watching' && (watching = true),
  });
  try {
    watch.start();
    await pollUntil(untilWatching ? 'the initial state, and the watch after it' : 'the initial state', () => done && (watching || !untilWatching), 60_000, 20);
    return { items, how: watch.lastSync, refused: watch.streamRefused, encoding: watch.lastWatchEncoding };
  } finally {
    await watch.stop();
    client.dispose();
  }
}

/** The server's minor version (the WatchList gate is on by default from 1.34). */
async function serverMinor(config: RestConfig): Promise<number> {
  const client = new ApiClient(config);
  try {
    const v = await client.request<{ minor: string }>({ method: 'GET', path: '/version' });
    return Number.parseInt(v.minor, 10);
  } finally {
    client.dispose();
  }
}

/** Items by uid, each as its JSON text: what the two ways read must be identical. */
function byUid(items: RawObject[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of items) {
    const uid = (item as { metadata?: { uid?: string } }).metadata?.uid ?? '';
    assert.ok(!out.has(uid), `uid ${uid} came twice`);
    // A watch event's object names its kind and apiVersion; a list's items leave them to the list.
    const { kind: _kind, apiVersion: _apiVersion, ...rest } = item as { kind?: string; apiVersion?: string; metadata: Record<string, unknown> };
    const { resourceVersion: _rv, ...metadata } = rest.metadata;
    out.set(uid, JSON.stringify({ ...rest, metadata }));
  }
  return out;
}

/** Each object's resourceVersion, by uid. */
function versionsByUid(items: RawObject[]): Map<string, string | undefined> {
  const meta = (item: RawObject) => (item as { metadata?: { uid?: string; resourceVersion?: string } }).metadata;
  return new Map(items.map((item) => [meta(item)?.uid ?? '', meta(item)?.resourceVersion]));
}

/** Events by uid, each as the model the store keeps: what a protobuf stream and a JSON list read must agree on. */
function normalizedByUid(items: RawObject[], api: EventApi): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of items) {
    const { resourceVersion: _rv, ...e } = normalizeEvent(item as RawEvent, api);
    assert.ok(!out.has(e.uid), `uid ${e.uid} came twice`);
    out.set(e.uid, JSON.stringify(e));
  }
  return out;
}

/**
 * A plain-HTTP proxy in front of the apiserver that drops query parameters it does not know,
 * as some corporate proxies and API gateways do: it signs in with the admin's certificate.
 */
function droppingProxy(admin: RestConfig, drop: readonly string[]): Promise<{ server: http.Server; config: RestConfig }> {
  const upstream = new URL(admin.server);
  const read = (data: Buffer | undefined, file: string) => data ?? (file ? fs.readFileSync(file) : undefined);
  const tls = { ca: read(admin.tls.caData, admin.tls.caFile), cert: read(admin.tls.certData, admin.tls.certFile), key: read(admin.tls.keyData, admin.tls.keyFile) };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    for (const p of drop) url.searchParams.delete(p);
    const out = https.request({ host: upstream.hostname, port: upstream.port, path: `${url.pathname}${url.search}`, method: req.method, headers: { ...req.headers, host: upstream.host }, servername: 'localhost', ...tls }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    res.on('close', () => out.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({ server, config: { ...admin, server: `http://127.0.0.1:${port}`, tls: { ...admin.tls, caData: undefined, caFile: '', certData: undefined, certFile: '', keyData: undefined, keyFile: '' } } });
    }),
  );
}

describe('the initial state streamed from the watch cache (watch-list)', function () {
  this.timeout(240_000);
  let kc: KubeConfig;
  let admin: RestConfig;
  let namespace: string;
  let streams: boolean;
  let expectedHow: 'streamed' | 'paged';

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    admin = restConfigOf('admin.kubeconfig');
    namespace = await createNamespace(kc, 'watchlist');
    const core = kc.makeApiClient(CoreV1Api);
    for (let i = 0; i < FAULT_EVENTS; i += 100) {
      await Promise.all(Array.from({ length: Math.min(100, FAULT_EVENTS - i) }, (_, k) => {
        const n = i + k;
        return core.createNamespacedEvent({ namespace, body: { metadata: { name: `w-${String(n).padStart(5, '0')}` }, involvedObject: { kind: 'Pod', name: `p-${n % 13}`, namespace }, reason: n % 3 === 0 ? 'Failed' : 'Pulled', message: `${n} ${TEXT.repeat(1 + (n % 30))}`, type: n % 3 === 0 ? 'Warning' : 'Normal' } });
      }));
    }
    streams = (await serverMinor(admin)) >= 34;
    expectedHow = streams ? 'streamed' : 'paged';
  });

  it('reads what the paged list reads, byte for byte as JSON and event for event as protobuf, in both event APIs, warnings only, one object, and the owners\u2019 metadata', async () => {
    const cases: { what: string; options: ListWatchOptions }[] = [
      { what: 'core/v1, every namespace', options: { api: 'core/v1' } },
      { what: 'core/v1, one namespace', options: { api: 'core/v1', namespace } },
      { what: 'events.k8s.io/v1', options: { api: 'events.k8s.io/v1', namespace } },
      { what: 'warnings only', options: { api: 'core/v1', fieldSelector: 'type=Warning' } },
      { what: 'one object', options: { api: 'core/v1', namespace, fieldSelector: `involvedObject.kind=Pod,involvedObject.name=p-7` } },
      {
        what: 'pods, metadata only',
        options: { api: 'core/v1', resource: { path: '/api/v1/pods', what: 'pods', listAccept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', watchAccept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' } },
      },
    ];
    for (const { what, options } of cases) {
      const streamed = await syncOnce(admin, { ...options, initialSync: 'stream' satisfies InitialSync, watchEncoding: 'json' }, true);
      const paged = await syncOnce(admin, { ...options, initialSync: 'pages' });
      assert.equal(streamed.how, expectedHow, `${what}: ${streamed.refused ?? ''}`);
      assert.equal(paged.how, 'paged', what);
      assert.equal(streamed.encoding, 'json', `${what}: the watch read as JSON`);
      if (options.resource) {
        // Pods of the lively cluster come, go and change between the two reads (the crash
        // loop's annotations): those read at the same resourceVersion both ways must agree.
        const a = byUid(streamed.items);
        const b = byUid(paged.items);
        const va = versionsByUid(streamed.items);
        const vb = versionsByUid(paged.items);
        const both = [...a.keys()].filter((uid) => b.has(uid) && va.get(uid) === vb.get(uid));
        assert.ok(both.length >= Math.min(a.size, b.size) / 2 && both.length > 0, `${what}: ${both.length} pods read at one version both ways, of ${a.size} and ${b.size}`);
        for (const uid of both) assert.equal(a.get(uid), b.get(uid), `${what}: pod ${uid} read the same both ways`);
        continue;
      }
      // This test's namespace holds only the events it wrote: the two reads of it must be identical.
      const ours = (items: RawObject[]) => byUid(items.filter((i) => (i as { metadata?: { namespace?: string } }).metadata?.namespace === namespace));
      const a = ours(streamed.items);
      const b = ours(paged.items);
      assert.ok(a.size > 0, `${what}: something to compare`);
      assert.equal(a.size, b.size, `${what}: as many events both ways`);
      for (const [uid, text] of a) assert.ok(b.get(uid) === text, `${what}: ${uid} read the same both ways:\n${text}\n${b.get(uid)}`);
      // The default: the watch asks for protobuf (streamed where the server streams, watched after the pages where not).
      const proto = await syncOnce(admin, { ...options, initialSync: 'stream' }, true);
      assert.equal(proto.how, expectedHow, what);
      if (streams) {
        assert.equal(proto.encoding, 'protobuf', `${what}: the watch read as protobuf`);
        const inNamespace = (items: RawObject[]) => items.filter((i) => (i as { metadata?: { namespace?: string } }).metadata?.namespace === namespace);
        const p = normalizedByUid(inNamespace(proto.items), options.api);
        const j = normalizedByUid(inNamespace(paged.items), options.api);
        assert.equal(p.size, j.size, `${what}: as many events from protobuf`);
        for (const [uid, text] of j) assert.ok(p.get(uid) === text, `${what}: ${uid} from protobuf:\n${p.get(uid)}\n${text}`);
      }
      const expected = what === 'one object' ? Math.ceil((FAULT_EVENTS - 7) / 13) : what === 'warnings only' ? Math.ceil(FAULT_EVENTS / 3) : FAULT_EVENTS;
      assert.equal(a.size, expected, `${what}: every event of the namespace`);
    }
  });

  it('falls back to pages where the server or a proxy refuses to stream, and says why', async () => {
    const { server, config } = await droppingProxy(admin, ['sendInitialEvents']);
    try {
      const sync = await syncOnce(config, { api: 'core/v1', namespace, initialSync: 'stream' });
      assert.equal(sync.how, 'paged');
      assert.match(sync.refused ?? '', /^(400|422) /, 'the refusal is kept, with the code');
      assert.equal(byUid(sync.items).size, FAULT_EVENTS, 'every event once');
    } finally {
      server.close();
      server.closeAllConnections();
    }
    if (!streams) {
      // This release refuses sendInitialEvents itself (the WatchList gate is off by default before 1.34).
      const direct = await syncOnce(admin, { api: 'core/v1', namespace, initialSync: 'stream' });
      assert.equal(direct.how, 'paged');
      assert.match(direct.refused ?? '', /^422 .*sendInitialEvents/);
      assert.equal(byUid(direct.items).size, FAULT_EVENTS);
    }
  });

  for (const fault of ['SIGKILL', 'SIGSTOP'] as const) {
    it(`an apiserver ${fault === 'SIGKILL' ? 'killed (SIGKILL)' : 'frozen (SIGSTOP) past the watchdog'} in the middle of the initial state (streamed, or paged where refused): every event once, exact text, then watched`, async () => {
      const plane = ControlPlane.attach(controlPlaneDir());
      const store = new EventStore({ maxEvents: FAULT_EVENTS * 2 });
      // A frozen stream is caught by the watch's silence; a frozen page by the request's deadline.
      const observer = new EventObserver(new ApiClient(admin, FAULT_DEADLINE_MS), store, { namespaces: [namespace], watchSilenceMs: 4_000 });
      const phases: string[] = [];
      observer.onDidChangeState((states) => phases.push(states.get(namespace)?.phase ?? ''));
      let interruptedAt: number | undefined;
      const interrupt = store.onDidChange(() => {
        if (interruptedAt !== undefined || store.size < 500) return;
        interruptedAt = store.size;
        assert.equal(observer.listsCompleted, 0, 'the initial state was not complete yet');
        if (fault === 'SIGKILL') void plane.stopComponent('kube-apiserver', 'SIGKILL');
        else plane.freeze();
      });
      try {
        observer.start();
        await pollUntil('the interruption', () => interruptedAt !== undefined, 60_000, 20);
        assert.ok((interruptedAt ?? 0) < FAULT_EVENTS, `interrupted after ${interruptedAt} of ${FAULT_EVENTS}`);
        await new Promise((r) => setTimeout(r, FAULT_MS));
        if (fault === 'SIGKILL') await plane.startComponent('kube-apiserver');
        else plane.thaw();
        await pollUntil('the initial state complete', () => observer.listsCompleted > 0, 120_000, 50);
        // A new event after the restart arrives by the watch that followed the stream.
        const now = new Date();
        await kc.makeApiClient(CoreV1Api).createNamespacedEvent({ namespace, body: { metadata: { name: `after-${fault.toLowerCase()}` }, involvedObject: { kind: 'Pod', name: 'after', namespace }, reason: 'After', message: TEXT, type: 'Normal', firstTimestamp: now, lastTimestamp: now, count: 1 } });
        await pollUntil('the event after the fault', () => store.view().some((g) => g.object.name === 'after' && g.events.some((e) => e.reason === 'After')), 60_000);
        const events = [...store.all()].filter((e) => e.name?.startsWith('w-'));
        assert.equal(events.length, FAULT_EVENTS, 'none lost');
        assert.equal(new Set(events.map((e) => e.uid)).size, FAULT_EVENTS, 'none doubled');
        for (const e of events) {
          const n = Number(e.name?.slice(2));
          assert.equal(e.message, `${n} ${TEXT.repeat(1 + (n % 30))}`, `${e.name}: exact text`);
        }
        assert.equal(observer.lastSync, expectedHow);
        assert.ok(phases.includes('backoff'), `the sync failed and was tried again: ${[...new Set(phases)].join(', ')}`);
      } finally {
        interrupt.dispose();
        if (fault === 'SIGSTOP') {
          try {
            plane.thaw();
          } catch {
            /* not frozen */
          }
        }
        await observer.stop();
        if (fault === 'SIGKILL') await plane.restartControllers();
      }
    });
  }
});
