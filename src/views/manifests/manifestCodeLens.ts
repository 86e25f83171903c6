// A CodeLens above each manifest resource: `2 warnings · 17 events · 1m ago`, or
// `not in <context>`; a click shows its events (rolled up for a workload) in the Events view.
// Beside it, for a pod or a workload that is in the cluster, `Diagnose`.
import * as vscode from 'vscode';
import type { Presence } from '../../cluster/objectPresence';
import { Commands } from '../../common/commandIds';
import { Emitter } from '../../common/emitter';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { isWorkloadKind } from '../../model/diagnose/workloadStatus';
import { lensTitle, type LensPresence } from '../../model/manifests/manifestText';
import type { ManifestService } from '../../services/manifestService';
import { resourceArguments } from './manifestRanges';

/** Lenses are made again this often, so their ages and the cluster's answers stay current. */
const LENS_REFRESH_MS = 10_000;

class ResourceLens extends vscode.CodeLens {
  constructor(
    range: vscode.Range,
    readonly uri: vscode.Uri,
    readonly index: number,
    readonly diagnose = false,
  ) {
    super(range);
  }
}

export class ManifestCodeLens extends Disposable implements vscode.CodeLensProvider<ResourceLens> {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly manifests: ManifestService,
    private readonly connection: { readonly context: string | undefined },
    private readonly enabled: () => boolean,
  ) {
    super();
    this._register(manifests.onDidChange((files) => {
      const open = new Set(vscode.window.visibleTextEditors.map((e) => manifests.pathOf(e.document.uri)));
      if ([...files].some((f) => open.has(f))) this.changed.fire();
    }));
    const timer = setInterval(() => this.changed.fire(), LENS_REFRESH_MS);
    this._register(toDisposable(() => clearInterval(timer)));
    this._register(vscode.languages.registerCodeLensProvider([{ scheme: 'file', language: 'yaml' }, { scheme: 'file', language: 'json' }, { scheme: 'file', language: 'jsonc' }], this));
  }

  refresh(): void {
    this.changed.fire();
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<ResourceLens[]> {
    if (!this.enabled()) return [];
    const resources = this.manifests.resources(document.uri);
    // Diagnose is offered only where it has something to show: a pod or a workload that the
    // context has (the answers are cached, so asking again costs nothing).
    const diagnosable = await Promise.all(
      resources.map(async (r, i) => {
        if (r.kind !== 'Pod' && !isWorkloadKind(r.kind)) return false;
        const asked = this.manifests.presenceOf(document.uri, i);
        return asked ? (await asked.catch(() => undefined))?.state === 'present' : false;
      }),
    );
    return resources.flatMap((r, i) => {
      const at = new vscode.Range(r.span.startLine, 0, r.span.startLine, 0);
      const lens = new ResourceLens(at, document.uri, i);
      return diagnosable[i] ? [lens, new ResourceLens(at, document.uri, i, true)] : [lens];
    });
  }

  async resolveCodeLens(lens: ResourceLens): Promise<ResourceLens> {
    const r = this.manifests.resources(lens.uri)[lens.index];
    if (lens.diagnose) {
      lens.command = { title: 'Diagnose', tooltip: `Status, events and logs of ${r ? `${r.kind}/${r.name}` : 'this resource'}`, command: Commands.diagnoseManifestResource, arguments: resourceArguments(lens.uri, lens.index) };
      return lens;
    }
    const status = this.manifests.statusOf(lens.uri, lens.index);
    const asked = this.manifests.presenceOf(lens.uri, lens.index);
    const presence: LensPresence = asked ? toLens(await asked) : 'disconnected';
    lens.command = {
      title: lensTitle(status, presence, this.connection.context, r?.kind ?? 'object', Date.now()),
      tooltip: `Show the events of ${r ? `${r.kind}/${r.name}` : 'this resource'} in the Events view`,
      command: Commands.showManifestEvents,
      arguments: resourceArguments(lens.uri, lens.index),
    };
    return lens;
  }
}

function toLens(p: Presence): LensPresence {
  return p.state === 'error' ? { error: p.message } : p.state;
}
