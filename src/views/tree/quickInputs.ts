// Quick inputs opened over the Events view. A tree view takes the focus back whenever one
// of its refreshes completes, and a quick input that loses the focus closes; so while one
// of ours is open the tree sends no refresh (RefreshScheduler), and it opens only once a
// refresh already on its way has been drawn.
import type * as vscode from 'vscode';
import type { IDisposable } from '../../common/lifecycle';
import type { TreeNode } from './nodes/treeNode';
import { whenDrawn } from './viewDrawn';

/** The longest a quick input waits for the tree's last redraw (a slow window shows it anyway). */
const DRAWN_WAIT_MS = 2_000;

export class QuickInputs {
  constructor(
    private readonly tree: { hold(): IDisposable },
    private readonly view: vscode.TreeView<TreeNode>,
    /** The rows last selected (SelectionMemory), when the view's selection reads empty mid-redraw. */
    private readonly lastSelected: () => readonly TreeNode[],
  ) {}

  /** Asks with a quick input (`ask` shows it and settles when it closes), the tree held meanwhile. */
  async ask<T>(ask: () => Thenable<T>): Promise<T> {
    const hold = this.tree.hold();
    try {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([whenDrawn(this.view, this.lastSelected), new Promise<void>((r) => (timer = setTimeout(r, DRAWN_WAIT_MS)))]);
      clearTimeout(timer);
      return await ask();
    } finally {
      hold.dispose();
    }
  }
}
