// Who owns what, from the objects' ownerReferences (the controlling one): Pod → ReplicaSet →
// Deployment, Pod → Job → CronJob, Pod → StatefulSet or DaemonSet. Objects deleted in the
// cluster are remembered (marked, with when), so the history of a pod that is gone still
// rolls up under its Deployment. Plain data, saved beside the history.
import type { InvolvedObject } from './clusterEvent';

export interface OwnerRef {
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly apiVersion: string;
}

export interface OwnedObject {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly apiVersion: string;
  /** The controlling owner (ownerReferences with controller: true). */
  readonly owner?: OwnerRef;
  /** When the cluster deleted it (ms); kept for history. */
  readonly deletedAt?: number;
}

/** A step of a chain: an object as the tree shows it. */
export type ChainLink = InvolvedObject;

/** How many changed uids changedSince remembers; past that, a roll-up is built again. */
const MAX_LOG = 10_000;

/** Owner chains longer than this are cut (a loop in ownerReferences would be endless). */
const MAX_CHAIN = 8;

const nameKey = (kind: string, namespace: string, name: string) => `${kind}\u0000${namespace}\u0000${name}`;

export class OwnerIndex {
  private readonly byUid = new Map<string, OwnedObject>();
  private readonly byName = new Map<string, string>();
  /** Grows with every change, so views know when to roll up again. */
  version = 0;
  /** The uids set since version `logStart` (one per version), for changedSince. */
  private log: string[] = [];
  private logStart = 0;

  get size(): number {
    return this.byUid.size;
  }

  set(o: OwnedObject): void {
    const before = this.byUid.get(o.uid);
    if (before && before.owner?.uid === o.owner?.uid && before.deletedAt === o.deletedAt && before.name === o.name) return;
    this.byUid.set(o.uid, o);
    this.byName.set(nameKey(o.kind, o.namespace, o.name), o.uid);
    this.version++;
    this.log.push(o.uid);
    if (this.log.length > MAX_LOG) this.forgetLog();
  }

  /** The uids of objects set since `version`, or undefined when that is not known (all may have changed). */
  changedSince(version: number): readonly string[] | undefined {
    return version < this.logStart ? undefined : this.log.slice(version - this.logStart);
  }

  private forgetLog(): void {
    this.log = [];
    this.logStart = this.version;
  }

  markDeleted(uid: string, at: number): void {
    const o = this.byUid.get(uid);
    if (o && o.deletedAt === undefined) this.set({ ...o, deletedAt: at });
  }

  get(uid: string): OwnedObject | undefined {
    return this.byUid.get(uid);
  }

  /** An object by uid, else (events may carry no uid) by kind, namespace and name. */
  find(o: { kind: string; namespace: string; name: string; uid: string }): OwnedObject | undefined {
    return (o.uid ? this.byUid.get(o.uid) : undefined) ?? this.byUid.get(this.byName.get(nameKey(o.kind, o.namespace, o.name)) ?? '');
  }

  /** From the object up to its top owner: [the object, its owner, ..., the workload]. */
  chain(o: InvolvedObject): ChainLink[] {
    const links: ChainLink[] = [o];
    let current = this.find(o);
    const seen = new Set<string>();
    while (current?.owner && links.length < MAX_CHAIN && !seen.has(current.uid)) {
      seen.add(current.uid);
      const ref = current.owner;
      const known = this.byUid.get(ref.uid);
      links.push({ kind: ref.kind, name: ref.name, uid: ref.uid, apiVersion: ref.apiVersion, namespace: current.namespace, fieldPath: '' });
      current = known;
    }
    return links;
  }

  /** Forgets deleted objects that nothing kept needs (no event refers to them or to what they own). */
  prune(needed: (uid: string) => boolean): void {
    const keep = new Set<string>();
    for (const o of this.byUid.values()) {
      if (o.deletedAt === undefined || needed(o.uid)) {
        for (let x: OwnedObject | undefined = o; x && !keep.has(x.uid); x = x.owner ? this.byUid.get(x.owner.uid) : undefined) keep.add(x.uid);
      }
    }
    for (const [uid, o] of this.byUid) {
      if (!keep.has(uid)) {
        this.byUid.delete(uid);
        if (this.byName.get(nameKey(o.kind, o.namespace, o.name)) === uid) this.byName.delete(nameKey(o.kind, o.namespace, o.name));
        this.version++;
        this.forgetLog();
      }
    }
  }

  toJSON(): OwnedObject[] {
    return [...this.byUid.values()];
  }

  load(objects: readonly OwnedObject[]): void {
    for (const o of objects) if (o && typeof o.uid === 'string' && o.uid && !this.byUid.has(o.uid)) this.set(o);
  }

  clear(): void {
    this.byUid.clear();
    this.byName.clear();
    this.version++;
    this.forgetLog();
  }
}
