// Which kinds the cluster serves and which objects exist, for the Record Event picker:
// the core and group discovery documents, then a list of the chosen resource.
import type { ObjectSummary } from '../model/recordRequest';
import { StatusError } from '../record/errors';
import type { ApiClient } from './apiRequest';

export interface ResourceKind {
  readonly kind: string;
  readonly apiVersion: string;
  /** The plural resource name in the URL. */
  readonly resource: string;
  readonly namespaced: boolean;
}

interface ApiResourceList {
  groupVersion: string;
  resources: { name: string; kind: string; namespaced: boolean; verbs?: string[] }[];
}

/** The API root of a group version: /api/v1 for the core group, /apis/<group>/<version> otherwise. */
export function groupVersionPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

/** The collection of a kind (in one namespace when it is namespaced and one is given). */
export function collectionPath(kind: ResourceKind, namespace?: string): string {
  return `${groupVersionPath(kind.apiVersion)}${kind.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${kind.resource}`;
}

/** The path of one object. */
export function objectPath(kind: ResourceKind, name: string, namespace?: string): string {
  return `${collectionPath(kind, namespace)}/${encodeURIComponent(name)}`;
}

/**
 * The resource of a kind (plural names cannot be guessed): from its group version's
 * discovery document when the apiVersion is known, else from every group.
 */
export async function findResourceKind(client: ApiClient, kind: string, apiVersion?: string): Promise<ResourceKind | undefined> {
  if (!apiVersion) return (await listResourceKinds(client)).find((k) => k.kind === kind);
  const list = await client.request<ApiResourceList>({ method: 'GET', path: groupVersionPath(apiVersion) });
  const r = list.resources.find((x) => x.kind === kind && !x.name.includes('/'));
  return r && { kind, apiVersion, resource: r.name, namespaced: r.namespaced };
}

/** Kinds that can be listed (subresources left out), the usual ones first. */
export async function listResourceKinds(client: ApiClient): Promise<ResourceKind[]> {
  const core = await client.request<ApiResourceList>({ method: 'GET', path: '/api/v1' });
  const groups = await client.request<{ groups: { preferredVersion: { groupVersion: string } }[] }>({ method: 'GET', path: '/apis' });
  const lists = [core];
  // One group failing (an aggregated API that is down) must not hide the others.
  const results = await Promise.allSettled(groups.groups.map((g) => client.request<ApiResourceList>({ method: 'GET', path: groupVersionPath(g.preferredVersion.groupVersion) })));
  for (const r of results) if (r.status === 'fulfilled') lists.push(r.value);
  const kinds = new Map<string, ResourceKind>();
  for (const list of lists) {
    for (const r of list.resources) {
      if (r.name.includes('/') || !(r.verbs ?? []).includes('list')) continue;
      const key = `${list.groupVersion}/${r.kind}`;
      if (!kinds.has(key)) kinds.set(key, { kind: r.kind, apiVersion: list.groupVersion, resource: r.name, namespaced: r.namespaced });
    }
  }
  const usual = ['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'Service', 'ConfigMap', 'Node', 'Namespace'];
  const rank = (k: ResourceKind) => (usual.includes(k.kind) ? usual.indexOf(k.kind) : usual.length);
  return [...kinds.values()].sort((a, b) => rank(a) - rank(b) || a.kind.localeCompare(b.kind) || a.apiVersion.localeCompare(b.apiVersion));
}

/** The objects of a kind, in every namespace (or one), as references can be made from them. */
export async function listObjects(client: ApiClient, kind: ResourceKind, namespace?: string): Promise<ObjectSummary[]> {
  const path = `${collectionPath(kind, namespace)}?limit=500`;
  const list = await client.request<{ items?: { metadata: { name: string; namespace?: string; uid?: string } }[] }>({ method: 'GET', path });
  // List items carry no apiVersion and kind: the reference needs them.
  return (list.items ?? []).map((i) => ({ apiVersion: kind.apiVersion, kind: kind.kind, metadata: { name: i.metadata.name, namespace: i.metadata.namespace, uid: i.metadata.uid } }));
}

/** Whether the cluster serves events.k8s.io/v1 (client-go's adapter asks the same: any error is no). */
export async function servesEventsV1(client: ApiClient): Promise<boolean> {
  try {
    await client.request<ApiResourceList>({ method: 'GET', path: groupVersionPath('events.k8s.io/v1') });
    return true;
  } catch {
    return false;
  }
}

/**
 * An object named as kubectl takes it, `Kind/name` (the kind, or its plural resource, any
 * case): namespaced kinds are looked for in `namespace`. Throws a sentence saying what to fix.
 */
export async function findObject(client: ApiClient, kindSlashName: string, namespace: string | undefined): Promise<ObjectSummary> {
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(kindSlashName.trim());
  if (!m) throw new Error(`Write the object as Kind/name, for example Node/worker-1 (not ${JSON.stringify(kindSlashName)}).`);
  const [, kindText, name] = m;
  const wanted = kindText.toLowerCase();
  const kinds = await listResourceKinds(client);
  const kind = kinds.find((k) => k.kind.toLowerCase() === wanted) ?? kinds.find((k) => k.resource === wanted);
  if (!kind) throw new Error(`This cluster serves no kind named ${kindText}.`);
  const where = kind.namespaced ? namespace : undefined;
  try {
    const o = await client.request<{ metadata: { name: string; namespace?: string; uid?: string } }>({ method: 'GET', path: objectPath(kind, name, where) });
    return { apiVersion: kind.apiVersion, kind: kind.kind, metadata: { name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid } };
  } catch (e) {
    if (e instanceof StatusError && e.code === 404) throw new Error(`There is no ${kind.kind} named ${name}${where ? ` in ${where}` : ''}.`);
    throw e;
  }
}
