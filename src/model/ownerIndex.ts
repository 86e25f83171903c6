// Who owns what, from the objects' ownerReferences (the controlling one): Pod → ReplicaSet →
// Deployment, Pod → Job → CronJob, Pod → StatefulSet or DaemonSet. Objects deleted in the
// cluster are remembered (marked, with when), so the history of a pod that is gone still
// rolls up under its Deployment. Plain data, saved beside the history. Objects deleted before
// they were watched take their owner from the controller's event that created them.
import type { InvolvedObject } from './clusterEvent';
import { CREATED_KINDS, type Creation } from './createdBy';

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

/**
 * How many owners learnt from controllers' events are kept (the oldest go first): about a
 * day of a busy cluster's pod creations, some 20 MB at most.
 */
const MAX_LEARNT = 100_000;

/** How many objects chains found no owner for are remembered, to be placed when one is learnt. */
const MAX_UNOWNED = 100_000;

const nameKey = (kind: string, namespace: string, name: string) => `${kind}\u0000${namespace}\u0000${name}`;

export class OwnerIndex {
  private readonly byUid = new Map<string, OwnedObject>();
  private readonly byName = new Map<string, string>();
  /** Owners learnt from controllers' events (createdBy), by the created object's kind, namespace and name. */
  private readonly learnt = new Map<string, OwnerRef>();
  /** Objects a chain found no owner for, by name: their uids, logged as changed when one is learnt. */
  private readonly unowned = new Map<string, Set<string>>();
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

  /**
   * An owner a controller's event names. It stands in only for objects the cluster's own
   * records (set) do not know: those always win.
   */
  learn(c: Creation): void {
    const key = nameKey(c.kind, c.namespace, c.name);
    const before = this.learnt.get(key);
    if (before?.uid === c.owner.uid) return;
    this.learnt.delete(key);
    this.learnt.set(key, c.owner);
    if (this.learnt.size > MAX_LEARNT) this.learnt.delete(this.learnt.keys().next().value as string);
    // Objects already placed without an owner are placed again; later ones find it in chain.
    const waiting = this.unowned.get(key);
    this.unowned.delete(key);
    for (const uid of waiting ?? []) {
      this.version++;
      this.log.push(uid);
    }
    if (this.log.length > MAX_LOG) this.forgetLog();
  }

  get(uid: string): OwnedObject | undefined {
    return this.byUid.get(uid);
  }

  /** An object by uid, else (events may carry no uid) by kind, namespace and name. */
  find(o: { kind: string; namespace: string; name: string; uid: string }): OwnedObject | undefined {
    return (o.uid ? this.byUid.get(o.uid) : undefined) ?? this.byUid.get(this.byName.get(nameKey(o.kind, o.namespace, o.name)) ?? '');
  }

  /**
   * From the object up to its top owner: [the object, its owner, ..., the workload]. Each
   * owner is the cluster's record's, else one learnt for an object the cluster's records
   * do not know.
   */
  chain(o: InvolvedObject): ChainLink[] {
    const links: ChainLink[] = [o];
    const seen = new Set<string>();
    for (let link: ChainLink = o; links.length < MAX_CHAIN; ) {
      const known = this.find(link);
      const key = known || !CREATED_KINDS.has(link.kind) ? undefined : nameKey(link.kind, link.namespace, link.name);
      const ref = known ? known.owner : key !== undefined ? this.learnt.get(key) : undefined;
      if (!ref) {
        if (key !== undefined && link.uid) this.awaitOwner(key, link.uid);
        break;
      }
      if (seen.has(ref.uid)) break;
      seen.add(ref.uid);
      link = { kind: ref.kind, name: ref.name, uid: ref.uid, apiVersion: ref.apiVersion, namespace: link.namespace, fieldPath: '' };
      links.push(link);
    }
    return links;
  }

  private awaitOwner(key: string, uid: string): void {
    let uids = this.unowned.get(key);
    if (!uids) {
      if (this.unowned.size >= MAX_UNOWNED) this.unowned.delete(this.unowned.keys().next().value as string);
      this.unowned.set(key, (uids = new Set()));
    }
    uids.add(uid);
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
    this.learnt.clear();
    this.unowned.clear();
    this.version++;
    this.forgetLog();
  }
}
