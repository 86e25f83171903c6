// The workspace's manifests, indexed by the live objects they may be: for each file its
// resources and each resource's live names (as written, or as the kustomizations listing the
// file name it, or as a kustomize build that stamped origin annotations named it), and from
// a kind and name back to the resources. Looking up an event's object costs one map read.
import { dirOf, joinPath, Kustomizations, type Kustomization } from './kustomization';
import { isLiveName, nameKey, type LiveName, type ManifestResource } from './manifestResource';

/** A resource of a file and one name it may have live. */
export interface IndexEntry {
  readonly file: string;
  /** The resource's place in the file's list. */
  readonly index: number;
  readonly name: LiveName;
}

interface FileEntry {
  readonly resources: readonly ManifestResource[];
  names: LiveName[][];
}

/** A rendered resource's live name, kept under each path its origin annotation may mean. */
interface OriginLink {
  readonly kind: string;
  readonly renderedName: string;
  readonly name: LiveName;
}

export class ManifestIndex {
  private readonly files = new Map<string, FileEntry>();
  private readonly byName = new Map<string, Set<IndexEntry>>();
  private readonly kustomizations = new Kustomizations();
  /** Source path → the rendered resources whose origin annotation may name it. */
  private readonly origins = new Map<string, OriginLink[]>();
  private defaultNamespace = 'default';
  /** Grows with every change. */
  version = 0;

  get fileCount(): number {
    return this.files.size;
  }

  /** The kustomizations known. */
  get kustomizationCount(): number {
    return this.kustomizations.size;
  }

  get resourceCount(): number {
    let n = 0;
    for (const f of this.files.values()) n += f.resources.length;
    return n;
  }

  /** The files indexed, and their resources. */
  *entries(): IterableIterator<[string, readonly ManifestResource[]]> {
    for (const [file, f] of this.files) yield [file, f.resources];
  }

  resources(file: string): readonly ManifestResource[] {
    return this.files.get(file)?.resources ?? [];
  }

  /** The live names of a file's resource. */
  liveNames(file: string, index: number): readonly LiveName[] {
    return this.files.get(file)?.names[index] ?? [];
  }

  /** Sets (or with an empty list, keeps as not a manifest) a file's resources; names the files whose live names changed. */
  setFile(file: string, resources: readonly ManifestResource[]): string[] {
    const before = this.files.get(file);
    const hadOrigins = before?.resources.some((r) => r.originPath) ?? false;
    this.unlink(file);
    if (!resources.length) this.files.delete(file);
    else this.files.set(file, { resources, names: [] });
    this.version++;
    if (hadOrigins || resources.some((r) => r.originPath)) return this.renameAll();
    this.link(file);
    return [file];
  }

  /** Sets many files at once (a workspace scan): names are made once, not once a file. */
  setFiles(files: Iterable<readonly [string, readonly ManifestResource[]]>): string[] {
    for (const [file, resources] of files) {
      this.unlink(file);
      if (!resources.length) this.files.delete(file);
      else this.files.set(file, { resources, names: [] });
    }
    return this.renameAll();
  }

  deleteFile(file: string): string[] {
    return this.files.has(file) ? this.setFile(file, []) : [];
  }

  /** A kustomization appeared, changed or (undefined) went: every file's names are made again. */
  setKustomization(dir: string, k: Kustomization | undefined): string[] {
    if (k) this.kustomizations.set(k);
    else this.kustomizations.delete(dir);
    return this.renameAll();
  }

  /** The namespace of resources that name none (the context's). */
  setDefaultNamespace(namespace: string): string[] {
    if (namespace === this.defaultNamespace) return [];
    this.defaultNamespace = namespace;
    return this.renameAll();
  }

  /** The resources an event's object (or an owner of it) may be. */
  find(o: { kind: string; name: string; namespace: string; apiVersion: string }): IndexEntry[] {
    const set = this.byName.get(nameKey(o.kind, o.name));
    if (!set) return [];
    const out: IndexEntry[] = [];
    for (const e of set) if (isLiveName(e.name, o)) out.push(e);
    return out;
  }

  private renameAll(): string[] {
    this.byName.clear();
    this.collectOrigins();
    for (const file of this.files.keys()) this.link(file);
    this.version++;
    return [...this.files.keys()];
  }

  private link(file: string): void {
    const f = this.files.get(file);
    if (!f) return;
    f.names = f.resources.map((r, index) => {
      const names = this.kustomizations.liveNames(file, r, this.defaultNamespace);
      for (const o of this.origins.get(file) ?? []) {
        if (o.kind === r.kind && o.renderedName.includes(r.name) && !names.some((n) => n.name === o.name.name && n.namespace === o.name.namespace)) names.push(o.name);
      }
      for (const name of names) {
        const key = nameKey(name.kind, name.name);
        let set = this.byName.get(key);
        if (!set) this.byName.set(key, (set = new Set()));
        set.add({ file, index, name });
      }
      return names;
    });
  }

  private unlink(file: string): void {
    const f = this.files.get(file);
    if (!f) return;
    for (const names of f.names) {
      for (const name of names) {
        const set = this.byName.get(nameKey(name.kind, name.name));
        if (!set) continue;
        for (const e of set) if (e.file === file) set.delete(e);
        if (!set.size) this.byName.delete(nameKey(name.kind, name.name));
      }
    }
  }

  /**
   * An origin path is relative to the kustomization that was built, which the rendered file
   * does not say: it is kept under every path it may mean (from each kustomization's
   * directory, and from the rendered file's own).
   */
  private collectOrigins(): void {
    this.origins.clear();
    const roots = [...this.kustomizationDirs()];
    for (const [file, f] of this.files) {
      for (const r of f.resources) {
        if (!r.originPath) continue;
        const name = this.kustomizations.liveNames(file, r, this.defaultNamespace)[0];
        for (const dir of new Set([dirOf(file), ...roots])) {
          const source = joinPath(dir, r.originPath);
          if (source === file) continue;
          const list = this.origins.get(source) ?? [];
          list.push({ kind: r.kind, renderedName: r.name, name });
          this.origins.set(source, list);
        }
      }
    }
  }

  private kustomizationDirs(): IterableIterator<string> {
    return this.kustomizations.dirs();
  }
}
