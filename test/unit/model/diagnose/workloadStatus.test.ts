// A workload's status with kubectl's columns: `kubectl get deployment` READY UP-TO-DATE
// AVAILABLE, `get daemonset` DESIRED CURRENT READY UP-TO-DATE AVAILABLE, `get replicaset` and
// `get rc` DESIRED CURRENT READY, `get job` COMPLETIONS. The objects are as the apiserver
// returns them: a status leaves its zero counts out.
import * as assert from 'node:assert/strict';
import { isWorkloadKind, selectorQuery, workloadReport } from '../../../../src/model/diagnose/workloadStatus';

const count = (r: { counts: readonly { label: string; value: number }[] }, label: string) => r.counts.find((c) => c.label === label)?.value;

/** The parts of a label selector query (`a=b,c in (d,e),!f`), split at the commas outside parentheses. */
function requirements(q: string | undefined): string[] {
  assert.ok(q !== undefined);
  const out: string[] = [];
  let depth = 0;
  let part = '';
  for (const ch of q) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(part);
      part = '';
    } else part += ch;
  }
  out.push(part);
  return out.sort();
}

describe('workload status: kinds', () => {
  it('knows the kinds that own pods through a selector, spelled as the API spells them', () => {
    for (const k of ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job']) assert.equal(isWorkloadKind(k), true, k);
    for (const k of ['Pod', 'CronJob', 'Service', 'deployment', 'deployments', '']) assert.equal(isWorkloadKind(k), false, k);
  });
});

describe('workload status: selectorQuery', () => {
  it('writes matchLabels and every matchExpressions operator in the labelSelector query syntax', () => {
    const q = selectorQuery({
      matchLabels: { app: 'checkout', 'app.kubernetes.io/part-of': 'shop' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'staging'] },
        { key: 'track', operator: 'NotIn', values: ['canary'] },
        { key: 'team', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    assert.deepEqual(requirements(q), ['!legacy', 'app.kubernetes.io/part-of=shop', 'app=checkout', 'env in (prod,staging)', 'team', 'track notin (canary)']);
  });

  it("reads a ReplicationController's selector, a plain map", () => {
    assert.equal(selectorQuery({ app: 'nginx' }), 'app=nginx');
    assert.deepEqual(requirements(selectorQuery({ app: 'nginx', tier: 'frontend' })), ['app=nginx', 'tier=frontend']);
  });

  it('has no query for no selector, an empty one, or something that is not one', () => {
    for (const s of [undefined, null, {}, { matchLabels: {} }, { matchExpressions: [] }, 'app=x', 42]) assert.equal(selectorQuery(s), undefined, JSON.stringify(s));
  });

  it('leaves out an expression with no key or an operator it does not know', () => {
    assert.equal(selectorQuery({ matchLabels: { app: 'a' }, matchExpressions: [{ operator: 'Exists' }, { key: 'x', operator: 'Gt', values: ['1'] }] }), 'app=a');
  });
});

describe('workload status: workloadReport', () => {
  it('reads a Deployment rolling out as kubectl get does: READY 2/3, UP-TO-DATE 1, AVAILABLE 2', () => {
    const r = workloadReport({
      kind: 'Deployment',
      metadata: { name: 'checkout', namespace: 'shop', generation: 7 },
      spec: { replicas: 3, selector: { matchLabels: { app: 'checkout' } } },
      status: {
        observedGeneration: 7, replicas: 4, updatedReplicas: 1, readyReplicas: 2, availableReplicas: 2, unavailableReplicas: 2,
        conditions: [
          { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.', lastTransitionTime: '2026-12-05T05:50:00Z' },
          { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: 'ReplicaSet "checkout-7d9f8b6c5" is progressing.', lastTransitionTime: '2026-12-05T05:58:00Z' },
        ],
      },
    });
    assert.equal(r.kind, 'Deployment');
    assert.equal(r.summary, '2/3 ready');
    assert.equal(r.short, true);
    assert.equal(count(r, 'desired'), 3);
    assert.equal(count(r, 'current'), 4);
    assert.equal(count(r, 'ready'), 2);
    assert.equal(count(r, 'up-to-date'), 1);
    assert.equal(count(r, 'available'), 2);
    assert.equal(r.selector, 'app=checkout');
    assert.deepEqual(r.conditions.map((c) => [c.type, c.status, c.reason]), [['Available', 'False', 'MinimumReplicasUnavailable'], ['Progressing', 'True', 'ReplicaSetUpdated']]);
    assert.equal(r.conditions[0].lastTransition, Date.UTC(2026, 11, 5, 5, 50));
  });

  it('reads the counts a status leaves out as 0: a Deployment with no pod ready is 0/1', () => {
    const r = workloadReport({ kind: 'Deployment', spec: { replicas: 1 }, status: { replicas: 1, updatedReplicas: 1, unavailableReplicas: 1 } });
    assert.equal(r.summary, '0/1 ready');
    assert.equal(count(r, 'ready'), 0);
    assert.equal(count(r, 'available'), 0);
    assert.equal(r.short, true);
  });

  it('takes a missing spec.replicas as the API default of 1, and a Deployment scaled to 0 as 0/0, not short', () => {
    assert.equal(workloadReport({ kind: 'Deployment', spec: {}, status: {} }).summary, '0/1 ready');
    const scaledDown = workloadReport({ kind: 'Deployment', spec: { replicas: 0 }, status: {} });
    assert.equal(scaledDown.summary, '0/0 ready');
    assert.equal(scaledDown.short, false);
  });

  it('reads a healthy StatefulSet: READY 3/3', () => {
    const r = workloadReport({ kind: 'StatefulSet', spec: { replicas: 3, selector: { matchLabels: { app: 'db' } } }, status: { replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3 } });
    assert.equal(r.summary, '3/3 ready');
    assert.equal(r.short, false);
    assert.equal(count(r, 'up-to-date'), 3);
  });

  it("reads a DaemonSet's five columns: DESIRED CURRENT READY UP-TO-DATE AVAILABLE", () => {
    const r = workloadReport({
      kind: 'DaemonSet',
      spec: { selector: { matchLabels: { 'k8s-app': 'fluent-bit' } } },
      status: { desiredNumberScheduled: 5, currentNumberScheduled: 5, numberReady: 4, updatedNumberScheduled: 3, numberAvailable: 4, numberUnavailable: 1, numberMisscheduled: 0 },
    });
    assert.deepEqual(r.counts.map((c) => [c.label, c.value]), [['desired', 5], ['current', 5], ['ready', 4], ['up-to-date', 3], ['available', 4]]);
    assert.equal(r.summary, '4/5 ready');
    assert.equal(r.short, true);
    assert.equal(r.selector, 'k8s-app=fluent-bit');
  });

  it('reads a ReplicaSet and a ReplicationController: DESIRED CURRENT READY', () => {
    const rs = workloadReport({ kind: 'ReplicaSet', spec: { replicas: 2, selector: { matchLabels: { app: 'checkout', 'pod-template-hash': '7d9f8b6c5' } } }, status: { replicas: 2, readyReplicas: 2, availableReplicas: 2, fullyLabeledReplicas: 2 } });
    assert.equal(rs.summary, '2/2 ready');
    assert.deepEqual([count(rs, 'desired'), count(rs, 'current'), count(rs, 'ready')], [2, 2, 2]);
    assert.deepEqual(requirements(rs.selector), ['app=checkout', 'pod-template-hash=7d9f8b6c5']);
    const rc = workloadReport({ kind: 'ReplicationController', spec: { replicas: 3, selector: { app: 'nginx' } }, status: { replicas: 3, readyReplicas: 1 } });
    assert.deepEqual(rc.counts.map((c) => [c.label, c.value]), [['desired', 3], ['current', 3], ['ready', 1]]);
    assert.equal(rc.summary, '1/3 ready');
    assert.equal(rc.selector, 'app=nginx');
  });

  it('reads a Job as kubectl get job does: COMPLETIONS succeeded/completions', () => {
    const running = workloadReport({ kind: 'Job', spec: { completions: 5, parallelism: 2, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': '0b1c2d3e' } } }, status: { active: 2, succeeded: 3, ready: 2 } });
    assert.equal(running.summary, '3/5 succeeded');
    assert.deepEqual(running.counts.map((c) => [c.label, c.value]), [['active', 2], ['succeeded', 3], ['failed', 0]]);
    // Still running with nothing failed: not short yet.
    assert.equal(running.short, false);
    assert.equal(running.selector, 'batch.kubernetes.io/controller-uid=0b1c2d3e');
  });

  it('says a Job is short once a pod failed, or it finished without enough successes', () => {
    const failing = workloadReport({ kind: 'Job', spec: { completions: 1 }, status: { active: 1, failed: 2 } });
    assert.equal(failing.summary, '0/1 succeeded');
    assert.equal(failing.short, true);
    const gaveUp = workloadReport({ kind: 'Job', spec: { completions: 3 }, status: { succeeded: 1, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }] } });
    assert.equal(gaveUp.short, true);
    assert.deepEqual(gaveUp.conditions.map((c) => c.reason), ['BackoffLimitExceeded']);
    const done = workloadReport({ kind: 'Job', spec: { completions: 3 }, status: { succeeded: 3, conditions: [{ type: 'SuccessCriteriaMet', status: 'True' }, { type: 'Complete', status: 'True' }] } });
    assert.equal(done.summary, '3/3 succeeded');
    assert.equal(done.short, false);
  });

  it('takes a Job with no completions set as one to complete (kubectl: n/1)', () => {
    assert.equal(workloadReport({ kind: 'Job', spec: {}, status: { succeeded: 1 } }).summary, '1/1 succeeded');
  });

  it('reads counts that are not numbers as 0, never NaN', () => {
    const r = workloadReport({ kind: 'DaemonSet', status: { desiredNumberScheduled: '3', numberReady: null, numberAvailable: Number.NaN, currentNumberScheduled: Infinity } });
    for (const c of r.counts) assert.equal(c.value, 0, c.label);
    assert.equal(r.summary, '0/0 ready');
  });

  it('reads an object with nothing in it without a throw', () => {
    const r = workloadReport({});
    assert.equal(r.kind, '');
    assert.equal(r.selector, undefined);
    assert.deepEqual(r.conditions, []);
    assert.equal(r.summary, '0/1 ready');
  });
});
