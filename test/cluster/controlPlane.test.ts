import * as assert from 'node:assert/strict';
import { AppsV1Api, CoreV1Api, CoreV1Event, KubeConfig } from '@kubernetes/client-node';
import { scalingMessage } from '../support/releaseText';
import { pollUntil } from '../support/wait';
import { createNamespace, kubeConfigFor } from './support';

describe('the real control plane', function () {
  let kc: KubeConfig;
  let core: CoreV1Api;
  let namespace: string;

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    core = kc.makeApiClient(CoreV1Api);
    namespace = await createNamespace(kc, 'foundation');
  });

  it('stores an event created with client-node and returns it on read and list', async () => {
    const now = new Date();
    const body: CoreV1Event = {
      metadata: { name: `probe.${process.hrtime.bigint().toString(16)}`, namespace },
      involvedObject: { kind: 'ConfigMap', apiVersion: 'v1', name: 'probe', namespace },
      reason: 'Probe',
      message: 'written by the foundation test',
      type: 'Normal',
      source: { component: 'kubernetes-events-test' },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    };
    const created = await core.createNamespacedEvent({ namespace, body });
    assert.ok(created.metadata.uid, 'the apiserver assigns a uid');

    const read = await core.readNamespacedEvent({ namespace, name: body.metadata.name as string });
    assert.equal(read.reason, 'Probe');
    assert.equal(read.message, 'written by the foundation test');
    assert.equal(read.source?.component, 'kubernetes-events-test');
    assert.equal(read.metadata.uid, created.metadata.uid);

    const listed = await core.listEventForAllNamespaces();
    assert.ok(listed.items.some((e) => e.metadata.uid === created.metadata.uid), 'a list of all namespaces has the new event');
  });

  it('shows kube-controller-manager scaling a Deployment: a real ScalingReplicaSet event', async () => {
    const labels = { app: 'web' };
    await kc.makeApiClient(AppsV1Api).createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: 'web', namespace },
        spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
      },
    });
    const scaling = await pollUntil('a ScalingReplicaSet event for deployment/web', async () => {
      const list = await core.listNamespacedEvent({ namespace, fieldSelector: 'involvedObject.kind=Deployment,involvedObject.name=web' });
      return list.items.find((e) => e.reason === 'ScalingReplicaSet');
    }, 90_000);
    assert.equal(scaling.type, 'Normal');
    assert.equal(scaling.source?.component, 'deployment-controller');
    const replicaSet = /replica set (web-[a-z0-9]+) /.exec(scaling.message ?? '')?.[1] ?? 'web-?';
    assert.equal(scaling.message, scalingMessage('up', replicaSet, 0, 2));
  });

  it('shows kube-scheduler failing to place pods that no node takes (the KWOK nodes are tainted)', async () => {
    const failed = await pollUntil('a FailedScheduling event for a web pod', async () => {
      const list = await core.listNamespacedEvent({ namespace, fieldSelector: 'reason=FailedScheduling' });
      return list.items.find((e) => e.involvedObject.kind === 'Pod' && e.involvedObject.name?.startsWith('web-'));
    }, 90_000);
    assert.equal(failed.type, 'Warning');
    assert.match(failed.message ?? '', /^0\/\d+ nodes are available: \d+ node\(s\) had untolerated taint/);
  });

  it('forbids the limited user to list events, with RBAC on', async () => {
    const limited = kubeConfigFor('limited.kubeconfig').makeApiClient(CoreV1Api);
    await assert.rejects(limited.listNamespacedEvent({ namespace }), (e: { code?: number; body?: string }) => {
      assert.equal(e.code, 403);
      assert.match(String(e.body), /User \\?"kev-limited\\?" cannot list resource \\?"events\\?"/);
      return true;
    });
  });
});
