// A pod's status as kubectl reads it. The pods are written as the apiserver returns them
// (`kubectl get pod -o json`): statuses in the kubelet's order, not the spec's; zero values
// left out; times in RFC3339.
import * as assert from 'node:assert/strict';
import { badness, conditionsOf, defaultLogChoice, hasStarted, noLogsYet, podReport, stateText, terminatedText, worstFirst, type ContainerReport, type PodReport, type RawPod } from '../../../../src/model/diagnose/podStatus';

/** A Deployment's pod in CrashLoopBackOff beside a healthy sidecar, as `kubectl get pod -o json` shows it. */
const CRASHING: RawPod = {
  metadata: { name: 'checkout-7d9f8b6c5-x2x9k', namespace: 'shop', uid: '5f0c7a8e-2b1d-4c3e-9f6a-1b2c3d4e5f60' },
  spec: { nodeName: 'kwok-node-1', containers: [{ name: 'checkout' }, { name: 'istio-proxy' }] },
  status: {
    phase: 'Running',
    conditions: [
      { type: 'PodReadyToStartContainers', status: 'True', lastTransitionTime: '2026-12-05T05:50:02Z' },
      { type: 'Initialized', status: 'True', lastTransitionTime: '2026-12-05T05:50:00Z' },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [checkout]', lastTransitionTime: '2026-12-05T05:50:00Z' },
      { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [checkout]', lastTransitionTime: '2026-12-05T05:50:00Z' },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-12-05T05:49:59Z' },
    ],
    containerStatuses: [
      {
        name: 'istio-proxy',
        ready: true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: '2026-12-05T05:50:03Z' } },
        lastState: {},
      },
      {
        name: 'checkout',
        ready: false,
        restartCount: 4,
        started: false,
        state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=checkout pod=checkout-7d9f8b6c5-x2x9k_shop(5f0c7a8e-2b1d-4c3e-9f6a-1b2c3d4e5f60)' } },
        lastState: { terminated: { exitCode: 2, reason: 'Error', startedAt: '2026-12-05T05:58:01Z', finishedAt: '2026-12-05T05:58:03Z' } },
      },
    ],
  },
};

/** A container status as the kubelet writes it. */
type RawStatus = NonNullable<NonNullable<RawPod['status']>['containerStatuses']>[number] & { name: string };

/** A pod on a node with the container statuses given (one running, ready container by default). */
function pod(name: string, o: { phase?: string; node?: string; containers?: RawStatus[] } = {}): PodReport {
  const cs = o.containers ?? [{ name: 'app', ready: true, state: { running: { startedAt: '2026-12-05T05:00:00Z' } } }];
  return podReport({
    metadata: { name, namespace: 'shop', uid: `uid-${name}` },
    spec: { nodeName: o.node ?? 'kwok-node-1', containers: cs.map((c) => ({ name: c.name })) },
    status: { phase: o.phase ?? 'Running', containerStatuses: cs },
  });
}

const container = (p: PodReport, name: string): ContainerReport => {
  const c = p.containers.find((x) => x.name === name);
  assert.ok(c, `no container ${name}`);
  return c;
};

