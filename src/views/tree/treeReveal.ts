// Revealing rows of the Events view for NavigationService: the view is focused, the row
// revealed, selected and, for an object, expanded. Redraws wait while VS Code reveals: a
// refresh of the top level cancels the extension host's fetches of rows in flight
// (ExtHostTreeView), and the reveal then ends with the row neither shown nor selected, with
// no error. An object's row is shown from what the store held while the apiserver's list
// for it is still coming; once the list is in, the row is revealed again unless VS Code
// reported it selected and expanded, or the user has moved on. Every reveal shows the view
// (VS Code opens a view to reveal in it), so none is made once another view has the side
// bar, and nothing else here reveals: what VS Code reports is read as it stands.
import * as vscode from 'vscode';
import { FOCUS_VIEW_COMMAND } from '../../common/commandIds';
import { Disposable } from '../../common/lifecycle';
import type { EventLike } from '../../common/until';
import { until } from '../../common/until';
import type { InvolvedObject } from '../../model/clusterEvent';
import type { RowReveal } from '../../services/navigationService';
import type { ConnectionStatus } from '../../services/connectionStatus';
import type { EventsTreeProvider } from './eventsTreeProvider';
import type { TreeNode } from './nodes/treeNode';

/** How many times a row is revealed while a refresh crossed the reveal before. */
const EXPAND_ATTEMPTS = 3;
/** How many times a reveal is tried while a view just shown loads its rows. */
const REVEAL_ATTEMPTS = 5;
/** The longest a reveal waits for a view just focused to become visible. */
const VISIBLE_WAIT_MS = 5_000;
/** How long an event is revealed again while the view's redraws undo it. */
const REVEAL_EVENT_MS = 10_000;
/** The longest a revealed event waits for VS Code to report it selected before it is revealed again. */
const SELECTION_WAIT_MS = 1_000;
/** The longest a failed reveal waits for VS Code to ask for the view's rows. */
const LISTING_WAIT_MS = 1_000;

/** The focused list's state (FocusService): loading until the object's list is in. */
interface FocusState {
  readonly status: ConnectionStatus | undefined;
  readonly onDidChange: EventLike;
}

export class TreeReveal extends Disposable implements RowReveal {
  /**
   * Rows VS Code reports open, by id, whoever opened them: revealing a row that is already
   * open opens nothing and reports nothing, and it is still open. Each with the id of its top
   * row: a row whose top row leaves the tree for one listing comes back closed, and VS Code
   * reports no collapse.
   */
  private readonly expanded = new Map<string, string>();

  constructor(
    private readonly view: vscode.TreeView<TreeNode>,
    private readonly tree: EventsTreeProvider,
    private readonly focus: FocusState,
  ) {
    super();
    this._register(view.onDidExpandElement((e) => this.expanded.set(e.element.id, topRow(e.element).id)));
    this._register(view.onDidCollapseElement((e) => this.expanded.delete(e.element.id)));
    this._register(tree.onDidListRoots((listed) => {
      for (const [id, top] of this.expanded) if (!listed.has(top)) this.expanded.delete(id);
    }));
  }

  async revealObject(key: string, object: InvolvedObject, deadline: number): Promise<void> {
    const node = this.tree.groupNode(key, object);
    // Once VS Code has reported the row selected, a selection that reads empty a moment later
    // is a redraw's, not a reveal undone: revealing again then would only risk the side bar.
    let seen = false;
    const watch = this.view.onDidChangeSelection((e) => e.selection.length === 1 && e.selection[0].id === node.id && (seen = true));
    try {
      await this.reveal(node);
      const settled = () => (this.focus.status?.phase !== 'loading' && this.tree.isSettled) || undefined;
      for (let attempt = 0; attempt < EXPAND_ATTEMPTS; attempt++) {
        await until([this.tree.onDidSettle, this.focus.onDidChange], settled, deadline - Date.now());
        const selected = this.selected(node);
        const shown = selected === 'this' || (seen && selected === 'not yet' && this.view.selection.length === 0);
        if ((this.expanded.has(node.id) && shown) || selected === 'moved on' || Date.now() >= deadline) return;
        if (!(await this.revealAgain(node))) return;
      }
    } finally {
      watch.dispose();
    }
  }

