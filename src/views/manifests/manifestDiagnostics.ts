// The Problems panel: each live warning reason of a manifest's objects as a Warning on the
// resource's name, the reason as its code, gone when the warning leaves the window. Ages in
// the text are kept current (set again only when the words change). The quick fixes show
// the object's events or its timeline.
import * as vscode from 'vscode';
import { Commands } from '../../common/commandIds';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { oneLine } from '../../model/displayText';
import { warningMessage } from '../../model/manifests/manifestText';
import { Slice, yieldToEventLoop } from '../../model/slices';
import type { ManifestService } from '../../services/manifestService';
import { diagnosticSource, resourceArguments, toRange } from './manifestRanges';

/** How often ages and the window are brought up to date. */
const AGE_REFRESH_MS = 5_000;

export class ManifestDiagnostics extends Disposable implements vscode.CodeActionProvider {
  private readonly collection = this._register(vscode.languages.createDiagnosticCollection('kubernetesEvents'));
  /** What each file shows now, as words (so an unchanged file is not set again), and where. */
  private readonly shown = new Map<string, { words: string; uri: vscode.Uri }>();

  constructor(
    private readonly manifests: ManifestService,
    private readonly connection: { readonly context: string | undefined },
    private readonly enabled: () => boolean,
  ) {
    super();
    this._register(manifests.onDidChange((files) => this.update(files)));
    const timer = setInterval(() => this.update([...this.shown.keys()]), AGE_REFRESH_MS);
    this._register(toDisposable(() => clearInterval(timer)));
    this._register(vscode.languages.registerCodeActionsProvider([{ scheme: 'file', language: 'yaml' }, { scheme: 'file', language: 'json' }, { scheme: 'file', language: 'jsonc' }], this, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }));
  }

  /** Everything again (the setting was turned on or off). */
  refresh(): void {
    this.update([...new Set([...this.shown.keys(), ...[...this.manifests.index.entries()].map(([p]) => p)])]);
  }

  /** Files waiting for their Problems entries to be made again (a workspace's worth at once is done in slices). */
  private pending = new Set<string>();
  private draining = false;

  private update(files: Iterable<string>): void {
    for (const f of files) this.pending.add(f);
    if (!this.draining) void this.drain();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.pending.size && !this.isDisposed) {
        const now = Date.now();
        const source = diagnosticSource(this.connection.context);
        const entries: [vscode.Uri, vscode.Diagnostic[]][] = [];
        const slice = new Slice();
        for (const path of this.pending) {
          this.pending.delete(path);
          const set = this.entry(path, now, source);
          if (set) entries.push(set);
          if (slice.spent()) break;
        }
        if (entries.length) this.collection.set(entries);
        if (this.pending.size) await yieldToEventLoop();
      }
    } finally {
      this.draining = false;
    }
  }

  /** A file's entries made again: what to set, or undefined when nothing changed (or it was cleared). */
  private entry(path: string, now: number, source: string): [vscode.Uri, vscode.Diagnostic[]] | undefined {
    const uri = this.manifests.uri(path);
    const diagnostics: vscode.Diagnostic[] = [];
    if (uri && this.enabled()) {
      this.manifests.resources(uri).forEach((r, i) => {
        if (!this.manifests.status.hasEvents(path, i)) return;
        for (const w of this.manifests.statusOf(uri, i, now).warnings) {
          const d = new vscode.Diagnostic(toRange(r.nameSpan), warningMessage(w, this.manifests.liveNames(uri, i), now), vscode.DiagnosticSeverity.Warning);
          d.source = source;
          d.code = w.reason;
          diagnostics.push(d);
        }
      });
    }
    const words = diagnostics.map((d) => `${d.range.start.line}:${d.message}:${d.source ?? ''}`).join('\n');
    const before = this.shown.get(path);
    if ((before?.words ?? '') === words) return undefined;
    if (!uri || !diagnostics.length) {
      // A file no longer indexed is cleared where it was shown.
      this.shown.delete(path);
      const where = uri ?? before?.uri;
      if (where) this.collection.delete(where);
      return undefined;
    }
    this.shown.set(path, { words, uri });
    return [uri, diagnostics];
  }

  /**
   * Each entry's quick fixes: the resource's events in the Events view (with what it owns),
   * and the timeline and Diagnose of the object the warning is about (a Deployment's pod, say).
   */
  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const resources = this.manifests.resources(document.uri);
    const actions = new Map<string, vscode.CodeAction>();
    const add = (title: string, command: string, args: unknown[], d: vscode.Diagnostic) => {
      const known = actions.get(title);
      if (known) return void known.diagnostics?.push(d);
      const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
      action.command = { title, command, arguments: args };
      action.diagnostics = [d];
      actions.set(title, action);
    };
    for (const d of context.diagnostics) {
      if (!d.source?.startsWith(diagnosticSource(undefined))) continue;
      const index = resources.findIndex((r) => toRange(r.nameSpan).isEqual(d.range));
      if (index < 0) continue;
      const r = resources[index];
      const args = resourceArguments(document.uri, index);
      add(`Show Events for ${r.kind}/${r.name}`, Commands.showManifestEvents, args, d);
      const warning = this.manifests.statusOf(document.uri, index).warnings.find((w) => w.reason === d.code);
      const about = warning ? `${warning.object.kind}/${oneLine(warning.object.name)}` : `${r.kind}/${r.name}`;
      add(`Show Timeline for ${about}`, Commands.showManifestTimeline, [...args, warning?.reason], d);
      add(`Diagnose ${about}`, Commands.diagnoseManifestResource, [...args, warning?.reason], d);
    }
    return [...actions.values()];
  }
}