describe('pod status: podReport', () => {
  it('reads a pod in CrashLoopBackOff as kubectl does: STATUS CrashLoopBackOff, its last state Terminated, Reason Error, Exit Code 2', () => {
    const p = podReport(CRASHING);
    assert.equal(p.name, 'checkout-7d9f8b6c5-x2x9k');
    assert.equal(p.namespace, 'shop');
    assert.equal(p.uid, '5f0c7a8e-2b1d-4c3e-9f6a-1b2c3d4e5f60');
    assert.equal(p.node, 'kwok-node-1');
    assert.equal(p.phase, 'Running');
    assert.equal(p.reason, 'CrashLoopBackOff');
    assert.equal(p.deleting, false);
    // The spec's order, whatever order the statuses came in.
    assert.deepEqual(p.containers.map((c) => c.name), ['checkout', 'istio-proxy']);
    const checkout = container(p, 'checkout');
    assert.equal(checkout.init, false);
    assert.equal(checkout.ready, false);
    assert.equal(checkout.restartCount, 4);
    assert.deepEqual(checkout.state, { kind: 'waiting', reason: 'CrashLoopBackOff', message: 'back-off 1m20s restarting failed container=checkout pod=checkout-7d9f8b6c5-x2x9k_shop(5f0c7a8e-2b1d-4c3e-9f6a-1b2c3d4e5f60)' });
    assert.deepEqual(checkout.lastTerminated, { reason: 'Error', message: '', exitCode: 2, signal: undefined, startedAt: Date.UTC(2026, 11, 5, 5, 58, 1), finishedAt: Date.UTC(2026, 11, 5, 5, 58, 3) });
    const proxy = container(p, 'istio-proxy');
    assert.equal(proxy.ready, true);
    assert.deepEqual(proxy.state, { kind: 'running', startedAt: Date.UTC(2026, 11, 5, 5, 50, 3) });
    assert.equal(proxy.lastTerminated, undefined);
  });

  it('reads the conditions in their order, with their times', () => {
    const p = podReport(CRASHING);
    assert.deepEqual(p.conditions.map((c) => `${c.type}=${c.status}`), ['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=False', 'ContainersReady=False', 'PodScheduled=True']);
    const ready = p.conditions[2];
    assert.equal(ready.reason, 'ContainersNotReady');
    assert.equal(ready.message, 'containers with unready status: [checkout]');
    assert.equal(ready.lastTransition, Date.UTC(2026, 11, 5, 5, 50, 0));
  });

  it("says a pod's own reason first: an evicted pod is Evicted, with the kubelet's message", () => {
    const p = podReport({
      metadata: { name: 'batch-6c9d-abcde', namespace: 'jobs' },
      spec: { nodeName: 'kwok-node-2', containers: [{ name: 'worker' }] },
      status: {
        phase: 'Failed',
        reason: 'Evicted',
        message: 'The node was low on resource: memory. Threshold quantity: 100Mi, available: 91Mi. Container worker was using 1.2Gi, request is 256Mi, has larger consumption of memory. ',
        containerStatuses: [{ name: 'worker', ready: false, restartCount: 0, state: { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated' } } }],
      },
    });
    assert.equal(p.phase, 'Failed');
    assert.equal(p.reason, 'Evicted');
    assert.match(p.message, /^The node was low on resource: memory\./);
  });

  it('reads a pod no node has taken: Pending, its containers not created, PodScheduled False with the scheduler\'s reason', () => {
    const p = podReport({
      metadata: { name: 'big-0', namespace: 'ml' },
      spec: { containers: [{ name: 'trainer' }] },
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.', lastTransitionTime: '2026-12-05T05:00:00Z' }],
      },
    });
    assert.equal(p.node, '');
    assert.equal(p.phase, 'Pending');
    assert.equal(p.reason, '');
    assert.deepEqual(p.containers, [{ name: 'trainer', init: false, ready: false, restartCount: 0, state: { kind: 'unknown' }, lastTerminated: undefined }]);
  });

  it('reads a pod being created: STATUS ContainerCreating, as kubectl shows it', () => {
    const p = podReport({
      metadata: { name: 'web-0', namespace: 'shop' },
      spec: { nodeName: 'kwok-node-1', containers: [{ name: 'nginx' }] },
      status: { phase: 'Pending', containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] },
    });
    assert.equal(p.reason, 'ContainerCreating');
    assert.deepEqual(p.containers[0].state, { kind: 'waiting', reason: 'ContainerCreating', message: '' });
  });

  it('lists init containers first, marked, and reads a failing one (kubectl: Init:CrashLoopBackOff)', () => {
    const p = podReport({
      metadata: { name: 'api-5b7c-qwert', namespace: 'shop' },
      spec: { nodeName: 'kwok-node-1', initContainers: [{ name: 'migrate' }, { name: 'warm-cache' }], containers: [{ name: 'api' }] },
      status: {
        phase: 'Pending',
        initContainerStatuses: [
          { name: 'migrate', ready: false, restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 40s restarting failed container=migrate' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2026-12-05T05:59:00Z' } } },
          { name: 'warm-cache', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } },
        ],
        containerStatuses: [{ name: 'api', ready: false, restartCount: 0, state: { waiting: { reason: 'PodInitializing' } } }],
      },
    });
    assert.deepEqual(p.containers.map((c) => [c.name, c.init]), [['migrate', true], ['warm-cache', true], ['api', false]]);
    assert.match(p.reason, /CrashLoopBackOff/);
    assert.equal(container(p, 'migrate').lastTerminated?.exitCode, 1);
  });

  it('reads a terminated container: reason, exit code, a signal only when there was one', () => {
    const p = podReport({
      metadata: { name: 'job-x' },
      spec: { containers: [{ name: 'oom' }, { name: 'killed' }, { name: 'done' }] },
      status: {
        phase: 'Failed',
        containerStatuses: [
          { name: 'oom', state: { terminated: { exitCode: 137, signal: 0, reason: 'OOMKilled', startedAt: '2026-12-05T05:00:00Z', finishedAt: '2026-12-05T05:01:00.5Z' } } },
          { name: 'killed', state: { terminated: { exitCode: 143, signal: 15, reason: 'Error' } } },
          { name: 'done', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
        ],
      },
    });
    const oom = container(p, 'oom').state;
    assert.equal(oom.kind, 'terminated');
    assert.equal(oom.kind === 'terminated' && oom.exitCode, 137);
    assert.equal(oom.kind === 'terminated' && oom.signal, undefined);
    assert.equal(oom.kind === 'terminated' && oom.finishedAt, Date.UTC(2026, 11, 5, 5, 1, 0, 500));
    const killed = container(p, 'killed').state;
    assert.equal(killed.kind === 'terminated' && killed.signal, 15);
    // The first failing container gives the pod's reason; Completed (exit 0) is not a failure.
    assert.equal(p.reason, 'OOMKilled');
  });

  it('marks a pod being deleted', () => {
    const p = podReport({ ...CRASHING, metadata: { ...CRASHING.metadata, deletionTimestamp: '2026-12-05T06:00:00Z' } });
    assert.equal(p.deleting, true);
  });

  it('reads what is not there as empty, not as a throw: an empty object, a status for a container the spec lacks', () => {
    const empty = podReport({});
    assert.deepEqual(empty, { name: '', namespace: '', uid: '', node: '', phase: 'Unknown', status: '', reason: '', message: '', deleting: false, conditions: [], containers: [] });
    const stray = podReport({ metadata: { name: 'p' }, spec: { containers: [{ name: 'a' }] }, status: { containerStatuses: [{ name: 'b', state: { running: {} } }] } });
    assert.deepEqual(stray.containers.map((c) => [c.name, c.state.kind]), [['a', 'unknown']]);
    const noTimes = podReport({ metadata: { name: 'p' }, spec: { containers: [{ name: 'a' }] }, status: { containerStatuses: [{ name: 'a', state: { running: { startedAt: 'not a time' } }, lastState: { terminated: {} } }] } });
    assert.deepEqual(noTimes.containers[0].state, { kind: 'running', startedAt: undefined });
    assert.deepEqual(noTimes.containers[0].lastTerminated, { reason: '', message: '', exitCode: undefined, signal: undefined, startedAt: undefined, finishedAt: undefined });
  });
});

