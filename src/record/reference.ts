// Port of client-go/tools/reference/ref.go for objects read from the API as JSON, which
// always carry apiVersion and kind (no scheme is needed to find them).
import type { ObjectReference } from './types';

/** An object as the API returns it. */
export interface KubernetesObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; uid?: string; resourceVersion?: string };
}

export class ReferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReferenceError';
  }
}

/** An object without metadata is taken as an ObjectReference (even an empty one, as Go takes &ObjectReference{}). */
function isObjectReference(obj: object): obj is ObjectReference {
  return !('metadata' in obj);
}

/**
 * The reference an event is about. An ObjectReference is returned as it is (client-go
 * returns the same pointer); an object needs kind, apiVersion and metadata.name.
 */
export function getReference(obj: KubernetesObject | ObjectReference | null | undefined): ObjectReference {
  if (obj === null || obj === undefined || typeof obj !== 'object') throw new ReferenceError("can't reference a nil object");
  if (isObjectReference(obj)) return obj;
  const o = obj;
  const missing = [!o.kind && 'kind', !o.apiVersion && 'apiVersion', !o.metadata?.name && 'metadata.name'].filter(Boolean);
  if (missing.length > 0) {
    const what = o.metadata?.name ? `object ${o.metadata.name}` : o.kind ? `a ${o.kind}` : 'object';
    throw new ReferenceError(`cannot reference ${what}: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`);
  }
  const ref: ObjectReference = { kind: o.kind, apiVersion: o.apiVersion, name: o.metadata?.name };
  if (o.metadata?.namespace) ref.namespace = o.metadata.namespace;
  if (o.metadata?.uid) ref.uid = o.metadata.uid;
  if (o.metadata?.resourceVersion) ref.resourceVersion = o.metadata.resourceVersion;
  return ref;
}

/** GetPartialReference: the reference with a field path (for example spec.containers{web}). */
export function getPartialReference(obj: KubernetesObject | ObjectReference, fieldPath: string): ObjectReference {
  return { ...getReference(obj), fieldPath };
}
