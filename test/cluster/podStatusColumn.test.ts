// A pod's STATUS as Diagnose words it, side by side with the real `kubectl get pod`: pods
// bound to a node nobody runs (so no kubelet or KWOK touches them) are given each status
// through the status subresource, then both read the same object.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { CoreV1Api, type KubeConfig, type V1Pod, type V1PodStatus } from '@kubernetes/client-node';
import { kubectlPodStatus, type RawPod } from '../../src/model/diagnose/podStatus';
import { ControlPlane } from '../env/controlPlane';
import { controlPlaneDir, createNamespace, kubeConfigFor } from './support';

/** A node no kubelet and no KWOK serves: its pods keep the status a test gives them. */
const NO_NODE = 'kev-nobody';

const at = '2026-12-05T06:00:00Z';
const waiting = (reason: string) => ({ waiting: { reason } });
const terminated = (exitCode: number, reason?: string, signal?: number) => ({ terminated: { exitCode, ...(reason ? { reason } : {}), ...(signal ? { signal } : {}), startedAt: at, finishedAt: at } });
const running = { running: { startedAt: at } };
const cs = (name: string, state: object, ready = false, extra: object = {}) => ({ name, image: 'registry.example/x:1', imageID: '', ready, restartCount: 0, state, ...extra });
const cond = (type: string, status: string, reason?: string) => ({ type, status, ...(reason ? { reason } : {}), lastTransitionTime: at });

interface Case {
  name: string;
  init?: { name: string; restartPolicy?: string }[];
  containers?: string[];
  status: object;
  deleting?: boolean;
}

const CASES: Case[] = [
  { name: 'crashloop', status: { phase: 'Running', containerStatuses: [cs('app', waiting('CrashLoopBackOff'), false, { restartCount: 4, lastState: terminated(2, 'Error') })] } },
  { name: 'first-container-wins', containers: ['app', 'proxy'], status: { phase: 'Pending', containerStatuses: [cs('app', waiting('ImagePullBackOff')), cs('proxy', running, true)] } },
  { name: 'init-crashloop', init: [{ name: 'migrate' }], status: { phase: 'Pending', initContainerStatuses: [cs('migrate', waiting('CrashLoopBackOff'))], containerStatuses: [cs('app', waiting('PodInitializing'))] } },
  { name: 'init-second-of-two', init: [{ name: 'fetch' }, { name: 'migrate' }], status: { phase: 'Pending', initContainerStatuses: [cs('fetch', terminated(0, 'Completed')), cs('migrate', running)], containerStatuses: [cs('app', waiting('PodInitializing'))] } },
  { name: 'init-exit-code', init: [{ name: 'migrate' }], status: { phase: 'Pending', initContainerStatuses: [cs('migrate', terminated(3))], containerStatuses: [cs('app', waiting('PodInitializing'))] } },
  { name: 'sidecar-started', init: [{ name: 'mesh', restartPolicy: 'Always' }], status: { phase: 'Running', conditions: [cond('Initialized', 'True'), cond('Ready', 'True')], initContainerStatuses: [cs('mesh', running, true, { started: true })], containerStatuses: [cs('app', running, true)] } },
  { name: 'succeeded', status: { phase: 'Succeeded', containerStatuses: [cs('app', terminated(0, 'Completed'))] } },
  { name: 'exit-code', status: { phase: 'Failed', containerStatuses: [cs('app', terminated(137))] } },
  { name: 'signal', status: { phase: 'Failed', containerStatuses: [cs('app', terminated(0, undefined, 9))] } },
  { name: 'completed-one-running', containers: ['job', 'proxy'], status: { phase: 'Running', conditions: [cond('Ready', 'False')], containerStatuses: [cs('job', terminated(0, 'Completed')), cs('proxy', running, true)] } },
  { name: 'evicted', status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory.', containerStatuses: [cs('app', terminated(137, 'ContainerStatusUnknown'))] } },
  { name: 'evicted-no-status', status: { phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: ephemeral-storage.' } },
  { name: 'terminating', deleting: true, status: { phase: 'Running', conditions: [cond('Ready', 'True')], containerStatuses: [cs('app', running, true)] } },
  { name: 'node-lost', deleting: true, status: { phase: 'Running', reason: 'NodeLost', containerStatuses: [cs('app', running, true)] } },
  { name: 'oom', status: { phase: 'Running', containerStatuses: [cs('app', waiting('CrashLoopBackOff'), false, { restartCount: 1, lastState: terminated(137, 'OOMKilled') })] } },
];

describe("a pod's STATUS, side by side with kubectl get pod", function () {
  this.timeout(120_000);
  let kc: KubeConfig;
  let plane: ControlPlane;
  let namespace: string;

  before(async () => {
    kc = kubeConfigFor('admin.kubeconfig');
    plane = ControlPlane.attach(controlPlaneDir());
    namespace = await createNamespace(kc, 'pod-status');
    const core = kc.makeApiClient(CoreV1Api);
    for (const c of CASES) {
      const containers = (c.containers ?? ['app']).map((name) => ({ name, image: 'registry.example/x:1' }));
      const initContainers = c.init?.map((i) => ({ name: i.name, image: 'registry.example/init:1', ...(i.restartPolicy ? { restartPolicy: i.restartPolicy } : {}) }));
      // A finalizer keeps a deleted pod (deletionTimestamp set) for the Terminating cases.
      const body: V1Pod = { metadata: { name: c.name, ...(c.deleting ? { finalizers: ['kubernetes-events.test/keep'] } : {}) }, spec: { nodeName: NO_NODE, containers, ...(initContainers ? { initContainers } : {}) } };
      await core.createNamespacedPod({ namespace, body });
      const pod = await core.readNamespacedPod({ name: c.name, namespace });
      await core.replaceNamespacedPodStatus({ name: c.name, namespace, body: { ...pod, status: c.status as V1PodStatus } });
      if (c.deleting) await core.deleteNamespacedPod({ name: c.name, namespace });
    }
  });

  after(async () => {
    const core = kc.makeApiClient(CoreV1Api);
    for (const c of CASES.filter((x) => x.deleting)) {
      await core.patchNamespacedPod({ name: c.name, namespace, body: [{ op: 'remove', path: '/metadata/finalizers' }] }).catch(() => undefined);
    }
  });

  it('says what kubectl says, for every case', () => {
    const kubectl = path.join(plane.info.binDir, 'kubectl');
    const table = execFileSync(kubectl, ['--kubeconfig', plane.info.adminKubeconfig, 'get', 'pods', '-n', namespace, '--no-headers', '-o', 'custom-columns=NAME:.metadata.name'], { encoding: 'utf8' });
    assert.equal(table.trim().split('\n').length, CASES.length);
    const printed = new Map(
      execFileSync(kubectl, ['--kubeconfig', plane.info.adminKubeconfig, 'get', 'pods', '-n', namespace, '--no-headers'], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/))
        .map(([name, , status]) => [name, status]),
    );
    const pods = JSON.parse(execFileSync(kubectl, ['--kubeconfig', plane.info.adminKubeconfig, 'get', 'pods', '-n', namespace, '-o', 'json'], { encoding: 'utf8' })) as { items: RawPod[] };
    const ours = new Map(pods.items.map((p) => [p.metadata?.name ?? '', kubectlPodStatus(p)]));
    for (const c of CASES) assert.equal(ours.get(c.name), printed.get(c.name), `${c.name}: kubectl says ${printed.get(c.name)}`);
  });
});
