// The manifests the user edits, kept mapped to the connected cluster's events: the open
// editors' YAML and JSON (or, on a setting, every manifest in the workspace), the
// workspace's kustomizations, and the context's default namespace. Edits are parsed again
// after a pause in typing; what changed reaches the surfaces (Problems, CodeLens, hover,
// Explorer) as the files it touched, within a tenth of a second of the store.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ObjectPresence, type Presence } from '../cluster/objectPresence';
import { Emitter } from '../common/emitter';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { EventStore } from '../model/eventStore';
import { NO_FILTER } from '../model/filters';
import { dirOf, KUSTOMIZATION_FILES, parseKustomization } from '../model/manifests/kustomization';
import { ManifestIndex } from '../model/manifests/manifestIndex';
import type { LiveName, ManifestResource } from '../model/manifests/manifestResource';
import { ManifestStatus, type ResourceStatus } from '../model/manifests/manifestStatus';
import { MAX_MANIFEST_BYTES, parseManifestsInSlices } from '../model/manifests/parseManifests';
import { yieldToEventLoop } from '../model/slices';
import type { Logger } from '../record/logger';
import type { ConnectionService } from './connectionService';
import type { OwnerService } from './ownerService';
import type { ManifestSettings, Settings } from './settingsValidation';

/** A pause in typing this long parses the document again. */
const EDIT_DEBOUNCE_MS = 300;
/** Changes reach the surfaces at most this often (well inside the 1 s a new warning may take). */
const FLUSH_MS = 100;
/** A workspace scan reads this many files between turns of the event loop. */
const SCAN_BATCH = 50;
/** Opening a manifest looks for kustomizations again when the last look is older than this. */
const KUSTOMIZATION_RESCAN_MS = 10_000;
const KUSTOMIZATION_GLOB = `**/{${KUSTOMIZATION_FILES.join(',')}}`;
const MANIFEST_LANGUAGES = new Set(['yaml', 'json', 'jsonc', 'helm']);

export interface ManifestSettingsSource {
  readonly value: Settings;
  onDidChange(listener: (before: Settings, after: Settings) => void): { dispose(): void };
}

export class ManifestService extends Disposable {
  readonly index = new ManifestIndex();
  readonly status: ManifestStatus;
  private readonly uris = new Map<string, vscode.Uri>();
  private readonly changed = this._register(new Emitter<ReadonlySet<string>>());
  /** The paths of files whose resources or status may have changed. */
  readonly onDidChange = this.changed.event;
  private pending = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private readonly edits = new Map<string, NodeJS.Timeout>();
  private readonly logged = new Set<string>();
  /** Reads of each open document begun: a slower older one does not overwrite a newer. */
  private readonly reads = new Map<string, number>();
  private scope: ManifestSettings['scope'] = 'off';
  /** Grows with each scope or settings change: a scan of an older one stops. */
  private generation = 0;
  private workspaceWatch: vscode.Disposable | undefined;
  private presence: { identity: string; checker: ObjectPresence } | undefined;
  /** Resolves when the current scan has read every file. */
  private scanned: Promise<void> = Promise.resolve();
  private remapping: Promise<void> | undefined;
  private remapAgain = false;
  /** Each kustomization's text as last read, by path. */
  private readonly kustomizationTexts = new Map<string, string>();
  private kustomizationsFound = 0;

  constructor(
    store: EventStore,
    private readonly owners: OwnerService,
    private readonly connection: ConnectionService,
    private readonly settings: ManifestSettingsSource,
    private readonly logger: Logger,
  ) {
    super();
    this.status = new ManifestStatus({ group: (key) => store.group(key), view: () => store.view(NO_FILTER) }, owners.index, this.index);
    this._register(store.onDidChange((c) => {
      if (this.scope === 'off') return;
      if (c.all) this.remap();
      else this.queue(this.status.update(c));
    }));
    this._register(owners.onDidChange(() => this.remap()));
    this._register(connection.onDidChangeStatus(() => this.contextChanged()));
    this._register(vscode.workspace.onDidOpenTextDocument((d) => this.scope !== 'off' && this.opened(d)));
    this._register(vscode.workspace.onDidChangeTextDocument((e) => this.scope !== 'off' && e.contentChanges.length > 0 && this.edited(e.document)));
    this._register(vscode.workspace.onDidCloseTextDocument((d) => this.closed(d)));
    // What is read changes with these; a surface turned on or off reads nothing again.
    const reads = (m: ManifestSettings) => JSON.stringify([m.scope, m.include, m.exclude]);
    this._register(settings.onDidChange((before, after) => reads(before.manifests) !== reads(after.manifests) && void this.apply()));
    this._register(toDisposable(() => {
      clearTimeout(this.flushTimer);
      for (const t of this.edits.values()) clearTimeout(t);
      this.workspaceWatch?.dispose();
    }));
    void this.apply();
  }

