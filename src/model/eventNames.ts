// Which uid an event's namespace and name belong to: a locally recorded event and the
// server's copy of it share their name, not their uid. Kept by namespace, then by the
// event's own name string: no "namespace/name" key is built and kept for every event.
import { ShardedMap } from './shardedMap';

export class EventNames {
  private readonly byNamespace = new Map<string, ShardedMap<string>>();

  get(namespace: string, name: string): string | undefined {
    return this.byNamespace.get(namespace)?.get(name);
  }

  set(namespace: string, name: string, uid: string): void {
    let names = this.byNamespace.get(namespace);
    if (!names) this.byNamespace.set(namespace, (names = new ShardedMap<string>()));
    names.set(name, uid);
  }

  /** Forgets the name only while it still belongs to `uid`. */
  deleteIf(namespace: string, name: string, uid: string): void {
    const names = this.byNamespace.get(namespace);
    if (names?.get(name) !== uid) return;
    names.delete(name);
    if (names.size === 0) this.byNamespace.delete(namespace);
  }

  clear(): void {
    this.byNamespace.clear();
  }
}
