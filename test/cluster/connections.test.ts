// One keep-alive agent per cluster context (issue 12): the observer's list and watch, the
// commands' requests and the sink's writes share connections, counted at a real proxy
// (tinyproxy logs one CONNECT per connection); switching context closes them all.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { sinkPermissions } from '../../src/cluster/accessReview';
import { ClusterConnection } from '../../src/cluster/clusterConnection';
import { listResourceKinds } from '../../src/cluster/discovery';
import { ApiserverEventSink } from '../../src/cluster/eventSink';
import { EventStore } from '../../src/model/eventStore';
import type { Event } from '../../src/record/types';
import { ControlPlane, USER_TOKEN } from '../env/controlPlane';
import { startTinyproxy, type Peer } from './peers';
import { pollUntil } from '../support/wait';
import { controlPlaneDir } from './support';

describe('connections shared per context', function () {
  this.timeout(60_000);
  let proxy: Peer;
  let kubeconfig: string;

  before(async () => {
    const plane = ControlPlane.attach(controlPlaneDir());
    const dir = path.join(controlPlaneDir(), 'connections');
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    proxy = await startTinyproxy(dir);
    kubeconfig = path.join(dir, 'proxied.kubeconfig');
    const cluster = { server: plane.info.server, 'certificate-authority': path.join(controlPlaneDir(), 'pki', 'ca.crt'), 'proxy-url': proxy.url };
    const config = (name: string) => ({ name, context: { cluster: 'c', user: 'u', namespace: 'default' } });
    fs.writeFileSync(kubeconfig, yaml.dump({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'c', cluster }], users: [{ name: 'u', user: { token: USER_TOKEN } }], contexts: [config('one'), config('two')], 'current-context': 'one' }));
  });

  after(() => proxy.stop());

  // tinyproxy writes its log file once it has something to say: no file yet, no tunnel yet.
  const tunnels = () => (fs.existsSync(proxy.log) ? fs.readFileSync(proxy.log, 'utf8').match(/CONNECT 127\.0\.0\.1/g) ?? [] : []).length;

  it('the watch, 80 command requests and 10 sink writes use a handful of connections, and a context switch closes them', async () => {
    const before = tunnels();
    const connection = new ClusterConnection(new EventStore(), { kubeconfigPath: kubeconfig, namespaces: ['default'] });
    await connection.connect();
    await pollUntil('watching', () => connection.state?.get('default')?.phase === 'watching');
    const old = connection.newClient();
    for (let round = 0; round < 20; round++) {
      const client = connection.newClient();
      await client.request({ method: 'GET', path: '/api/v1/namespaces/default/events?limit=5' });
      await sinkPermissions(client);
      client.dispose();
    }
    const sink = new ApiserverEventSink(connection.newClient());
    for (let i = 0; i < 10; i++) {
      const now = new Date().toISOString();
      await sink.create({ metadata: { name: `shared.${Date.now()}.${i}`, namespace: 'default' }, involvedObject: { kind: 'ConfigMap', name: 'shared', namespace: 'default', apiVersion: 'v1' }, reason: 'Shared', message: 'm', type: 'Normal', source: { component: 'test' }, firstTimestamp: now, lastTimestamp: now, count: 1 } as unknown as Event);
    }
    const used = tunnels() - before;
    // One for the watch, one for everything else, taken in turn; one per request would be 92.
    assert.ok(used <= 3, `${used} connections for the list, the watch, 80 requests and 10 writes`);
    // Discovery asks every group at once: parallel requests need connections of their own, then they are reused.
    const kinds = await listResourceKinds(connection.newClient());
    const afterDiscovery = tunnels() - before;
    await listResourceKinds(connection.newClient());
    assert.equal(tunnels() - before, afterDiscovery, 'a second discovery reuses the first one\'s connections');
    console.log(`      connections opened: ${used} for the list, the watch, 80 requests and 10 sink writes; ${afterDiscovery - used} more for a parallel discovery of ${kinds.length} kinds, none for a second`);

    await connection.connect('two');
    await assert.rejects(old.request({ method: 'GET', path: '/api/v1' }), /the connection to .* was closed \(the context changed\)/);
    await connection.disconnect();
  });
});
