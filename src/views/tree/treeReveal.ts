// Revealing rows of the Events view for NavigationService: the view is focused, the row
// revealed, selected and, for an object, expanded. An object's row is shown from what the
// store held while the apiserver's list for the object is still coming, and a refresh that
// crosses the reveal can leave the row selected but closed (no error); so once the list is
// in and the view has drawn it, the row is revealed again unless VS Code reported it
// expanded or the user has moved on (another row, or another view in the side bar, which a
// reveal would take back). Redraws wait while VS Code reveals: a refresh of the top level
// cancels the extension host's fetches of rows in flight (ExtHostTreeView), the parent's
// among them, and the reveal then ends with the row neither shown nor selected.
import * as vscode from 'vscode';
import { FOCUS_VIEW_COMMAND } from '../../common/commandIds';
import type { EventLike } from '../../common/until';
import { until } from '../../common/until';
import type { InvolvedObject } from '../../model/clusterEvent';
import type { RowReveal } from '../../services/navigationService';
import type { ConnectionStatus } from '../../services/connectionStatus';
import type { SelectionMemory } from '../selectionMemory';
import type { EventsTreeProvider } from './eventsTreeProvider';
import type { TreeNode } from './nodes/treeNode';
import { whenDrawn } from './viewDrawn';

/** How many times a row is revealed again when a refresh undid its expansion. */
const EXPAND_ATTEMPTS = 3;
/** How many times a reveal is tried while a view just shown loads its rows. */
const REVEAL_ATTEMPTS = 5;
/** The longest a reveal waits for a view just focused to become visible. */
const VISIBLE_WAIT_MS = 5_000;
/** The longest a revealed event waits for the view's refreshes to settle before it is checked. */
const SETTLE_WAIT_MS = 3_000;
/** The longest a failed reveal waits for VS Code to ask for the view's rows. */
const LISTING_WAIT_MS = 1_000;

/** The focused list's state (FocusService): loading until the object's list is in. */
interface FocusState {
  readonly status: ConnectionStatus | undefined;
  readonly onDidChange: EventLike;
}

export class TreeReveal implements RowReveal {
  constructor(
    private readonly view: vscode.TreeView<TreeNode>,
    private readonly tree: EventsTreeProvider,
    private readonly selection: SelectionMemory,
    private readonly focus: FocusState,
  ) {}

  async revealObject(key: string, object: InvolvedObject, deadline: number): Promise<void> {
    const node = this.tree.groupNode(key, object);
    let expanded = false;
    const subscriptions = [
      this.view.onDidExpandElement((e) => e.element.id === node.id && (expanded = true)),
      this.view.onDidCollapseElement((e) => e.element.id === node.id && (expanded = false)),
    ];
    try {
      await this.reveal(node);
      const settled = () => (this.focus.status?.phase !== 'loading' && this.tree.isSettled) || undefined;
      for (let attempt = 0; attempt < EXPAND_ATTEMPTS; attempt++) {
        await until([this.tree.onDidSettle, this.focus.onDidChange], settled, deadline - Date.now());
        await whenDrawn(this.view);
        const selection = this.selection.selection;
        // Moved on: another row selected, or another view shown (revealing again would take it back).
        if (expanded || Date.now() >= deadline || selection.length !== 1 || selection[0].id !== node.id) return;
        if (!(await this.revealAgain(node))) return;
      }
    } finally {
      for (const d of subscriptions) d.dispose();
    }
  }

  /**
   * A reveal that a refresh crosses (the one held back while a quick input was open, shown
   * as it closes) can leave the selection where it was, with no error: once the view has
   * drawn, the event is revealed again while the selection is still the one before.
   */
  async revealEvent(uid: string): Promise<boolean> {
    const before = this.view.selection[0]?.id;
    for (let attempt = 0; attempt < EXPAND_ATTEMPTS; attempt++) {
      const node = this.tree.eventNodeFor(uid);
      if (!node) return attempt > 0;
      if (attempt === 0) await this.reveal(node);
      else if (!(await this.revealAgain(node))) return true;
      await until([this.tree.onDidSettle], () => this.tree.isSettled || undefined, SETTLE_WAIT_MS);
      await whenDrawn(this.view);
      const now = this.view.selection[0]?.id;
      if (now === node.id || now !== before) return true;
    }
    return true;
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
