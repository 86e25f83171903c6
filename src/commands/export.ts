// Export the current view (with its filters) as JSON, CSV or Markdown: saved where the user
// picks (the workspace folder is proposed), through VS Code's file system so remote and
// virtual workspaces work, and confirmed with an Open action.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import { exportView, type ExportFormat } from '../model/exportView';
import type { ShownEvents } from '../services/shownEvents';
import type { QuickInputs } from '../views/tree/quickInputs';
import { registerPlainCommand } from './registry';

const EXTENSIONS: Record<ExportFormat, string> = { json: 'json', csv: 'csv', markdown: 'md' };

/** A file name the context and the moment identify, so exports do not overwrite each other. */
function suggestedName(context: string | undefined, format: ExportFormat, now: Date): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const ctx = (context ?? 'cluster').replace(/[^A-Za-z0-9._-]+/g, '_');
  return `events-${ctx}-${stamp}.${EXTENSIONS[format]}`;
}

/** Writes the view to a file; returns how many events went into it. */
export async function writeExport(shown: ShownEvents, format: ExportFormat, target: vscode.Uri): Promise<number> {
  const groups = shown.groups();
  await vscode.workspace.fs.writeFile(target, Buffer.from(exportView(groups, format, Date.now()), 'utf8'));
  return groups.reduce((n, g) => n + g.events.length, 0);
}

/** The format, then the file (in code-server the save dialog is a quick input too); undefined when cancelled. */
async function askTarget(context: string | undefined): Promise<{ format: ExportFormat; target: vscode.Uri } | undefined> {
  const format = (
    await vscode.window.showQuickPick(
      [
        { label: 'JSON', description: 'every field, for scripts', format: 'json' as const },
        { label: 'CSV', description: 'for spreadsheets', format: 'csv' as const },
        { label: 'Markdown', description: 'a table for an issue or a report', format: 'markdown' as const },
      ],
      { title: 'Export Events: format', placeHolder: 'The events in the view now, with its filter' },
    )
  )?.format;
  if (!format) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const target = await vscode.window.showSaveDialog({
    title: 'Export Events',
    saveLabel: 'Export',
    filters: { [format === 'markdown' ? 'Markdown' : format.toUpperCase()]: [EXTENSIONS[format]] },
    defaultUri: vscode.Uri.joinPath(folder, suggestedName(context, format, new Date())),
  });
  return target && { format, target };
}

async function exportCommand(shown: ShownEvents, connection: { readonly context: string | undefined }, inputs: QuickInputs): Promise<void> {
  const asked = await inputs.ask(() => askTarget(connection.context));
  if (!asked) return;
  const { format, target } = asked;
  let count: number;
  try {
    count = await writeExport(shown, format, target);
  } catch (e) {
    void vscode.window.showErrorMessage(`Cannot write ${target.fsPath}: ${(e as Error).message}`);
    return;
  }
  const open = await vscode.window.showInformationMessage(`Exported ${count} event${count === 1 ? '' : 's'} to ${vscode.workspace.asRelativePath(target)}.`, 'Open');
  if (open) await vscode.window.showTextDocument(target);
}

export function registerExportCommands(shown: ShownEvents, connection: { readonly context: string | undefined }, inputs: QuickInputs): vscode.Disposable[] {
  return [registerPlainCommand(Commands.export, () => exportCommand(shown, connection, inputs))];
}