  /** The file's uri, by the path the index keys it under. */
  uri(path: string): vscode.Uri | undefined {
    return this.uris.get(path);
  }

  /** The path a document is indexed under (file documents only). */
  pathOf(uri: vscode.Uri): string | undefined {
    return uri.scheme === 'file' ? uri.path : undefined;
  }

  resources(uri: vscode.Uri): readonly ManifestResource[] {
    const p = this.pathOf(uri);
    return p ? this.index.resources(p) : [];
  }

  /** How long a warning counts after it was last seen. */
  get windowMs(): number {
    return this.settings.value.manifests.warningWindowMinutes * 60_000;
  }

  /** A resource's events and live warnings within the window. */
  statusOf(uri: vscode.Uri, index: number, now = Date.now()): ResourceStatus {
    return this.status.status(this.pathOf(uri) ?? '', index, now - this.windowMs);
  }

  liveNames(uri: vscode.Uri, index: number): readonly LiveName[] {
    return this.index.liveNames(this.pathOf(uri) ?? '', index);
  }

  /** Whether the context has any of the resource's live names: undefined while it cannot be asked. */
  presenceOf(uri: vscode.Uri, index: number): Promise<Presence> | undefined {
    const identity = this.connection.connection.identity;
    if (!identity || !this.connection.context) return undefined;
    if (this.presence?.identity !== identity) this.presence = { identity, checker: new ObjectPresence(this.connection.newClient()) };
    const r = this.resources(uri)[index];
    const checker = this.presence.checker;
    const names = this.liveNames(uri, index);
    if (!r || !names.length) return undefined;
    return Promise.all(names.map((n) => checker.check(n, r.apiVersion))).then((all) => all.find((p) => p.state === 'present') ?? all.find((p) => p.state === 'error') ?? all[0]);
  }

  /** Maps every stored event again, in slices; one at a time, the last request coming after. */
  private remap(): void {
    if (this.remapping) {
      this.remapAgain = true;
      return;
    }
    this.remapping = (async () => {
      do {
        this.remapAgain = false;
        this.queue(await this.status.rebuildInSlices());
      } while (this.remapAgain);
    })().finally(() => (this.remapping = undefined));
  }

  /** Resolves once the scan and the mapping it asked for are done (tests and the benchmark wait on it). */
  async settled(): Promise<void> {
    await this.scanned;
    while (this.remapping) await this.remapping;
  }

