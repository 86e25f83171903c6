// Views the apiserver narrows for us, against the real control plane: with a main store
// whose cap has dropped older events, a warnings-only list+watch (type=Warning) and one
// object's (involvedObject.uid=...) still hold everything the cluster has.
import * as assert from 'node:assert/strict';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { ApiClient } from '../../src/cluster/apiRequest';
import { EventObserver } from '../../src/cluster/eventObserver';
import { EventStore } from '../../src/model/eventStore';
import { serverSelector } from '../../src/model/filters';
import { pollUntil } from '../support/wait';
import { createNamespace, kubeConfigFor, restConfigOf } from './support';

describe('focused views against the real control plane', function () {
  this.timeout(120_000);
  let kc: KubeConfig;
  let namespace: string;
  let busyUid = '';
  const observers: EventObserver[] = [];

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    namespace = await createNamespace(kc, 'focus');
    const core = kc.makeApiClient(CoreV1Api);
    const busy = await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'busy' } } });
    busyUid = busy.metadata?.uid ?? '';
    const now = Date.now();
    const at = (ms: number) => new Date(now - ms) as unknown as Date;
    // Thirty old warnings on thirty objects, then 150 newer events on one busy object.
    for (let i = 0; i < 30; i++) {
      await core.createNamespacedEvent({ namespace, body: { metadata: { name: `old-warning.${i}` }, involvedObject: { kind: 'Pod', name: `pod-${i}`, namespace, uid: `pod-uid-${i}`, apiVersion: 'v1' }, reason: 'BackOff', message: `Back-off restarting failed container ${i}`, type: 'Warning', count: 1, firstTimestamp: at(3_000_000 + i), lastTimestamp: at(3_000_000 + i), source: { component: 'kubelet' } } });
    }
    for (let i = 0; i < 150; i++) {
      await core.createNamespacedEvent({ namespace, body: { metadata: { name: `busy.${i}` }, involvedObject: { kind: 'ConfigMap', name: 'busy', namespace, uid: busyUid, apiVersion: 'v1' }, reason: 'Updated', message: `update ${i}`, type: 'Normal', count: 1, firstTimestamp: at(150_000 - i * 1000), lastTimestamp: at(150_000 - i * 1000), source: { component: 'focus-test' } } });
    }
  });
  after(async () => {
    for (const o of observers.splice(0)) await o.stop();
  });

  function observe(store: EventStore, fieldSelector?: string): EventObserver {
    const o = new EventObserver(new ApiClient(restConfigOf('admin.kubeconfig')), store, { namespaces: [namespace], fieldSelector });
    observers.push(o);
    o.start();
    return o;
  }

  it('holds every warning and every event of one object that a capped main store has dropped', async () => {
    const main = new EventStore({ maxEvents: 100 });
    const mainObserver = observe(main);
    await pollUntil('the main list', () => mainObserver.listsCompleted > 0);
    const mainWarnings = main.view().reduce((n, g) => n + g.warnings, 0);
    assert.ok(mainWarnings < 30, `the capped store kept ${mainWarnings} of 30 warnings`);
    assert.ok((main.view().find((g) => g.object.uid === busyUid)?.count ?? 0) <= 100);

    const warnings = new EventStore({ maxEvents: 200_000 });
    const w = observe(warnings, serverSelector({ types: ['Warning'] }));
    await pollUntil('the warnings list', () => w.listsCompleted > 0);
    assert.equal(warnings.size, 30);
    assert.ok([...warnings.all()].every((e) => e.type === 'Warning'));

    const one = new EventStore({ maxEvents: 200_000 });
    const o = observe(one, serverSelector({ object: { kind: 'ConfigMap', name: 'busy', namespace, uid: busyUid } }));
    await pollUntil('the object\'s list', () => o.listsCompleted > 0);
    assert.equal(one.size, 150);
    assert.deepEqual(one.view().map((g) => g.object.name), ['busy']);
  });

  it('names an object without uid by kind, name and namespace', async () => {
    const one = new EventStore();
    const o = observe(one, serverSelector({ object: { kind: 'Pod', name: 'pod-7', namespace } }));
    await pollUntil('the list', () => o.listsCompleted > 0);
    assert.deepEqual([...one.all()].map((e) => e.involvedObject.name), ['pod-7']);
  });
});
