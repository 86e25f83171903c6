// The rows the user last selected. While the tree refreshes (many times a minute in a busy
// cluster) VS Code's selection can read empty for a moment; a command run from a keybinding
// then still acts on the row the user selected, never on nothing. A context switch forgets it.
import type * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { EventStore } from '../model/eventStore';
import type { TreeNode } from './tree/nodes/treeNode';

export class SelectionMemory extends Disposable {
  private last: readonly TreeNode[] = [];

  constructor(
    private readonly view: vscode.TreeView<TreeNode>,
    store: EventStore,
  ) {
    super();
    this._register(view.onDidChangeSelection((e) => e.selection.length > 0 && (this.last = e.selection)));
    this._register(store.onDidChange((c) => c.all && (this.last = [])));
  }

  /** The selection, or the last one made when it reads empty. */
  get selection(): readonly TreeNode[] {
    return this.view.selection.length > 0 ? this.view.selection : this.last;
  }
}
