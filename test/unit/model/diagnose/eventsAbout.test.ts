// The events Diagnose shows for an object: its own, and a workload's with those of everything
// it owns, newest first. The owner chains are a Deployment's: Pod -> ReplicaSet -> Deployment.
import * as assert from 'node:assert/strict';
import type { ClusterEvent, InvolvedObject } from '../../../../src/model/clusterEvent';
import { eventsAbout, isObject, MAX_EVENTS_SHOWN } from '../../../../src/model/diagnose/eventsAbout';
import type { EventGroup } from '../../../../src/model/liveView';
import { coreEvent, T0 } from '../fixtures';

/** One object's events as a view group: newest first, its warnings counted here. */
function group(events: ClusterEvent[]): EventGroup {
  const sorted = [...events].sort((a, b) => (b.lastSeen ?? 0) - (a.lastSeen ?? 0));
  return {
    key: `${events[0].involvedObject.kind}/${events[0].involvedObject.namespace}/${events[0].involvedObject.name}/${events[0].involvedObject.uid}`,
    object: events[0].involvedObject,
    events: sorted,
    count: sorted.length,
    lastSeen: sorted[0].lastSeen ?? 0,
    warnings: sorted.filter((e) => e.type === 'Warning').length,
    newest: (limit: number) => sorted.slice(0, limit),
  };
}

const ref = (kind: string, name: string, uid: string, namespace = 'shop'): InvolvedObject => ({ kind, name, uid, namespace, apiVersion: kind === 'Pod' ? 'v1' : 'apps/v1', fieldPath: '' });

const DEPLOY = ref('Deployment', 'checkout', 'd-1');
const RS = ref('ReplicaSet', 'checkout-7d9f8b6c5', 'rs-1');
const POD = ref('Pod', 'checkout-7d9f8b6c5-x2x9k', 'p-1');
const POD2 = ref('Pod', 'checkout-7d9f8b6c5-q8w7e', 'p-2');
const OTHER_POD = ref('Pod', 'payments-5c6d7f-abcde', 'p-9');
const STAGING_DEPLOY = ref('Deployment', 'checkout', 'd-staging', 'staging');

/** Owner chains, the object itself first, as the owner index gives them. */
const OWNERS = new Map<string, InvolvedObject[]>([
  ['p-1', [POD, RS, DEPLOY]],
  ['p-2', [POD2, RS, DEPLOY]],
  ['rs-1', [RS, DEPLOY]],
]);
const chain = (o: InvolvedObject): readonly InvolvedObject[] => OWNERS.get(o.uid) ?? [o];

const ev = (uid: string, o: InvolvedObject, type: string, reason: string, last: number, count = 1, first = last) =>
  coreEvent({ uid, ns: o.namespace, kind: o.kind, object: o.name, objectUid: o.uid, type, reason, message: `${reason} on ${o.name}`, count, first, last });

function cluster(): EventGroup[] {
  return [
    group([ev('e1', DEPLOY, 'Normal', 'ScalingReplicaSet', T0 - 600_000)]),
    group([ev('e2', RS, 'Normal', 'SuccessfulCreate', T0 - 590_000), ev('e3', RS, 'Warning', 'FailedCreate', T0 - 580_000)]),
    group([ev('e4', POD, 'Warning', 'BackOff', T0 - 5_000, 12, T0 - 500_000), ev('e5', POD, 'Normal', 'Pulled', T0 - 400_000)]),
    group([ev('e6', POD2, 'Normal', 'Started', T0 - 60_000)]),
    group([ev('e7', OTHER_POD, 'Warning', 'Unhealthy', T0 - 1_000)]),
    group([ev('e8', STAGING_DEPLOY, 'Normal', 'ScalingReplicaSet', T0 - 2_000)]),
  ];
}

