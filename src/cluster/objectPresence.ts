// Whether the cluster has an object of a manifest (a CodeLens says "not in <context>" when it
// has not): one metadata GET per object, remembered for a while, the kind's resource found
// once through discovery. Quiet objects have no events, so events alone cannot tell.
import type { LiveName } from '../model/manifests/manifestResource';
import { StatusError } from '../record/errors';
import type { ApiClient } from './apiRequest';
import { findResourceKind, objectPath, type ResourceKind } from './discovery';

/** How long an answer is believed: a lens shows no older news than this. */
export const PRESENCE_TTL_MS = 30_000;
/** One answer's deadline: a lens waits no longer than this to say it cannot tell. */
const PRESENCE_TIMEOUT_MS = 10_000;
const METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

export type Presence =
  | { readonly state: 'present' }
  | { readonly state: 'absent' }
  /** The cluster serves no such kind (a custom resource whose definition is not installed). */
  | { readonly state: 'unknownKind' }
  | { readonly state: 'error'; readonly message: string };

export class ObjectPresence {
  private readonly answers = new Map<string, { at: number; presence: Promise<Presence> }>();
  private readonly kinds = new Map<string, Promise<ResourceKind | undefined>>();

  constructor(
    private readonly client: ApiClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer known now, if it is fresh. */
  known(n: LiveName, apiVersion: string): Promise<Presence> | undefined {
    const a = this.answers.get(key(n, apiVersion));
    return a && this.now() - a.at < PRESENCE_TTL_MS ? a.presence : undefined;
  }

  /** Asks the cluster (or the fresh answer). */
  check(n: LiveName, apiVersion: string): Promise<Presence> {
    const known = this.known(n, apiVersion);
    if (known) return known;
    const presence = this.ask(n, apiVersion);
    this.answers.set(key(n, apiVersion), { at: this.now(), presence });
    return presence;
  }

  private async ask(n: LiveName, apiVersion: string): Promise<Presence> {
    try {
      const kind = await this.kind(n.kind, apiVersion);
      if (!kind) return { state: 'unknownKind' };
      await this.client.request({ method: 'GET', path: objectPath(kind, n.name, n.namespace), accept: METADATA, timeoutMs: PRESENCE_TIMEOUT_MS });
      return { state: 'present' };
    } catch (e) {
      if (e instanceof StatusError && e.code === 404) return { state: 'absent' };
      return { state: 'error', message: (e as Error).message };
    }
  }

  private kind(kind: string, apiVersion: string): Promise<ResourceKind | undefined> {
    const k = `${apiVersion}\u0000${kind}`;
    let p = this.kinds.get(k);
    if (!p) {
      p = findResourceKind(this.client, kind, apiVersion).catch((e: unknown) => {
        this.kinds.delete(k);
        // A group version the cluster does not serve answers 404: no such kind.
        if (e instanceof StatusError && e.code === 404) return undefined;
        throw e;
      });
      this.kinds.set(k, p);
    }
    return p;
  }
}

function key(n: LiveName, apiVersion: string): string {
  return `${apiVersion}\u0000${n.kind}\u0000${n.namespace}\u0000${n.name}`;
}
