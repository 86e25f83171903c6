import * as assert from 'node:assert/strict';
import { normalizeEvent } from '../../../../src/cluster/normalize';
import type { ClusterEvent } from '../../../../src/model/clusterEvent';
import { EventStore } from '../../../../src/model/eventStore';
import { NO_FILTER } from '../../../../src/model/filters';
import { parseKustomization } from '../../../../src/model/manifests/kustomization';
import { ManifestIndex } from '../../../../src/model/manifests/manifestIndex';
import { ManifestStatus } from '../../../../src/model/manifests/manifestStatus';
import { parseManifests } from '../../../../src/model/manifests/parseManifests';
import { OwnerIndex } from '../../../../src/model/ownerIndex';
import { T0 } from '../fixtures';

function event(uid: string, o: { kind: string; name: string; uid: string; apiVersion: string; ns?: string }, reason: string, type = 'Warning', at = T0, count = 1): ClusterEvent {
  const t = new Date(at).toISOString();
  const namespace = o.ns ?? 'payments';
  return normalizeEvent({ metadata: { uid, name: `${o.name}.${uid}`, namespace }, involvedObject: { kind: o.kind, name: o.name, uid: o.uid, apiVersion: o.apiVersion, namespace }, type, reason, message: `${reason} on ${o.name}`, count, firstTimestamp: t, lastTimestamp: t }, 'core/v1');
}

function parsed(text: string) {
  const r = parseManifests(text);
  assert.ok('resources' in r);
  return r.resources;
}

const DEPLOY = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: checkout\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: checkout\n';
const pod = { kind: 'Pod', name: 'prod-checkout-7c9c-x1', uid: 'p1', apiVersion: 'v1' };

