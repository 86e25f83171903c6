// Export the current view (with its filters) as JSON, CSV or Markdown.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { Controller } from '../controller';
import { exportView, type ExportFormat } from '../model/exportView';

const EXTENSIONS: Record<ExportFormat, string> = { json: 'json', csv: 'csv', markdown: 'md' };

/** With format and target (tests, other extensions) nothing is asked. Returns the file written. */
export async function exportCommand(c: Controller, format?: ExportFormat, target?: vscode.Uri | string): Promise<string | undefined> {
  const chosen =
    format ??
    (await vscode.window.showQuickPick(
      [
        { label: 'JSON', format: 'json' as const },
        { label: 'CSV', format: 'csv' as const },
        { label: 'Markdown', format: 'markdown' as const },
      ],
      { title: 'Export Events: format' },
    ))?.format;
  if (!chosen) return undefined;
  let file = typeof target === 'string' ? target : target?.fsPath;
  if (!file) {
    const uri = await vscode.window.showSaveDialog({ title: 'Export Events', filters: { [chosen.toUpperCase()]: [EXTENSIONS[chosen]] }, defaultUri: vscode.Uri.file(`kubernetes-events.${EXTENSIONS[chosen]}`) });
    if (!uri) return undefined;
    file = uri.fsPath;
  }
  const groups = c.tree.groups();
  fs.writeFileSync(file, exportView(groups, chosen, Date.now()));
  vscode.window.setStatusBarMessage(`Exported ${groups.reduce((n, g) => n + g.events.length, 0)} events to ${file}`, 5000);
  return file;
}

export function registerExportCommands(c: Controller): vscode.Disposable[] {
  return [vscode.commands.registerCommand('kubernetesEvents.export', (format?: ExportFormat, target?: vscode.Uri | string) => exportCommand(c, format, target))];
}
