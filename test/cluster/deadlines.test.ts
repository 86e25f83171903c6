// Deadlines that hold: every kind of request fails within its deadline +10% against a TCP
// listener that accepts and never answers (so the TLS handshake hangs), a proxy that never
// answers CONNECT, and a SIGSTOPped real apiserver; then the list+watch loop reports a
// frozen apiserver, backs off, and after SIGCONT catches up with nothing lost or duplicated.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as yaml from 'js-yaml';
import { sinkPermissions } from '../../src/cluster/accessReview';
import { ApiClient } from '../../src/cluster/apiRequest';
import { listResourceKinds } from '../../src/cluster/discovery';
import { DeadlineError } from '../../src/cluster/errors';
import { EventObserver } from '../../src/cluster/eventObserver';
import { ApiserverEventSink } from '../../src/cluster/eventSink';
import { loadKubeconfig } from '../../src/cluster/kubeconfig';
import { resourcePath, type ListWatchState } from '../../src/cluster/listWatch';
import { restConfigFor, type RestConfig } from '../../src/cluster/restConfig';
import { EventStore } from '../../src/model/eventStore';
import type { Event } from '../../src/record/types';
import { ControlPlane, USER_TOKEN } from '../env/controlPlane';
import { pollUntil } from '../support/wait';
import { controlPlaneDir, createNamespace, kubeConfigFor, restConfigOf } from './support';

/** The deadline every request here gets. */
const DEADLINE_MS = 2_000;
/** How late a failure may come: the deadline +10%. */
const LATEST_MS = DEADLINE_MS * 1.1;

/** Each kind of request the extension sends, on one client. */
const KINDS: Record<string, (client: ApiClient, signal: AbortSignal) => Promise<unknown>> = {
  'list page': (c) => c.request({ method: 'GET', path: `${resourcePath('core/v1')}?limit=500` }),
  get: (c) => c.request({ method: 'GET', path: `${resourcePath('core/v1', 'default')}/nothing` }),
  discovery: (c) => listResourceKinds(c),
  'access review': (c) => sinkPermissions(c),
  'sink write': (c) => {
    const now = new Date().toISOString();
    const event = { metadata: { name: `deadline.${Date.now()}`, namespace: 'default' }, involvedObject: { kind: 'ConfigMap', name: 'x', namespace: 'default', apiVersion: 'v1' }, reason: 'Deadline', message: 'm', type: 'Normal', source: { component: 'test' }, firstTimestamp: now, lastTimestamp: now, count: 1 } as unknown as Event;
    return new ApiserverEventSink(c).create(event);
  },
  'watch until headers': (c, signal) => c.stream(`${resourcePath('core/v1')}?watch=1&allowWatchBookmarks=true`, signal),
};

const measured: string[] = [];

/** Runs every kind at once on fresh clients; each must fail with a DeadlineError in [deadline, deadline +10%]. */
async function everyKindTimesOut(where: string, config: RestConfig): Promise<void> {
  const results = await Promise.all(
    Object.entries(KINDS).map(async ([kind, send]) => {
      const client = new ApiClient(config, DEADLINE_MS);
      const stop = new AbortController();
      const started = performance.now();
      try {
        await send(client, stop.signal);
        return { kind, error: undefined, ms: performance.now() - started };
      } catch (e) {
        return { kind, error: e as Error, ms: performance.now() - started };
      } finally {
        stop.abort();
        client.dispose();
      }
    }),
  );
  for (const r of results) {
    measured.push(`${where.padEnd(34)} ${r.kind.padEnd(20)} deadline ${DEADLINE_MS} ms, failed after ${Math.round(r.ms)} ms`);
    assert.ok(r.error, `${r.kind} against ${where} did not fail`);
    assert.ok(r.error instanceof DeadlineError, `${r.kind} against ${where}: ${r.error.name}: ${r.error.message}`);
    assert.ok(r.ms >= DEADLINE_MS - 5, `${r.kind} against ${where} failed before its deadline: ${r.ms} ms`);
    assert.ok(r.ms <= LATEST_MS, `${r.kind} against ${where} failed after ${Math.round(r.ms)} ms, past ${LATEST_MS} ms`);
  }
}

