// The current settings, read and validated again when they change (or when the workspace
// becomes trusted); a bad value is reported once, with the setting's name, and replaced by
// its default.
import * as vscode from 'vscode';
import { Emitter } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import { readSettings, SECTION, type Settings } from './settingsReader';

export class SettingsService extends Disposable {
  private current: Settings;
  private reported = new Set<string>();
  private readonly changed = this._register(new Emitter<{ before: Settings; after: Settings }>());

  constructor() {
    super();
    const { settings, problems } = readSettings();
    this.current = settings;
    this.report(problems);
    this._register(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && this.reload()));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.reload()));
  }

  get value(): Settings {
    return this.current;
  }

  onDidChange(listener: (before: Settings, after: Settings) => void): { dispose(): void } {
    return this.changed.event(({ before, after }) => listener(before, after));
  }

  private reload(): void {
    const before = this.current;
    const { settings, problems } = readSettings();
    this.current = settings;
    this.report(problems);
    this.changed.fire({ before, after: settings });
  }

  private report(problems: string[]): void {
    const fresh = problems.filter((p) => !this.reported.has(p));
    this.reported = new Set(problems);
    for (const p of fresh) {
      void vscode.window.showWarningMessage(`Kubernetes Events: ${p}`, 'Open Settings').then((pick) => {
        if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', p.split(' ')[0]);
      });
    }
  }

  /** Saves a setting where it takes effect: the workspace when one is open, else the user's settings. */
  async update(key: string, value: unknown, target?: vscode.ConfigurationTarget): Promise<void> {
    const where = target ?? (vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration(SECTION).update(key, value, where);
  }
}
