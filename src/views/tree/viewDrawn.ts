// Knowing when VS Code has drawn the refreshes sent to a tree view. TreeView.reveal first
// waits for the refreshes the extension host has sent (ExtHostTreeView's refresh promise):
// the only public way to know they are drawn. The selected row is where the click was,
// already on screen, so revealing it, neither selected again nor focused, moves nothing.
// The selection reads empty for a moment while a refresh is drawn: the row last selected
// stands in then (a reveal waits for the refreshes whatever its row). With no selection at
// all, no click put the focus in the tree; hidden, it has none (and a reveal would show it).
import type * as vscode from 'vscode';

export async function whenDrawn<T>(view: vscode.TreeView<T>, lastSelected: () => readonly T[] = () => view.selection): Promise<void> {
  const at = view.selection[0] ?? lastSelected()[0];
  if (at && view.visible) await Promise.resolve(view.reveal(at, { select: false, focus: false })).catch(() => undefined);
}
