// How commands take their arguments. VS Code passes the focused row to view-title commands,
// the clicked row (and the selection) to row menus, nothing from the palette, and whatever
// a keybinding or another extension gives. Each command says which of these it accepts and
// ignores everything else, so a stray argument can never become a context name or a request.
import * as vscode from 'vscode';
import type { CommandId } from '../common/commandIds';

/** A command with no argument: the view title, the palette, a keybinding. Arguments are ignored. */
export function registerPlainCommand(id: CommandId, run: () => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, () => run());
}

/**
 * A command about a row: takes the row VS Code passes when it is one of `accepts`, else the
 * row selected in the view (a keybinding), else asks the user to pick one.
 */
export function registerRowCommand<T>(
  id: CommandId,
  accepts: (x: unknown) => x is T,
  selection: () => readonly unknown[],
  run: (node: T) => unknown,
  pickFirst: string,
): vscode.Disposable {
  return vscode.commands.registerCommand(id, (arg?: unknown) => {
    const node = accepts(arg) ? arg : selection().find(accepts);
    if (node === undefined) return void vscode.window.showInformationMessage(pickFirst);
    return run(node);
  });
}
