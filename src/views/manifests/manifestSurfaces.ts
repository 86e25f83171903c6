// The four places a manifest shows its objects' events, each on its own setting: the
// Problems panel (with quick fixes), a CodeLens, a hover, the Explorer's badges.
import type * as vscode from 'vscode';
import { Disposable } from '../../common/lifecycle';
import type { ManifestService } from '../../services/manifestService';
import type { ManifestSettings, Settings } from '../../services/settingsValidation';
import { ManifestCodeLens } from './manifestCodeLens';
import { ManifestDecorations } from './manifestDecorations';
import { ManifestDiagnostics } from './manifestDiagnostics';
import { ManifestHover } from './manifestHover';

export class ManifestSurfaces extends Disposable {
  constructor(
    manifests: ManifestService,
    connection: { readonly context: string | undefined },
    settings: { readonly value: Settings; onDidChange(listener: (before: Settings, after: Settings) => void): vscode.Disposable | { dispose(): void } },
  ) {
    super();
    const on = (surface: keyof Pick<ManifestSettings, 'problems' | 'codeLens' | 'hover' | 'explorer'>) => () => settings.value.manifests.scope !== 'off' && settings.value.manifests[surface];
    const problems = this._register(new ManifestDiagnostics(manifests, connection, on('problems')));
    const lens = this._register(new ManifestCodeLens(manifests, connection, on('codeLens')));
    this._register(new ManifestHover(manifests, connection, on('hover')).register());
    const badges = this._register(new ManifestDecorations(manifests, connection, on('explorer'), on('problems')));
    this._register(settings.onDidChange((before, after) => {
      if (JSON.stringify(before.manifests) === JSON.stringify(after.manifests)) return;
      problems.refresh();
      lens.refresh();
      badges.refresh();
    }));
  }
}
