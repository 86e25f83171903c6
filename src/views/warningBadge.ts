// The view's badge: warning events not seen yet (new, or whose count rose) while the view
// was hidden. Work is done per changed object, never over the whole store: each object
// keeps the warnings already seen (uid and count) and how many of its live ones are not.
import type * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { EventStore, StoreChange } from '../model/eventStore';
import type { TreeNode } from './tree/nodes/treeNode';

interface GroupWarnings {
  live: number;
  unseen: number;
  /** uid → the count it had when seen. */
  seen: Map<string, number>;
}

export class WarningBadge extends Disposable {
  private readonly groups = new Map<string, GroupWarnings>();
  private live = 0;
  private unseen = 0;

  constructor(
    private readonly view: vscode.TreeView<TreeNode>,
    private readonly store: EventStore,
  ) {
    super();
    this._register(store.onDidChange((c) => this.onChange(c)));
    this._register(view.onDidChangeVisibility((e) => e.visible && this.markSeen()));
  }

  /** Live warning events in the store (any filter). */
  get liveWarnings(): number {
    return this.live;
  }

  get unseenWarnings(): number {
    return this.unseen;
  }

  private onChange(c: StoreChange): void {
    const keys = c.all ? new Set([...this.groups.keys(), ...this.store.view().map((g) => g.key)]) : c.groups;
    for (const key of keys) this.recount(key);
    if (this.view.visible) this.markSeen();
    else this.show();
  }

  private recount(key: string): void {
    const before = this.groups.get(key);
    const group = this.store.group(key);
    if (before) {
      this.live -= before.live;
      this.unseen -= before.unseen;
    }
    if (!group || group.warnings === 0) {
      this.groups.delete(key);
      return;
    }
    const seen = new Map<string, number>();
    let unseen = 0;
    for (const e of group.events) {
      if (e.type !== 'Warning' || e.expiredAt !== undefined) continue;
      const was = before?.seen.get(e.uid);
      if (was !== undefined) seen.set(e.uid, was);
      if (was === undefined || e.count > was) unseen++;
    }
    this.groups.set(key, { live: group.warnings, unseen, seen });
    this.live += group.warnings;
    this.unseen += unseen;
  }

  /** Everything live counts as seen (the view is in sight). */
  markSeen(): void {
    if (this.unseen > 0) {
      for (const [key, g] of this.groups) {
        if (g.unseen === 0) continue;
        for (const e of this.store.group(key)?.events ?? []) if (e.type === 'Warning' && e.expiredAt === undefined) g.seen.set(e.uid, e.count);
        g.unseen = 0;
      }
      this.unseen = 0;
    }
    this.show();
  }

  private show(): void {
    const value = this.unseen;
    if (value === (this.view.badge?.value ?? 0)) return;
    this.view.badge = value > 0 ? { value, tooltip: `${value} new warning event${value === 1 ? '' : 's'}` } : undefined;
  }
}