describe('pod status: conditionsOf', () => {
  it('reads a condition with no status as Unknown, and a bad time as none', () => {
    assert.deepEqual(conditionsOf([{ type: 'Ready' }, { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting', lastTransitionTime: 'yesterday' }]), [
      { type: 'Ready', status: 'Unknown', reason: '', message: '', lastTransition: undefined },
      { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting', lastTransition: undefined },
    ]);
    assert.deepEqual(conditionsOf(undefined), []);
  });
});

describe('pod status: texts', () => {
  it('words each state as kubectl describe does: Waiting with its reason, Running, Terminated with reason and exit code', () => {
    assert.equal(stateText({ kind: 'waiting', reason: 'CrashLoopBackOff', message: 'back-off' }), 'Waiting: CrashLoopBackOff');
    assert.equal(stateText({ kind: 'waiting', reason: '', message: '' }), 'Waiting');
    assert.equal(stateText({ kind: 'running', startedAt: 0 }), 'Running');
    assert.equal(stateText({ kind: 'terminated', reason: 'OOMKilled', message: '', exitCode: 137, signal: undefined, startedAt: undefined, finishedAt: undefined }), 'Terminated: OOMKilled, exit code 137');
    assert.equal(stateText({ kind: 'terminated', reason: 'Error', message: '', exitCode: 143, signal: 15, startedAt: undefined, finishedAt: undefined }), 'Terminated: Error, exit code 143, signal 15');
    assert.equal(stateText({ kind: 'unknown' }), 'Not created yet');
  });

  it("words a last state as kubectl describe's Last State: its reason and exit code", () => {
    const last = container(podReport(CRASHING), 'checkout').lastTerminated;
    assert.ok(last);
    assert.equal(terminatedText(last), 'Error, exit code 2');
    assert.equal(terminatedText({ reason: '', message: '', exitCode: 1, signal: undefined, startedAt: undefined, finishedAt: undefined }), 'Terminated, exit code 1');
    assert.equal(terminatedText({ reason: 'Error', message: '', exitCode: undefined, signal: 9, startedAt: undefined, finishedAt: undefined }), 'Error, signal 9');
  });
});

describe('pod status: logs', () => {
  it("shows the previous instance's log first for a container that crashed and restarted (kubectl logs --previous)", () => {
    const p = podReport(CRASHING);
    assert.equal(defaultLogChoice(container(p, 'checkout')), 'previous');
    assert.equal(defaultLogChoice(container(p, 'istio-proxy')), 'current');
  });

  it('shows the current log when there is no previous one to show', () => {
    // Restarted, but the kubelet no longer has its last state (it restarted itself).
    const p = pod('p', { containers: [{ name: 'app', restartCount: 2, state: { running: { startedAt: '2026-12-05T05:00:00Z' } } }] });
    assert.equal(defaultLogChoice(p.containers[0]), 'current');
  });

  it('has a log for a container that runs, ran, or ran before', () => {
    const p = podReport(CRASHING);
    assert.equal(hasStarted(container(p, 'checkout')), true); // waiting to restart, ran 4 times
    assert.equal(hasStarted(container(p, 'istio-proxy')), true);
    const done = pod('d', { phase: 'Succeeded', containers: [{ name: 'app', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] });
    assert.equal(hasStarted(done.containers[0]), true);
    const creating = pod('c', { phase: 'Pending', containers: [{ name: 'app', state: { waiting: { reason: 'ContainerCreating' } } }] });
    assert.equal(hasStarted(creating.containers[0]), false);
    const pulling = pod('i', { phase: 'Pending', containers: [{ name: 'app', state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "registry.invalid/app:v2"' } } }] });
    assert.equal(hasStarted(pulling.containers[0]), false);
  });

  it("says why no log can be read from an unscheduled pod, with the scheduler's reason and message", () => {
    const p = podReport({
      metadata: { name: 'big-0', namespace: 'ml' },
      spec: { containers: [{ name: 'trainer' }] },
      status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.' }] },
    });
    const why = noLogsYet(p);
    assert.ok(why);
    assert.match(why, /Pod\/big-0/);
    assert.match(why, /not scheduled/);
    assert.ok(why.includes('Unschedulable: 0/3 nodes are available: 3 Insufficient nvidia.com/gpu.'), why);
    const bare = noLogsYet(podReport({ metadata: { name: 'new-0' }, spec: { containers: [{ name: 'a' }] }, status: { phase: 'Pending' } }));
    assert.ok(bare && /not scheduled/.test(bare) && /no node/.test(bare), bare);
  });

  it('says which containers are still being created on a node, and why each waits', () => {
    const p = podReport({
      metadata: { name: 'web-0', namespace: 'shop' },
      spec: { nodeName: 'kwok-node-1', containers: [{ name: 'nginx' }, { name: 'exporter' }, { name: 'cfg' }] },
      status: {
        phase: 'Pending',
        containerStatuses: [
          { name: 'nginx', state: { waiting: { reason: 'ContainerCreating' } } },
          { name: 'cfg', state: { waiting: { reason: 'CreateContainerConfigError', message: 'configmap "web-config" not found' } } },
        ],
      },
    });
    const why = noLogsYet(p);
    assert.ok(why);
    assert.match(why, /Pod\/web-0/);
    assert.ok(why.includes('nginx: ContainerCreating'), why);
    assert.ok(why.includes('cfg: CreateContainerConfigError'), why);
    assert.match(why, /exporter: not created/);
    assert.doesNotMatch(why, /not scheduled/);
  });

  it('has no reason to give once any container has started', () => {
    assert.equal(noLogsYet(podReport(CRASHING)), undefined);
  });
});

describe('pod status: worst first', () => {
  const healthy = pod('a-healthy');
  const restarted = pod('b-restarted', { containers: [{ name: 'app', ready: true, restartCount: 3, state: { running: {} }, lastState: { terminated: { exitCode: 1, reason: 'Error' } } }] });
  const notReady = pod('c-not-ready', { containers: [{ name: 'app', ready: false, state: { running: {} } }] });
  const pending = pod('d-pending', { phase: 'Pending', node: '', containers: [{ name: 'app', state: { waiting: { reason: 'ContainerCreating' } } }] });
  const failed = pod('e-failed', { phase: 'Failed', containers: [{ name: 'app', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] });
  const exited = pod('f-exited', { containers: [{ name: 'app', state: { terminated: { exitCode: 1, reason: 'Error' } } }] });
  const crashing = podReport(CRASHING);
  const pullFailing = pod('h-image', { phase: 'Pending', containers: [{ name: 'app', state: { waiting: { reason: 'ImagePullBackOff' } } }] });
  const completed = pod('i-completed', { phase: 'Succeeded', containers: [{ name: 'app', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] });

  it('lists failing containers first, then failed or pending pods, then pods not ready, then restarts, then healthy ones', () => {
    const order = worstFirst([healthy, completed, restarted, notReady, pending, failed, exited, crashing, pullFailing]).map((p) => p.name);
    const rank = (name: string) => order.indexOf(name);
    const groups = [[crashing.name, pullFailing.name, exited.name], [failed.name, pending.name], [notReady.name], [restarted.name], [healthy.name, completed.name]];
    for (let g = 0; g + 1 < groups.length; g++) {
      for (const worse of groups[g]) for (const better of groups[g + 1]) assert.ok(rank(worse) < rank(better), `${worse} before ${better} in ${order.join(', ')}`);
    }
    assert.ok(badness(crashing) > badness(healthy));
    assert.equal(badness(healthy), 0);
    assert.equal(badness(completed), 0);
  });

  it('puts the pod with more restarts first among equally bad ones, and equal ones by name', () => {
    const crash = (name: string, restarts: number) => pod(name, { containers: [{ name: 'app', restartCount: restarts, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 2, reason: 'Error' } } }] });
    assert.deepEqual(worstFirst([crash('x', 2), crash('y', 7), crash('w', 2)]).map((p) => p.name), ['y', 'w', 'x']);
    assert.deepEqual(worstFirst([pod('zeta'), pod('alpha'), pod('mu')]).map((p) => p.name), ['alpha', 'mu', 'zeta']);
  });

  it('does not let a healthy pod restarted a thousand times outrank one that is not ready', () => {
    const veteran = pod('veteran', { containers: [{ name: 'app', ready: true, restartCount: 5000, state: { running: {} } }] });
    assert.deepEqual(worstFirst([veteran, notReady]).map((p) => p.name), [notReady.name, 'veteran']);
  });

  it('leaves the list it was given as it was', () => {
    const list = [healthy, crashing];
    worstFirst(list);
    assert.deepEqual(list.map((p) => p.name), [healthy.name, crashing.name]);
  });
});
