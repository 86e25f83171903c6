// The view's badge: warning events not seen yet (new, or whose count rose) while the view
// was hidden. The store keeps the count as events come and go, so this costs nothing per
// event; the view in sight means everything is seen.
import type * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { EventStore } from '../model/eventStore';
import type { TreeNode } from './tree/nodes/treeNode';

export class WarningBadge extends Disposable {
  constructor(
    private readonly view: vscode.TreeView<TreeNode>,
    private readonly store: EventStore,
  ) {
    super();
    this._register(store.onDidChange(() => this.update()));
    this._register(view.onDidChangeVisibility(() => this.update()));
  }

  /** Live warning events in the store (any filter). */
  get liveWarnings(): number {
    return this.store.liveWarnings;
  }

  get unseenWarnings(): number {
    return this.store.unseenWarnings.count;
  }

  private update(): void {
    if (this.view.visible) this.store.unseenWarnings.markSeen();
    const value = this.store.unseenWarnings.count;
    if (value === (this.view.badge?.value ?? 0)) return;
    this.view.badge = value > 0 ? { value, tooltip: `${value} new warning event${value === 1 ? '' : 's'}` } : undefined;
  }
}
