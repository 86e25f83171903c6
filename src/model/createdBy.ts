// The object a controller's event says it created: "Created pod: web-7d9f-x2k4q" on a
// ReplicaSet, "Created job report-29101" on a CronJob. An object deleted before its owners
// were watched (a CronJob's finished runs, a pod gone while the editor was closed) keeps
// events but no ownerReferences anyone can read; these events still name its owner.
import { AGGREGATE_MESSAGE_PREFIX } from '../record/eventsCache';
import type { ClusterEvent } from './clusterEvent';
import type { EventStore } from './eventStore';
import type { OwnerIndex, OwnerRef } from './ownerIndex';

export interface Creation {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly owner: OwnerRef;
}

/** The reason every controller below gives its create events. */
const SUCCESSFUL_CREATE = 'SuccessfulCreate';
/** The deployment controller's reason for scaling a ReplicaSet it owns. */
const SCALING_REPLICA_SET = 'ScalingReplicaSet';

/**
 * Messages by owner kind, each capturing the created object's name, as the controllers in
 * k8s.io/kubernetes/pkg/controller write them (1.31 to 1.37).
 */
const CREATED: Record<string, { readonly kind: string; readonly source: string; readonly reason: string; readonly message: RegExp }[]> = {
  // controller_utils.go (RealPodControl.createPods), shared by the ReplicaSet, Job, DaemonSet
  // and ReplicationController controllers.
  ReplicaSet: [{ kind: 'Pod', source: 'replicaset-controller', reason: SUCCESSFUL_CREATE, message: /^Created pod: (\S+)$/ }],
  Job: [{ kind: 'Pod', source: 'job-controller', reason: SUCCESSFUL_CREATE, message: /^Created pod: (\S+)$/ }],
  DaemonSet: [{ kind: 'Pod', source: 'daemonset-controller', reason: SUCCESSFUL_CREATE, message: /^Created pod: (\S+)$/ }],
  ReplicationController: [{ kind: 'Pod', source: 'replication-controller', reason: SUCCESSFUL_CREATE, message: /^Created pod: (\S+)$/ }],
  // cronjob_controllerv2.go.
  CronJob: [{ kind: 'Job', source: 'cronjob-controller', reason: SUCCESSFUL_CREATE, message: /^Created job (\S+)$/ }],
  // statefulset/stateful_pod_control.go: the verb lower-cased through 1.34, title-cased since.
  StatefulSet: [{ kind: 'Pod', source: 'statefulset-controller', reason: SUCCESSFUL_CREATE, message: /^create Pod (\S+) in StatefulSet \S+ successful$/i }],
  // deployment/sync.go: "Scaled up replica set web-7d9f from 0 to 3" (or "to 3 from 0", or "to 3", before 1.32).
  Deployment: [{ kind: 'ReplicaSet', source: 'deployment-controller', reason: SCALING_REPLICA_SET, message: /^Scaled (?:up|down) replica set (\S+) (?:from|to) / }],
};

/** The kinds createdBy can name. */
export const CREATED_KINDS: ReadonlySet<string> = new Set(Object.values(CREATED).flatMap((cs) => cs.map((c) => c.kind)));

/**
 * The object the event says its involved object created, if it is such an event from the
 * controller that writes it (an event anyone records with that text moves nothing).
 */
export function createdBy(e: ClusterEvent): Creation | undefined {
  if (e.reason !== SUCCESSFUL_CREATE && e.reason !== SCALING_REPLICA_SET) return undefined;
  const o = e.involvedObject;
  if (!o.uid) return undefined;
  for (const c of CREATED[o.kind] ?? []) {
    if (c.reason !== e.reason || c.source !== e.source) continue;
    // A controller's 10th create within 10 minutes on one owner (a CronJob every minute) comes
    // as client-go's aggregate: one event, its message the newest create's behind a prefix.
    const message = e.message.startsWith(AGGREGATE_MESSAGE_PREFIX) ? e.message.slice(AGGREGATE_MESSAGE_PREFIX.length) : e.message;
    const name = c.message.exec(message)?.[1];
    if (name) return { kind: c.kind, namespace: o.namespace, name, owner: { kind: o.kind, name: o.name, uid: o.uid, apiVersion: o.apiVersion } };
  }
  return undefined;
}

/** Teaches the index the owners that these events name. */
export function learnCreations(events: Iterable<ClusterEvent>, index: OwnerIndex): void {
  for (const e of events) {
    const created = createdBy(e);
    if (created) index.learn(created);
  }
}

/** Teaches the index the owners named by what the store holds and, until disposed, by each event it stores. */
export function followCreations(store: EventStore, index: OwnerIndex): { dispose(): void } {
  learnCreations(store.all(), index);
  return store.onDidStore((e) => {
    // Called for every event stored: no array made for one.
    const created = createdBy(e);
    if (created) index.learn(created);
  });
}
