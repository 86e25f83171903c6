// Keeps an OwnerIndex current from the cluster: metadata-only list+watch (client-go's
// metadata informers do the same) of the kinds that own pods' events' objects: Pods,
// ReplicaSets and Jobs, each in every watched namespace. Only ownerReferences are read, so
// it costs a fraction of a full pod watch. A kind the user may not list is left out: its
// objects stay where they are in the tree instead of rolling up.
import type { OwnerIndex } from '../model/ownerIndex';
import type { ApiClient } from './apiRequest';
import { ListWatch, type ListWatchState, type RawObject } from './listWatch';

const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/** The kinds whose owners a workload roll-up needs (Deployments, StatefulSets, DaemonSets and CronJobs are at the top). */
export const OWNED_KINDS = [
  { kind: 'Pod', apiVersion: 'v1', resource: 'pods' },
  { kind: 'ReplicaSet', apiVersion: 'apps/v1', resource: 'replicasets' },
  { kind: 'Job', apiVersion: 'batch/v1', resource: 'jobs' },
] as const;

interface Metadata extends RawObject {
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    ownerReferences?: { apiVersion?: string; kind?: string; name?: string; uid?: string; controller?: boolean }[];
  };
}

function collection(apiVersion: string, resource: string, namespace?: string): string {
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${resource}` : `${base}/${resource}`;
}

export class OwnerWatch {
  private readonly watches: { key: string; watch: ListWatch<Metadata> }[] = [];
  private readonly states = new Map<string, ListWatchState>();

  constructor(
    client: ApiClient,
    private readonly index: OwnerIndex,
    namespaces: readonly string[],
    private readonly now: () => number = Date.now,
  ) {
    const scopes = namespaces.length ? [...new Set(namespaces)] : [undefined];
    for (const k of OWNED_KINDS) {
      for (const namespace of scopes) {
        const key = `${k.resource}/${namespace ?? ''}`;
        let listed = new Set<string>();
        const watch = new ListWatch<Metadata>(
          client,
          { api: 'core/v1', namespace, resource: { path: collection(k.apiVersion, k.resource, namespace), what: k.resource, listAccept: METADATA_LIST, watchAccept: METADATA } },
          {
            onListPage: (items, first) => {
              if (first) listed = new Set();
              for (const item of items) {
                const uid = this.put(k.kind, k.apiVersion, item);
                if (uid) listed.add(uid);
              }
            },
            onListDone: () => {
              // Gone while we were not watching: remembered as deleted.
              for (const o of this.index.toJSON()) if (o.kind === k.kind && (namespace === undefined || o.namespace === namespace) && !listed.has(o.uid)) this.index.markDeleted(o.uid, this.now());
            },
            onEvent: (type, item) => {
              if (type === 'DELETED') this.index.markDeleted(item.metadata?.uid ?? '', this.now());
              else this.put(k.kind, k.apiVersion, item);
            },
            onState: (state) => this.states.set(key, state),
          },
        );
        this.watches.push({ key, watch });
      }
    }
  }

  private put(kind: string, apiVersion: string, item: Metadata): string | undefined {
    const m = item.metadata;
    if (!m?.uid || !m.name) return undefined;
    const ref = m.ownerReferences?.find((r) => r.controller) ?? m.ownerReferences?.[0];
    this.index.set({
      kind,
      apiVersion,
      namespace: m.namespace ?? '',
      name: m.name,
      uid: m.uid,
      owner: ref?.uid && ref.kind && ref.name ? { kind: ref.kind, name: ref.name, uid: ref.uid, apiVersion: ref.apiVersion ?? '' } : undefined,
    });
    return m.uid;
  }

  /** Each watch's state, by resource/namespace: forbidden ones mean that kind does not roll up. */
  get state(): ReadonlyMap<string, ListWatchState> {
    return this.states;
  }

  start(): void {
    for (const { watch } of this.watches) watch.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.watches.map(({ watch }) => watch.stop()));
  }
}