  /**
   * A reveal that a refresh crosses (the one held back while a quick input was open, shown
   * as it closes) can end with no row selected, or the one before, and no error; and the
   * refresh held while VS Code revealed goes out after it. So redraws are held until the event
   * is selected, and it is revealed again until it is, the user has moved on, or
   * REVEAL_EVENT_MS have passed.
   */
  async revealEvent(uid: string): Promise<boolean> {
    const before = this.view.selection[0]?.id;
    const deadline = Date.now() + REVEAL_EVENT_MS;
    // No redraw goes out until the row is selected, or the user has moved on: on a busy
    // object (a crash loop's pod) each new event redraws the rows, and a redraw crossing
    // the reveal undoes it. Only a refresh sent before this can cross the first reveal.
    const hold = this.tree.hold();
    try {
      for (let attempt = 0; Date.now() < deadline; attempt++) {
        const node = this.tree.eventNodeFor(uid);
        if (!node) return attempt > 0;
        if (attempt === 0) await this.reveal(node);
        else if (!(await this.revealAgain(node))) return true;
        await until([this.view.onDidChangeSelection], () => (this.selected(node, before) !== 'not yet') || undefined, SELECTION_WAIT_MS);
        if (this.selected(node, before) !== 'not yet') return true;
      }
      return true;
    } finally {
      hold.dispose();
    }
  }

  /**
   * Where the user is, after a reveal of `node`. A selection that reads empty is not a move:
   * VS Code's does for a moment while the tree redraws, and a reveal a refresh crossed leaves
   * it so. Neither is the row selected before the reveal (`before`), which a crossed reveal
   * leaves as it was. Another view shown, or another row selected, is.
   */
  private selected(node: TreeNode, before?: string): 'this' | 'moved on' | 'not yet' {
    if (!this.view.visible) return 'moved on';
    const selection = this.view.selection;
    if (selection.length === 1 && selection[0].id === node.id) return 'this';
    if (selection.length === 0 || (selection.length === 1 && selection[0].id === before)) return 'not yet';
    return 'moved on';
  }

  /**
   * Reveals a row again without taking the side bar: VS Code shows a view to reveal in it,
   * so a view the user has left since (another container shown) is left alone. False then.
   */
  private async revealAgain(node: TreeNode): Promise<boolean> {
    if (!this.view.visible) return false;
    await this.held(() => this.view.reveal(node, { select: true, focus: false, expand: true }));
    return true;
  }

  /** Runs a reveal with the tree's redraws held (see the top of the file), sent once it is done. */
  private async held(reveal: () => Thenable<void>): Promise<void> {
    const hold = this.tree.hold();
    try {
      await reveal();
    } finally {
      hold.dispose();
    }
  }

  /** Focuses the view and selects the row; a view hidden until now loads its rows once shown. */
  private async reveal(node: TreeNode): Promise<void> {
    await vscode.commands.executeCommand(FOCUS_VIEW_COMMAND);
    await until([this.view.onDidChangeVisibility], () => this.view.visible || undefined, VISIBLE_WAIT_MS);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.held(() => this.view.reveal(node, { select: true, focus: true, expand: true }));
        return;
      } catch (e) {
        if (attempt >= REVEAL_ATTEMPTS) throw e;
        // VS Code has not asked for the rows yet: try again once it has.
        const asked = this.tree.rootListings;
        await until([this.tree.onDidListRoots], () => this.tree.rootListings > asked || undefined, LISTING_WAIT_MS);
      }
    }
  }
}

function topRow(node: TreeNode): TreeNode {
  let top = node;
  while (top.parent) top = top.parent;
  return top;
}
