// The Explorer: a manifest whose objects have live warnings carries their count as a badge
// and the warning colour, and so do its folders (VS Code's FileDecoration propagation).
// While those warnings are in the Problems panel, VS Code's own problem decoration already
// badges the file with their count: ours then adds its tooltip and colour, not a second
// badge ("2, 2").
import * as vscode from 'vscode';
import { Emitter } from '../../common/emitter';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { ManifestService } from '../../services/manifestService';

/** How often badges are checked against the window (a warning leaving it takes its badge). */
const WINDOW_REFRESH_MS = 30_000;

export class ManifestDecorations extends Disposable implements vscode.FileDecorationProvider {
  private readonly changed = this._register(new Emitter<vscode.Uri[]>());
  readonly onDidChangeFileDecorations = this.changed.event;
  /** The files decorated now, and where (a file dropped from the index is cleared there). */
  private readonly badged = new Map<string, vscode.Uri>();

  constructor(
    private readonly manifests: ManifestService,
    private readonly connection: { readonly context: string | undefined },
    private readonly enabled: () => boolean,
    private readonly problemsShown: () => boolean,
  ) {
    super();
    this._register(manifests.onDidChange((files) => this.fire(files)));
    this._register(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('problems.decorations.enabled') && this.refresh()));
    const timer = setInterval(() => this.fire(this.badged.keys()), WINDOW_REFRESH_MS);
    this._register(toDisposable(() => clearInterval(timer)));
    this._register(vscode.window.registerFileDecorationProvider(this));
  }

  refresh(): void {
    this.fire([...this.badged.keys(), ...[...this.manifests.index.entries()].map(([p]) => p)]);
  }

  private fire(files: Iterable<string>): void {
    const uris = [...files].map((p) => this.manifests.uri(p) ?? this.badged.get(p)).filter((u): u is vscode.Uri => u !== undefined);
    if (uris.length) this.changed.fire(uris);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    const path = this.manifests.pathOf(uri);
    if (!path || !this.enabled() || !this.manifests.resources(uri).length) {
      if (path) this.badged.delete(path);
      return undefined;
    }
    const n = this.manifests.status.fileWarnings(path, Date.now() - this.manifests.windowMs);
    if (!n) {
      this.badged.delete(path);
      return undefined;
    }
    this.badged.set(path, uri);
    const tooltip = `${n} live warning${n === 1 ? '' : 's'} in ${this.connection.context ?? 'the cluster'}`;
    const problemBadge = this.problemsShown() && vscode.workspace.getConfiguration('problems').get<boolean>('decorations.enabled', true);
    return { badge: problemBadge ? undefined : n > 9 ? '9+' : String(n), tooltip, color: new vscode.ThemeColor('list.warningForeground'), propagate: true };
  }
}