  /** Files whose live warnings changed reach the surfaces together, soon. */
  private queue(files: Iterable<string>): void {
    for (const f of files) this.pending.add(f);
    if (this.pending.size && !this.flushTimer) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        const files = this.pending;
        this.pending = new Set();
        this.changed.fire(files);
      }, FLUSH_MS);
    }
  }

  private contextChanged(): void {
    const c = this.connection.connection;
    const ns = c.kubeconfig?.contexts.find((x) => x.name === c.context)?.namespace || 'default';
    const files = this.index.setDefaultNamespace(ns);
    if (files.length) {
      this.queue(files);
      this.remap();
    }
    // The lens's "not in <context>" and the Problems' source name the context.
    this.queue(this.uris.keys());
  }

  /** Settings changed (or at start): index what the scope asks for. */
  private async apply(): Promise<void> {
    const m = this.settings.value.manifests;
    const generation = ++this.generation;
    this.scope = m.scope;
    this.workspaceWatch?.dispose();
    this.workspaceWatch = undefined;
    const before = [...this.uris.keys()];
    this.index.setFiles(before.map((p) => [p, []] as const));
    this.uris.clear();
    void this.owners.setWanted(m.scope !== 'off', 'manifests');
    if (m.scope === 'off') {
      this.queue(before);
      this.remap();
      return;
    }
    const done = this.scan(generation, m).catch((e: unknown) => this.logger.error(e, 'Cannot read the workspace manifests'));
    this.scanned = done.then(() => undefined);
    await done;
    this.queue(before);
  }

  private async scan(generation: number, m: ManifestSettings): Promise<void> {
    const exclude = m.exclude.length ? `{${m.exclude.join(',')}}` : undefined;
    const watchers: vscode.Disposable[] = [];
    const kustomizations = vscode.workspace.createFileSystemWatcher(KUSTOMIZATION_GLOB);
    watchers.push(kustomizations, kustomizations.onDidCreate((u) => this.readKustomization(u)), kustomizations.onDidChange((u) => this.readKustomization(u)), kustomizations.onDidDelete((u) => this.dropKustomization(u)));
    if (m.scope === 'workspace') {
      const files = vscode.workspace.createFileSystemWatcher(m.include);
      watchers.push(files, files.onDidCreate((u) => this.readFile(u)), files.onDidChange((u) => this.readFile(u)), files.onDidDelete((u) => this.dropFile(u)));
    }
    // A folder made or removed whole (git, a generator, a copy) is one event, none for its files.
    const anything = vscode.workspace.createFileSystemWatcher('**/*', false, true, false);
    watchers.push(anything, anything.onDidCreate((u) => void this.folderCreated(u, m, exclude)), anything.onDidDelete((u) => this.folderDeleted(u)));
    this.workspaceWatch = vscode.Disposable.from(...watchers);
    await this.findKustomizations(exclude, false);
    if (generation !== this.generation) return;
    const parsed: (readonly [string, readonly ManifestResource[]])[] = [];
    if (m.scope === 'workspace') {
      const uris = await vscode.workspace.findFiles(m.include, exclude);
      for (let i = 0; i < uris.length; i += SCAN_BATCH) {
        if (generation !== this.generation) return;
        const batch = await Promise.all(uris.slice(i, i + SCAN_BATCH).map((u) => this.readDisk(u)));
        for (const entry of batch) if (entry) parsed.push(entry);
        await yieldToEventLoop();
      }
    }
    for (const d of vscode.workspace.textDocuments) {
      const p = this.pathOf(d.uri);
      if (!p || !this.isManifestDocument(d)) continue;
      this.uris.set(p, d.uri);
      parsed.push([p, await this.parse(p, d.getText())]);
    }
    if (generation !== this.generation) return;
    this.index.setFiles(parsed);
    this.queue(parsed.map(([p]) => p));
    this.remap();
  }

  /**
   * Reads every kustomization in the workspace (those unchanged since the last look are left
   * be). File watchers can miss files made by other programs (a generator, git, kubectl), so
   * opening a manifest looks again when the last look is older than KUSTOMIZATION_RESCAN_MS.
   */
  private async findKustomizations(exclude: string | undefined, update: boolean): Promise<void> {
    this.kustomizationsFound = Date.now();
    const found = await vscode.workspace.findFiles(KUSTOMIZATION_GLOB, exclude);
    const paths = new Set(found.map((u) => this.pathOf(u)));
    for (const known of [...this.kustomizationTexts.keys()]) if (!paths.has(known)) this.dropKustomization(vscode.Uri.file(known));
    for (const u of found) await this.readKustomization(u, update);
  }

  /** A new folder: its kustomizations, and in the workspace scope its manifests, are read. */
  private async folderCreated(u: vscode.Uri, m: ManifestSettings, exclude: string | undefined): Promise<void> {
    if (/\.(ya?ml|json)$|\/Kustomization$|\/(node_modules|\.git)\//i.test(u.path)) return;
    try {
      if (!(await fs.promises.stat(u.fsPath)).isDirectory()) return;
    } catch {
      return;
    }
    for (const k of await vscode.workspace.findFiles(new vscode.RelativePattern(u, KUSTOMIZATION_GLOB), exclude)) await this.readKustomization(k);
    if (m.scope === 'workspace') for (const f of await vscode.workspace.findFiles(new vscode.RelativePattern(u, m.include), exclude)) await this.readFile(f);
  }

  private folderDeleted(u: vscode.Uri): void {
    const p = this.pathOf(u);
    if (!p) return;
    const under = `${p}/`;
    for (const k of [...this.kustomizationTexts.keys()]) if (k.startsWith(under)) this.dropKustomization(vscode.Uri.file(k));
    for (const f of [...this.uris.keys()]) if (f.startsWith(under)) this.dropFile(this.uris.get(f) ?? vscode.Uri.file(f));
  }

  private opened(d: vscode.TextDocument): void {
    void this.readDocument(d);
    const p = this.pathOf(d.uri);
    if (!p || !this.isManifestDocument(d)) return;
    // Its own folder's kustomization not known yet: the watchers missed it; look again now.
    const unknownBeside = KUSTOMIZATION_FILES.some((name) => !this.kustomizationTexts.has(`${dirOf(p)}/${name}`) && fs.existsSync(path.join(path.dirname(d.uri.fsPath), name)));
    if (unknownBeside || Date.now() - this.kustomizationsFound > KUSTOMIZATION_RESCAN_MS) {
      const m = this.settings.value.manifests;
      void this.findKustomizations(m.exclude.length ? `{${m.exclude.join(',')}}` : undefined, true);
    }
  }

  private isManifestDocument(d: vscode.TextDocument): boolean {
    return MANIFEST_LANGUAGES.has(d.languageId) || /\.(ya?ml|json)$/i.test(d.uri.path);
  }

  private async parse(path: string, text: string): Promise<readonly ManifestResource[]> {
    const r = await parseManifestsInSlices(text, yieldToEventLoop);
    return 'resources' in r ? r.resources : this.skip(path, r.skipped);
  }

  /** A file that is not read as manifests: said once in the log, never in a popup. */
  private skip(path: string, why: string): [] {
    if (!this.logged.has(path)) {
      this.logged.add(path);
      this.logger.info(0, `Manifests: skipped ${path}: ${why}`);
    }
    return [];
  }

  private async readDisk(u: vscode.Uri): Promise<readonly [string, readonly ManifestResource[]] | undefined> {
    const p = this.pathOf(u);
    if (!p) return undefined;
    this.uris.set(p, u);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === u.toString());
    if (open) return [p, await this.parse(p, open.getText())];
    try {
      const stat = await fs.promises.stat(u.fsPath);
      if (stat.size > MAX_MANIFEST_BYTES) return [p, this.skip(p, `larger than ${MAX_MANIFEST_BYTES / 1024 / 1024} MiB`)];
      return [p, await this.parse(p, await fs.promises.readFile(u.fsPath, 'utf8'))];
    } catch (e) {
      this.logger.info(0, `Manifests: cannot read ${p}: ${(e as Error).message}`);
      return [p, []];
    }
  }

  private set(p: string, resources: readonly ManifestResource[]): void {
    const files = this.index.setFile(p, resources);
    this.queue([p, ...files]);
    this.remap();
  }

  private async readDocument(d: vscode.TextDocument): Promise<void> {
    const p = this.pathOf(d.uri);
    if (!p || !this.isManifestDocument(d)) return;
    this.uris.set(p, d.uri);
    // A big document parses across turns: only the newest text read is kept.
    const reading = (this.reads.get(p) ?? 0) + 1;
    this.reads.set(p, reading);
    const resources = await this.parse(p, d.getText());
    if (this.reads.get(p) === reading) this.set(p, resources);
  }

  private edited(d: vscode.TextDocument): void {
    const p = this.pathOf(d.uri);
    if (!p) return;
    clearTimeout(this.edits.get(p));
    this.edits.set(p, setTimeout(() => {
      this.edits.delete(p);
      this.logged.delete(p);
      void this.readDocument(d);
    }, EDIT_DEBOUNCE_MS));
  }

  private closed(d: vscode.TextDocument): void {
    const p = this.pathOf(d.uri);
    if (!p || !this.uris.has(p)) return;
    // Still open in another tab, or a workspace manifest: kept (read from disk again).
    if (vscode.workspace.textDocuments.some((x) => x !== d && x.uri.toString() === d.uri.toString())) return;
    if (this.scope === 'workspace') void this.readFile(d.uri);
    else this.dropFile(d.uri);
  }

  private async readFile(u: vscode.Uri): Promise<void> {
    const entry = await this.readDisk(u);
    if (entry && this.scope === 'workspace') this.set(entry[0], entry[1]);
  }

  private dropFile(u: vscode.Uri): void {
    const p = this.pathOf(u);
    if (!p) return;
    this.uris.delete(p);
    this.queue([p, ...this.index.deleteFile(p)]);
    this.remap();
  }

  private async readKustomization(u: vscode.Uri, update = true): Promise<void> {
    const p = this.pathOf(u);
    if (!p) return;
    let text: string;
    try {
      text = await fs.promises.readFile(u.fsPath, 'utf8');
    } catch {
      return this.dropKustomization(u);
    }
    if (this.kustomizationTexts.get(p) === text) return;
    this.kustomizationTexts.set(p, text);
    const k = parseKustomization(dirOf(p), text);
    if (!k) this.logger.info(0, `Manifests: ${p} is not a kustomization kustomize could read; its files keep their names as written`);
    const files = this.index.setKustomization(dirOf(p), k);
    if (update) this.queue(files);
    this.remap();
  }

  private dropKustomization(u: vscode.Uri): void {
    const p = this.pathOf(u);
    if (!p) return;
    this.kustomizationTexts.delete(p);
    this.queue(this.index.setKustomization(dirOf(p), undefined));
    this.remap();
  }
}
