// Our side of the watch-latency benchmark, in a child process of its own: an EventObserver
// on every namespace (as the extension watches) into an EventStore, and a keep-alive
// producer on a worker thread (as client-go's producer runs on goroutines beside its
// informer) creating events at a steady rate. Latency: from each create's response, read
// on the worker, to the store's change notification that holds the event, both on the
// process's monotonic clock.
import { Worker } from 'node:worker_threads';
import { ApiClient } from '../../src/cluster/apiRequest';
import { EventObserver } from '../../src/cluster/eventObserver';
import { loadKubeconfig } from '../../src/cluster/kubeconfig';
import { restConfigFor } from '../../src/cluster/restConfig';
import { EventStore } from '../../src/model/eventStore';
import type { Event } from '../../src/record/types';
import { credentialsOf } from './keepAlive';

/** How long arrivals are awaited after the last create. */
const DRAIN_MS = 10_000;

export interface LatencyFigures {
  readonly created: number;
  readonly arrived: number;
  readonly latenciesMs: number[];
  /** Events whose watch notification came before their create response (counted as 0). */
  readonly early: number;
  /** From each create's request (before it is sent) to the store. */
  readonly fromRequestMs: number[];
}

/** The producer: plain JavaScript run on a worker thread, one keep-alive agent. */
const PRODUCER = `
const { parentPort, workerData } = require('node:worker_threads');
const https = require('node:https');
const { credentials, namespace, template, prefix, rate, seconds } = workerData;
const url = new URL(credentials.server);
const agent = new https.Agent({ keepAlive: true, maxSockets: 16, ca: credentials.ca, cert: credentials.cert, key: credentials.key });
function create(body) {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: url.hostname, port: url.port, method: 'POST', path: '/api/v1/namespaces/' + namespace + '/events', agent, headers: { 'Content-Type': 'application/json', Accept: 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode < 300 ? resolve(process.hrtime.bigint()) : reject(new Error('create: HTTP ' + res.statusCode))));
    });
    req.on('error', reject);
    req.end(body);
  });
}
(async () => {
  const total = rate * seconds;
  const start = performance.now();
  const pending = [];
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const e = JSON.parse(template);
    e.metadata = { name: prefix + '.' + i, namespace };
    e.message = e.message + ' (' + i + ')';
    e.involvedObject.name = e.involvedObject.name + '-' + i;
    e.involvedObject.uid = e.involvedObject.uid + '-' + i;
    const name = e.metadata.name;
    const sent = process.hrtime.bigint();
    pending.push(create(JSON.stringify(e)).then((at) => parentPort.postMessage({ name, sent, at })));
  }
  await Promise.all(pending);
  agent.destroy();
  parentPort.postMessage({ done: true });
})().catch((e) => parentPort.postMessage({ error: e.message }));
`;

export async function oursLatency(kubeconfig: string, namespace: string, template: Event, prefix: string, rate: number, seconds: number): Promise<LatencyFigures> {
  const store = new EventStore({ maxEvents: 1_000_000 });
  const arrivedAt = new Map<string, bigint>();
  store.onDidChange((change) => {
    const now = process.hrtime.bigint();
    for (const key of change.groups) {
      for (const e of store.group(key)?.events ?? []) {
        if (e.name.startsWith(prefix) && !arrivedAt.has(e.name)) arrivedAt.set(e.name, now);
      }
    }
  });
  const observer = new EventObserver(new ApiClient(restConfigFor(loadKubeconfig(kubeconfig))), store);
  const watching = new Promise<void>((resolve) => {
    const listener = observer.onDidChangeState((states) => {
      if (states.get('')?.phase === 'watching') {
        listener.dispose();
        resolve();
      }
    });
  });
  observer.start();
  await watching;

  const createdAt = new Map<string, bigint>();
  const sentAt = new Map<string, bigint>();
  const worker = new Worker(PRODUCER, { eval: true, workerData: { credentials: await credentialsOf(kubeconfig), namespace, template: JSON.stringify(template), prefix, rate, seconds } });
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { name?: string; sent?: bigint; at?: bigint; done?: boolean; error?: string }) => {
      if (m.error) reject(new Error(`latency producer: ${m.error}`));
      else if (m.done) resolve();
      else {
        createdAt.set(m.name as string, m.at as bigint);
        sentAt.set(m.name as string, m.sent as bigint);
      }
    });
    worker.on('error', reject);
  });
  await worker.terminate();
  const total = rate * seconds;
  const deadline = Date.now() + DRAIN_MS;
  while (arrivedAt.size < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await observer.stop();

  const latenciesMs: number[] = [];
  const fromRequestMs: number[] = [];
  let early = 0;
  for (const [name, arrived] of arrivedAt) {
    const created = createdAt.get(name);
    if (created === undefined) continue;
    const ms = Number(arrived - created) / 1e6;
    if (ms < 0) early++;
    latenciesMs.push(Math.max(0, ms));
    fromRequestMs.push(Number(arrived - (sentAt.get(name) as bigint)) / 1e6);
  }
  return { created: createdAt.size, arrived: arrivedAt.size, latenciesMs, early, fromRequestMs };
}
