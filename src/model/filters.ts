// What the user narrows the view to. Every field is optional; an empty filter shows all.
import type { ClusterEvent } from './clusterEvent';

export interface EventFilter {
  readonly types?: readonly string[];
  readonly namespaces?: readonly string[];
  readonly kinds?: readonly string[];
  readonly reasons?: readonly string[];
  readonly sources?: readonly string[];
  /** Case-insensitive text in the reason, the message or the object's name. */
  readonly text?: string;
  /** One object (Show Events): by uid when known, else by kind, name and namespace. */
  readonly object?: ObjectRef;
}

export interface ObjectRef {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  /** The uids of objects it owns, shown with it (a workload's ReplicaSets and Pods). */
  readonly owned?: readonly string[];
}

const ownedSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** Whether the event is about the object or one it owns. */
function isObjectOrOwned(o: ClusterEvent['involvedObject'], ref: ObjectRef): boolean {
  if (isObject(o, ref)) return true;
  if (!ref.owned?.length || !o.uid) return false;
  let set = ownedSets.get(ref.owned);
  if (!set) ownedSets.set(ref.owned, (set = new Set(ref.owned)));
  return set.has(o.uid);
}

/** The argument as an ObjectRef ({kind, name, namespace?, uid?}, kind and name given), or undefined. */
export function asObjectRef(x: unknown): ObjectRef | undefined {
  if (!x || typeof x !== 'object') return undefined;
  const q = x as Record<string, unknown>;
  const optional = (v: unknown) => v === undefined || typeof v === 'string';
  if (typeof q.kind !== 'string' || !q.kind || typeof q.name !== 'string' || !q.name || !optional(q.namespace) || !optional(q.uid)) return undefined;
  return { kind: q.kind, name: q.name, namespace: q.namespace, uid: q.uid };
}

/** Whether an involved object is the one named (by uid when both have one). */
export function isObject(o: { kind: string; name: string; namespace: string; uid: string }, ref: ObjectRef): boolean {
  if (ref.uid && o.uid) return ref.uid === o.uid;
  return o.kind === ref.kind && o.name === ref.name && (ref.namespace === undefined || o.namespace === ref.namespace);
}

export const NO_FILTER: EventFilter = {};

/** The filter is Show Warnings Only (types Warning, alone). */
export function isWarningsOnly(f: EventFilter): boolean {
  return f.types?.length === 1 && f.types[0] === 'Warning';
}

function within(list: readonly string[] | undefined, value: string): boolean {
  return !list || list.length === 0 || list.includes(value);
}

export function matchesFilter(e: ClusterEvent, f: EventFilter): boolean {
  if (!within(f.types, e.type) || !within(f.namespaces, e.involvedObject.namespace || e.namespace) || !within(f.kinds, e.involvedObject.kind)) return false;
  if (!within(f.reasons, e.reason) || !within(f.sources, e.source)) return false;
  if (f.object && !isObjectOrOwned(e.involvedObject, f.object)) return false;
  if (f.text) {
    const t = f.text.toLowerCase();
    return e.reason.toLowerCase().includes(t) || e.message.toLowerCase().includes(t) || e.involvedObject.name.toLowerCase().includes(t);
  }
  return true;
}

/**
 * What the apiserver can filter for us (a field selector), so a view of it holds everything
 * the cluster has, not only what the store's cap kept: one object, or warnings.
 */
export function serverSelector(f: EventFilter): string | undefined {
  const o = f.object;
  // A field selector names one object: with what it owns, the store's events are shown.
  if (o?.owned?.length) return undefined;
  if (o) {
    if (o.uid) return `involvedObject.uid=${o.uid}`;
    return [`involvedObject.kind=${o.kind}`, `involvedObject.name=${o.name}`, ...(o.namespace !== undefined ? [`involvedObject.namespace=${o.namespace}`] : [])].join(',');
  }
  if (f.types?.length === 1 && f.types[0] === 'Warning') return 'type=Warning';
  return undefined;
}

export function isFilterActive(f: EventFilter): boolean {
  return Boolean(f.types?.length || f.namespaces?.length || f.kinds?.length || f.reasons?.length || f.sources?.length || f.text || f.object);
}

/** A short description of the active filters, for the view's description. */
export function describeFilter(f: EventFilter): string {
  const parts: string[] = [];
  if (f.object) parts.push(`${f.object.kind}/${f.object.name}${f.object.owned?.length ? ' and what it owns' : ''}`);
  if (f.types?.length) parts.push(f.types.join('/'));
  if (f.namespaces?.length) parts.push(`ns: ${f.namespaces.join(',')}`);
  if (f.kinds?.length) parts.push(`kind: ${f.kinds.join(',')}`);
  if (f.reasons?.length) parts.push(`reason: ${f.reasons.join(',')}`);
  if (f.sources?.length) parts.push(`from: ${f.sources.join(',')}`);
  if (f.text) parts.push(`"${f.text}"`);
  return parts.join(' · ');
}
