// A Kubernetes resource as a manifest file declares it, and the live objects it may be in a
// cluster: the name and namespace as written, then as each kustomization that lists the
// file transforms them.

/** Lines and characters from 0, in UTF-16 code units (an editor's positions). */
export interface TextSpan {
  readonly startLine: number;
  readonly startChar: number;
  readonly endLine: number;
  readonly endChar: number;
}

export interface ManifestResource {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** metadata.namespace as written; empty when the document has none. */
  readonly namespace: string;
  /** The whole document (or List item). */
  readonly span: TextSpan;
  /** The value of metadata.name: where the Problems panel points. */
  readonly nameSpan: TextSpan;
  /** config.kubernetes.io/origin's path, when a kustomize build stamped it on this resource. */
  readonly originPath?: string;
}

/** One live object a resource may be: the API group (no version), kind, namespace ('' when not known) and name. */
export interface LiveName {
  readonly group: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/** The API group of an apiVersion: '' for the core group (v1). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** What live objects are looked up by: kind and name (the namespace and group are compared after). */
export function nameKey(kind: string, name: string): string {
  return `${kind}\u0000${name}`;
}

/**
 * Whether a live object (an event's involved object) is this name: same kind and name, the
 * same group when the event says it, and the same namespace unless the object has none
 * (cluster-scoped objects, whose manifests' namespace the apiserver ignores).
 */
export function isLiveName(n: LiveName, o: { kind: string; name: string; namespace: string; apiVersion: string }): boolean {
  if (n.kind !== o.kind || n.name !== o.name) return false;
  if (o.apiVersion && groupOf(o.apiVersion) !== n.group) return false;
  return o.namespace === '' || o.namespace === n.namespace;
}

export function describeLiveName(n: LiveName): string {
  return `${n.kind}/${n.name}${n.namespace ? ` in ${n.namespace}` : ''}`;
}