describe('deadlines that hold', function () {
  this.timeout(180_000);
  let plane: ControlPlane;
  let silent: net.Server;
  const held: net.Socket[] = [];
  let silentPort: number;

  before(async () => {
    plane = ControlPlane.attach(controlPlaneDir());
    // Accepts every connection and never writes a byte.
    silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as net.AddressInfo).port;
  });

  after(async () => {
    for (const s of held) s.destroy();
    await new Promise((r) => silent.close(r));
    console.log(`\n      deadlines (deadline vs observed):\n${measured.map((m) => `        ${m}`).join('\n')}`);
  });

  function configFor(cluster: Record<string, unknown>): RestConfig {
    const file = path.join(controlPlaneDir(), `deadline-${Object.keys(cluster).join('-')}.kubeconfig`);
    const kubeconfig = { apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster: { 'certificate-authority': path.join(controlPlaneDir(), 'pki', 'ca.crt'), ...cluster } }], users: [{ name: 'u', user: { token: USER_TOKEN } }], contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }], 'current-context': 'x' };
    fs.writeFileSync(file, yaml.dump(kubeconfig));
    return restConfigFor(loadKubeconfig(file));
  }

  it('every request kind fails within its deadline +10% against a listener that never answers', async () => {
    await everyKindTimesOut('a listener that never answers', configFor({ server: `https://127.0.0.1:${silentPort}` }));
  });

  it('every request kind fails within its deadline +10% through a proxy that never answers CONNECT', async () => {
    await everyKindTimesOut('a proxy that never answers', configFor({ server: plane.info.server, 'proxy-url': `http://127.0.0.1:${silentPort}` }));
  });

  it('every request kind fails within its deadline +10% against a SIGSTOPped apiserver', async () => {
    const config = restConfigOf('admin.kubeconfig');
    plane.freeze();
    try {
      await everyKindTimesOut('a SIGSTOPped apiserver', config);
    } finally {
      plane.thaw();
    }
    // Thawed, the same requests work again.
    const client = new ApiClient(config, 30_000);
    await client.request({ method: 'GET', path: '/api/v1' });
    client.dispose();
  });

  it('the list+watch loop reports a frozen apiserver, backs off, and after SIGCONT has every event exactly once', async () => {
    const kc = kubeConfigFor('admin.kubeconfig');
    const namespace = await createNamespace(kc, 'frozen');
    const admin = restConfigOf('admin.kubeconfig');
    const producer = new ApiClient(admin, 120_000);
    const create = (i: number) => {
      const now = new Date().toISOString();
      return producer.request({
        method: 'POST',
        path: resourcePath('core/v1', namespace),
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Event', metadata: { name: `frozen-${i}` }, involvedObject: { kind: 'ConfigMap', name: `object-${i}`, namespace, apiVersion: 'v1' }, reason: 'Frozen', message: `event ${i}`, type: 'Normal', source: { component: 'test' }, firstTimestamp: now, lastTimestamp: now, count: 1 }),
      });
    };
    const store = new EventStore();
    const observer = new EventObserver(new ApiClient(admin, DEADLINE_MS), store, { namespaces: [namespace], watchSilenceMs: 3_000 });
    const states: ListWatchState[] = [];
    observer.onDidChangeState((s) => states.push(s.get(namespace) as ListWatchState));
    observer.start();
    try {
      for (let i = 0; i < 40; i++) await create(i);
      await pollUntil('the first 40 events', () => store.size === 40);
      await pollUntil('watching', () => observer.state.get(namespace)?.phase === 'watching');
      plane.freeze();
      let pending: Promise<unknown>[] = [];
      try {
        // Sent while frozen: the apiserver takes them when it wakes.
        pending = Array.from({ length: 40 }, (_, k) => create(40 + k));
        await pollUntil('a backoff after a request hit its deadline', () => states.some((s) => s.phase === 'backoff' && /no complete answer within 2 s/.test(s.error)), 30_000);
      } finally {
        plane.thaw();
      }
      await Promise.all(pending);
      await pollUntil('all 80 events after the thaw', () => store.size === 80 && observer.state.get(namespace)?.phase === 'watching', 90_000);
      const silentState = states.find((s) => s.phase === 'backoff' && /silent for 3 s/.test(s.error));
      assert.ok(silentState, `the frozen watch was noticed: ${states.map((s) => (s.phase === 'backoff' ? s.error : s.phase)).join(' → ')}`);
      const events = [...store.all()];
      assert.equal(events.length, 80);
      assert.equal(new Set(events.map((e) => e.name)).size, 80, 'no event twice');
      for (let i = 0; i < 80; i++) {
        const e = events.find((x) => x.name === `frozen-${i}`);
        assert.ok(e, `frozen-${i} arrived`);
        assert.equal(e.count, 1);
        assert.equal(e.message, `event ${i}`);
        assert.equal(e.expiredAt, undefined);
      }
    } finally {
      await observer.stop();
      producer.dispose();
    }
  });
});