describe('eventsAbout', () => {
  it("rolls a Deployment's ReplicaSets' and Pods' events up under it, newest first, warnings counted", () => {
    const about = eventsAbout(cluster(), chain, { kind: 'Deployment', name: 'checkout', namespace: 'shop', uid: 'd-1' });
    assert.deepEqual(about.events.map((e) => e.uid), ['e4', 'e6', 'e5', 'e3', 'e2', 'e1']);
    assert.equal(about.total, 6);
    assert.equal(about.warnings, 2);
  });

  it("gives a pod only its own events, its owners' left out", () => {
    const about = eventsAbout(cluster(), chain, { kind: 'Pod', name: POD.name, namespace: 'shop', uid: 'p-1' });
    assert.deepEqual(about.events.map((e) => e.uid), ['e4', 'e5']);
    assert.equal(about.total, 2);
    assert.equal(about.warnings, 1);
  });

  it('finds an object by kind, name and namespace when its uid is not known, never one of the same name elsewhere', () => {
    const about = eventsAbout(cluster(), chain, { kind: 'Deployment', name: 'checkout', namespace: 'staging' });
    assert.deepEqual(about.events.map((e) => e.uid), ['e8']);
    const shop = eventsAbout(cluster(), chain, { kind: 'Deployment', name: 'checkout', namespace: 'shop' });
    assert.equal(shop.total, 6);
  });

  it('tells a pod from an earlier one of the same name (a StatefulSet recreates web-0) by its uid', () => {
    const old = ref('Pod', 'web-0', 'web-0-old');
    const now = ref('Pod', 'web-0', 'web-0-new');
    const groups = [group([ev('old', old, 'Warning', 'OOMKilling', T0 - 100_000)]), group([ev('new', now, 'Normal', 'Started', T0 - 10_000)])];
    assert.deepEqual(eventsAbout(groups, chain, { kind: 'Pod', name: 'web-0', namespace: 'shop', uid: 'web-0-new' }).events.map((e) => e.uid), ['new']);
    // Without a uid, both are web-0.
    assert.deepEqual(eventsAbout(groups, chain, { kind: 'Pod', name: 'web-0', namespace: 'shop' }).events.map((e) => e.uid), ['new', 'old']);
  });

  it('lists the newest MAX_EVENTS_SHOWN and says how many there are in all', () => {
    const many: ClusterEvent[] = [];
    for (let i = 0; i < MAX_EVENTS_SHOWN + 50; i++) many.push(ev(`m${i}`, POD, i % 5 === 0 ? 'Warning' : 'Normal', 'Probe', T0 - i * 1000));
    const about = eventsAbout([group(many)], chain, { kind: 'Pod', name: POD.name, namespace: 'shop', uid: 'p-1' });
    assert.equal(about.events.length, MAX_EVENTS_SHOWN);
    assert.equal(about.total, MAX_EVENTS_SHOWN + 50);
    assert.equal(about.warnings, (MAX_EVENTS_SHOWN + 50) / 5);
    assert.deepEqual(about.events.map((e) => e.uid), many.slice(0, MAX_EVENTS_SHOWN).map((e) => e.uid));
    assert.equal(eventsAbout([group(many)], chain, { kind: 'Pod', name: POD.name, namespace: 'shop', uid: 'p-1' }, 3).events.length, 3);
  });

  it('orders by last seen, else first seen, else creation time, as kubectl sorts', () => {
    const base = ev('x', POD, 'Normal', 'Scheduled', T0 - 50_000);
    const onlyFirst: ClusterEvent = { ...ev('first', POD, 'Normal', 'Pulling', T0 - 20_000), lastSeen: undefined };
    const onlyCreated: ClusterEvent = { ...ev('created', POD, 'Normal', 'Created', T0), lastSeen: undefined, firstSeen: undefined, created: T0 - 30_000 };
    const none: ClusterEvent = { ...ev('none', POD, 'Normal', 'Odd', T0), lastSeen: undefined, firstSeen: undefined, created: undefined };
    const g: EventGroup = { ...group([base]), events: [none, base, onlyCreated, onlyFirst], count: 4 };
    assert.deepEqual(eventsAbout([g], chain, { kind: 'Pod', name: POD.name, namespace: 'shop', uid: 'p-1' }).events.map((e) => e.uid), ['first', 'created', 'x', 'none']);
  });

  it('has nothing about an object no event is about', () => {
    assert.deepEqual(eventsAbout(cluster(), chain, { kind: 'Service', name: 'checkout', namespace: 'shop', uid: 's-1' }), { events: [], total: 0, warnings: 0 });
    assert.deepEqual(eventsAbout([], chain, { kind: 'Pod', name: 'x', namespace: 'shop' }), { events: [], total: 0, warnings: 0 });
  });
});

describe('isObject', () => {
  it('compares uids when both sides have one, else kind, name and namespace', () => {
    assert.equal(isObject(POD, { kind: 'Pod', name: POD.name, namespace: 'shop', uid: 'p-1' }), true);
    assert.equal(isObject(POD, { kind: 'Pod', name: POD.name, namespace: 'shop', uid: 'p-other' }), false);
    assert.equal(isObject(POD, { kind: 'Pod', name: POD.name, namespace: 'shop' }), true);
    assert.equal(isObject(POD, { kind: 'Pod', name: POD.name, namespace: 'other' }), false);
    assert.equal(isObject(POD, { kind: 'Deployment', name: POD.name, namespace: 'shop' }), false);
    assert.equal(isObject({ ...POD, uid: '' }, { kind: 'Pod', name: POD.name, namespace: 'shop', uid: 'p-1' }), true);
    // A cluster-scoped object: no namespace on either side.
    const node = { kind: 'Node', name: 'kwok-node-1', namespace: '', uid: '', apiVersion: 'v1', fieldPath: '' };
    assert.equal(isObject(node, { kind: 'Node', name: 'kwok-node-1', namespace: '' }), true);
  });
});
