// Compressed responses, end to end: a context whose apiserver is not on this machine asks
// for gzip (as client-go does); one on loopback does not. The real apiserver is reached
// through a TCP forwarder on this machine's network address, so the same list is read both
// ways and compared: paged, read ahead from each gzipped page's head, every event once and
// byte for byte, multi-byte text included.
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import * as os from 'node:os';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { ApiClient } from '../../src/cluster/apiRequest';
import type { RawEvent } from '../../src/cluster/normalize';
import type { RestConfig } from '../../src/cluster/restConfig';
import { ClusterTransport } from '../../src/cluster/transport';
import { createNamespace, kubeConfigFor, listOnce, restConfigOf } from './support';

/** Events in the namespace: two pages of 500, each well over the apiserver's 128 KiB gzip threshold. */
const EVENTS = 700;

/** This machine's first address that is not loopback (the apiserver itself listens on 127.0.0.1). */
function networkAddress(): string {
  const all = Object.values(os.networkInterfaces()).flat().filter((a) => a && !a.internal);
  const a = all.find((x) => x?.family === 'IPv4') ?? all.find((x) => x?.family === 'IPv6' && !x.address.startsWith('fe80'));
  if (!a) throw new Error('this machine has no network address other than loopback to reach the apiserver through');
  return a.family === 'IPv6' ? `[${a.address}]` : a.address;
}

async function list(config: RestConfig, namespace: string): Promise<RawEvent[]> {
  const client = new ApiClient(config);
  const items: RawEvent[] = [];
  try {
    await listOnce(client, { api: 'core/v1', namespace }, (page) => void items.push(...page));
  } finally {
    client.dispose();
  }
  return items;
}

describe('compressed responses', function () {
  this.timeout(120_000);
  let kc: KubeConfig;
  let namespace: string;
  let forwarder: net.Server;
  let remote: RestConfig;
  const local = () => restConfigOf('admin.kubeconfig');

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    namespace = await createNamespace(kc, 'gzip');
    const core = kc.makeApiClient(CoreV1Api);
    const text = '漢字 👩‍👩‍👧‍👦 مرحبا \u200F e\u0301 ';
    for (let i = 0; i < EVENTS; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, EVENTS - i) }, (_, k) => {
        const n = i + k;
        return core.createNamespacedEvent({ namespace, body: { metadata: { name: `z-${String(n).padStart(4, '0')}` }, involvedObject: { kind: 'Pod', name: `p-${n % 9}`, namespace }, reason: 'Compressed', message: `${n} ${text.repeat(1 + (n % 40))}`, type: 'Normal' } });
      }));
    }
    const apiserver = new URL(local().server);
    forwarder = net.createServer((socket) => {
      const upstream = net.connect(Number(apiserver.port), apiserver.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    const address = networkAddress();
    await new Promise<void>((resolve) => forwarder.listen(0, address.replace(/^\[|\]$/g, ''), resolve));
    const port = (forwarder.address() as net.AddressInfo).port;
    // The apiserver's certificate names localhost: checked against that name, as tls-server-name does.
    remote = { ...local(), server: `https://${address}:${port}`, tls: { ...local().tls, serverName: 'localhost' } };
  });

  after(() => forwarder?.close());

  it('asks an apiserver elsewhere for gzip and one on this machine not, and reads the same list both ways, byte for byte', async () => {
    const encoding = async (config: RestConfig) => {
      const transport = new ClusterTransport(config);
      try {
        const res = await transport.open({ method: 'GET', path: `/api/v1/namespaces/${namespace}/events?limit=500` }, new AbortController().signal);
        res.resume();
        return res.headers['content-encoding'] ?? 'identity';
      } finally {
        transport.closeConnections();
      }
    };
    assert.equal(await encoding(remote), 'gzip', 'through the network address: compressed');
    assert.equal(await encoding(local()), 'identity', 'on loopback: not compressed');
    assert.equal(await encoding({ ...remote, disableCompression: true }), 'identity', 'disable-compression in the kubeconfig wins');

    const viaNetwork = await list(remote, namespace);
    const viaLoopback = await list(local(), namespace);
    assert.equal(viaNetwork.length, EVENTS);
    const view = (items: RawEvent[]) => items.map((e) => `${e.metadata?.name} ${e.metadata?.uid} ${e.message}`);
    assert.deepEqual(view(viaNetwork), view(viaLoopback));
    assert.equal(new Set(viaNetwork.map((e) => e.metadata?.uid)).size, EVENTS, 'every event once');
  });
});