describe('manifest status', () => {
  function setup() {
    const store = new EventStore({ now: () => T0 });
    const owners = new OwnerIndex();
    owners.set({ kind: 'Pod', namespace: 'payments', name: pod.name, uid: 'p1', apiVersion: 'v1', owner: { kind: 'ReplicaSet', name: 'prod-checkout-7c9c', uid: 'rs1', apiVersion: 'apps/v1' } });
    owners.set({ kind: 'ReplicaSet', namespace: 'payments', name: 'prod-checkout-7c9c', uid: 'rs1', apiVersion: 'apps/v1', owner: { kind: 'Deployment', name: 'prod-checkout', uid: 'd1', apiVersion: 'apps/v1' } });
    const index = new ManifestIndex();
    index.setDefaultNamespace('payments');
    index.setKustomization('/w/base', parseKustomization('/w/base', 'resources: [app.yaml]\n'));
    index.setKustomization('/w/prod', parseKustomization('/w/prod', 'resources: [../base]\nnamePrefix: prod-\n'));
    index.setFile('/w/base/app.yaml', parsed(DEPLOY));
    index.setFile('/w/other.yaml', parsed('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n'));
    const status = new ManifestStatus({ group: (k) => store.group(k), view: () => store.view(NO_FILTER) }, owners, index);
    return { store, owners, index, status };
  }

  it("rolls a Deployment's pods' warnings up to its manifest, through the overlay's prefix", () => {
    const { store, status } = setup();
    store.batch(() => {
      store.upsert(event('e1', pod, 'BackOff', 'Warning', T0 - 7000, 22));
      store.upsert(event('e2', pod, 'BackOff', 'Warning', T0 - 60_000, 3));
      store.upsert(event('e3', pod, 'Pulled', 'Normal', T0 - 5000));
      store.upsert(event('e4', { kind: 'Deployment', name: 'prod-checkout', uid: 'd1', apiVersion: 'apps/v1' }, 'ScalingReplicaSet', 'Normal', T0 - 100_000));
    });
    assert.deepEqual([...status.rebuild()], ['/w/base/app.yaml']);
    const s = status.status('/w/base/app.yaml', 0, T0 - 3_600_000);
    assert.deepEqual(s.warnings.map((w) => [w.reason, w.count, w.lastSeen, w.object.name]), [['BackOff', 25, T0 - 7000, pod.name]]);
    assert.equal(s.events, 4);
    assert.equal(s.lastSeen, T0 - 5000);
    assert.deepEqual(s.objects.map((o) => o.kind), ['Deployment', 'Pod']);
    // The Service of the same name is another object.
    assert.equal(status.status('/w/base/app.yaml', 1, 0).events, 0);
    assert.deepEqual(status.newest('/w/base/app.yaml', 0, 2).map((e) => e.reason), ['Pulled', 'BackOff']);
    assert.equal(status.fileWarnings('/w/base/app.yaml', T0 - 3_600_000), 1);
  });

  it('maps a pod whose owners became known after its events, once rebuilt in slices', async () => {
    const { store, owners, status } = setup();
    const orphan = { kind: 'Pod', name: 'prod-checkout-5d-x2', uid: 'p2', apiVersion: 'v1' };
    store.upsert(event('e1', orphan, 'FailedScheduling'));
    status.rebuild();
    assert.equal(status.status('/w/base/app.yaml', 0, 0).warnings.length, 0);
    owners.set({ kind: 'Pod', namespace: 'payments', name: orphan.name, uid: 'p2', apiVersion: 'v1', owner: { kind: 'ReplicaSet', name: 'prod-checkout-7c9c', uid: 'rs1', apiVersion: 'apps/v1' } });
    const files = await status.rebuildInSlices();
    assert.deepEqual([...files], ['/w/base/app.yaml']);
    assert.deepEqual(status.status('/w/base/app.yaml', 0, 0).warnings.map((w) => w.reason), ['FailedScheduling']);
  });

  it('leaves a warning out once it is older than the window, and expired ones', () => {
    const { store, status } = setup();
    store.upsert(event('e1', pod, 'BackOff', 'Warning', T0 - 2 * 3_600_000));
    store.upsert(event('e2', pod, 'Unhealthy'));
    store.expire('e2');
    status.rebuild();
    const s = status.status('/w/base/app.yaml', 0, T0 - 3_600_000);
    assert.deepEqual(s.warnings, []);
    assert.equal(s.events, 2);
  });

  it('maps a new event by its own object alone, and a recreated object (new uid, same name) to the same manifest', () => {
    const { store, status } = setup();
    status.rebuild();
    let changed = new Set<string>();
    const sub = store.onDidChange((c) => (changed = status.update(c)));
    store.upsert(event('e1', { kind: 'ConfigMap', name: 'settings', uid: 'c1', apiVersion: 'v1' }, 'Invalid'));
    assert.deepEqual([...changed], ['/w/other.yaml']);
    store.upsert(event('e2', { kind: 'ConfigMap', name: 'settings', uid: 'c2', apiVersion: 'v1' }, 'Invalid'));
    assert.deepEqual([...changed], ['/w/other.yaml']);
    assert.equal(status.status('/w/other.yaml', 0, 0).warnings[0].count, 2);
    store.upsert(event('e3', { kind: 'ConfigMap', name: 'unrelated', uid: 'c3', apiVersion: 'v1' }, 'Invalid'));
    assert.deepEqual([...changed], []);
    sub.dispose();
  });

  it('does not map an object of another namespace or group', () => {
    const { store, status } = setup();
    store.upsert(event('e1', { kind: 'ConfigMap', name: 'settings', uid: 'c1', apiVersion: 'v1', ns: 'other' }, 'Invalid'));
    store.upsert(event('e2', { kind: 'Deployment', name: 'prod-checkout', uid: 'x', apiVersion: 'extensions.example/v1' }, 'Invalid'));
    status.rebuild();
    assert.equal(status.status('/w/other.yaml', 0, 0).events, 0);
    assert.equal(status.status('/w/base/app.yaml', 0, 0).events, 0);
  });
});
