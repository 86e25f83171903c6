// What kustomize does to a listed file's names, so a resource maps to the object
// `kubectl apply -k` made: each kustomization's namespace, namePrefix and nameSuffix, an
// overlay's wrapped around its base's (the overlay's prefix outermost, its namespace
// winning). Checked against `kubectl kustomize` (kustomize v5): Namespace and
// CustomResourceDefinition names take no prefix or suffix, and a Namespace object is
// renamed to the kustomization's namespace. Paths are '/'-separated and absolute.
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { LiveName, ManifestResource } from './manifestResource';
import { groupOf } from './manifestResource';

/** The file names kustomize looks for in a directory, in its order. */
export const KUSTOMIZATION_FILES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** Kustomizations nested deeper than this are not followed (a loop of bases would be endless). */
const MAX_DEPTH = 16;

export interface Kustomization {
  /** Its directory. */
  readonly dir: string;
  /** resources, bases and components, resolved against dir (remote URLs left out). */
  readonly entries: readonly string[];
  readonly namespace?: string;
  readonly namePrefix: string;
  readonly nameSuffix: string;
}

/** A kustomization's text, or undefined when it is not one (invalid YAML, not a map). */
export function parseKustomization(dir: string, text: string): Kustomization | undefined {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length || !isMap(doc.contents)) return undefined;
  const map = doc.contents;
  const str = (k: string) => {
    const v = map.get(k, true);
    return isScalar(v) && typeof v.value === 'string' ? v.value : undefined;
  };
  const entries: string[] = [];
  for (const key of ['resources', 'bases', 'components']) {
    const list = map.get(key, true);
    if (!isSeq(list)) continue;
    for (const item of list.items) {
      if (!isScalar(item) || typeof item.value !== 'string' || /^[a-z][a-z0-9+.-]*:\/\//i.test(item.value) || item.value.startsWith('github.com/')) continue;
      entries.push(joinPath(dir, item.value));
    }
  }
  return { dir, entries, namespace: str('namespace') || undefined, namePrefix: str('namePrefix') ?? '', nameSuffix: str('nameSuffix') ?? '' };
}

/** What a chain of kustomizations does to names: the outermost's prefix first. */
interface Transform {
  readonly namespace?: string;
  readonly prefix: string;
  readonly suffix: string;
}

/** Every kustomization in the workspace, and through them the names a file's resources get. */
export class Kustomizations {
  private readonly byDir = new Map<string, Kustomization>();
  /** Entry path (file or directory) → the kustomizations that list it. */
  private readonly listedBy = new Map<string, Set<string>>();

  get size(): number {
    return this.byDir.size;
  }

  dirs(): IterableIterator<string> {
    return this.byDir.keys();
  }

  set(k: Kustomization): void {
    this.delete(k.dir);
    this.byDir.set(k.dir, k);
    for (const e of k.entries) {
      let set = this.listedBy.get(e);
      if (!set) this.listedBy.set(e, (set = new Set()));
      set.add(k.dir);
    }
  }

  delete(dir: string): void {
    const k = this.byDir.get(dir);
    if (!k) return;
    this.byDir.delete(dir);
    for (const e of k.entries) this.listedBy.get(e)?.delete(dir);
  }

  /** Whether any kustomization lists this file (its resources are then named by them, not as written). */
  lists(file: string): boolean {
    return (this.listedBy.get(file)?.size ?? 0) > 0;
  }

  /**
   * The names a resource of `file` has in a cluster: one for each kustomization that lists
   * the file and each that includes that one (directly or through bases), since any of them
   * may be the one applied; as written when none does. `defaultNamespace` fills in a
   * namespace nothing gave.
   */
  liveNames(file: string, r: ManifestResource, defaultNamespace: string): LiveName[] {
    const names = new Map<string, LiveName>();
    const add = (t: Transform) => {
      const n = transformed(r, t, defaultNamespace);
      names.set(`${n.namespace}/${n.name}`, n);
    };
    const direct = this.listedBy.get(file);
    if (!direct?.size) add({ prefix: '', suffix: '' });
    const walk = (dir: string, inner: Transform, depth: number, seen: Set<string>) => {
      const k = this.byDir.get(dir);
      if (!k || seen.has(dir) || depth > MAX_DEPTH) return;
      const t: Transform = { namespace: k.namespace ?? inner.namespace, prefix: k.namePrefix + inner.prefix, suffix: inner.suffix + k.nameSuffix };
      add(t);
      const next = new Set(seen).add(dir);
      for (const outer of this.listedBy.get(dir) ?? []) walk(outer, t, depth + 1, next);
    };
    for (const dir of direct ?? []) walk(dir, { prefix: '', suffix: '' }, 0, new Set());
    return [...names.values()];
  }
}

function transformed(r: ManifestResource, t: Transform, defaultNamespace: string): LiveName {
  const group = groupOf(r.apiVersion);
  if (r.kind === 'Namespace' && group === '') return { group, kind: r.kind, namespace: '', name: t.namespace ?? r.name };
  const fixed = r.kind === 'CustomResourceDefinition' && group === 'apiextensions.k8s.io';
  return { group, kind: r.kind, namespace: t.namespace ?? (r.namespace || defaultNamespace), name: fixed ? r.name : t.prefix + r.name + t.suffix };
}

/** `dir` joined with a relative path, '.' and '..' resolved ('/'-separated). */
export function joinPath(dir: string, relative: string): string {
  const parts = relative.startsWith('/') ? [] : dir.split('/');
  for (const p of relative.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (parts.length > 1) parts.pop();
    } else parts.push(p);
  }
  const joined = parts.join('/');
  return joined.startsWith('/') ? joined : `/${joined}`;
}

/** The directory of a '/'-separated path. */
export function dirOf(file: string): string {
  const i = file.lastIndexOf('/');
  return i <= 0 ? '/' : file.slice(0, i);
}
