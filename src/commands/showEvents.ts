// Show Events for an object: the view narrowed to that object (the apiserver answers with a
// field selector, so everything the cluster has about it shows), its row revealed and
// selected. Other extensions call it with {kind, name, namespace?, uid?}; any other
// argument is refused with a message, never guessed at.
import * as vscode from 'vscode';
import { Commands, FOCUS_VIEW_COMMAND } from '../common/commandIds';
import { isObject, NO_FILTER, type ObjectRef } from '../model/filters';
import { REFRESH_DEBOUNCE_MS } from '../views/tree/eventsTreeProvider';
import type { Services } from '../services/services';
import type { GroupNode } from '../views/tree/nodes/groupNode';
import type { TreeNode } from '../views/tree/nodes/treeNode';

/** How often, and how far apart, reveal is tried while a newly shown view loads. */
const REVEAL_ATTEMPTS = 20;
const REVEAL_RETRY_MS = 100;

export interface ObjectQuery {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
}

/** The argument as an ObjectQuery, or undefined when it is not one. */
export function asObjectQuery(x: unknown): ObjectQuery | undefined {
  if (!x || typeof x !== 'object') return undefined;
  const q = x as Record<string, unknown>;
  const optional = (v: unknown) => v === undefined || typeof v === 'string';
  if (typeof q.kind !== 'string' || !q.kind || typeof q.name !== 'string' || !q.name || !optional(q.namespace) || !optional(q.uid)) return undefined;
  return { kind: q.kind, name: q.name, namespace: q.namespace, uid: q.uid };
}

/** Focuses the view and selects the row; a view hidden until now loads its rows after focus, so reveal may need a few tries. */
async function reveal(s: Services, node: TreeNode): Promise<void> {
  await vscode.commands.executeCommand(FOCUS_VIEW_COMMAND);
  for (let attempt = 0; ; attempt++) {
    try {
      await s.view.reveal(node, { select: true, focus: true, expand: true });
      return;
    } catch (e) {
      if (attempt >= REVEAL_ATTEMPTS) throw e;
      await new Promise((r) => setTimeout(r, REVEAL_RETRY_MS));
    }
  }
}

/** How long Show Events waits for the apiserver's answer about the object. */
const FOCUS_WAIT_MS = 10_000;

/**
 * Shows the object's events and nothing else (a filter on the object, which the apiserver
 * answers with a field selector, so even events the store's cap dropped are there), then
 * reveals and selects its row; undefined (with a message) when the cluster has none.
 */
export async function showEventsFor(s: Services, q: ObjectQuery): Promise<GroupNode | undefined> {
  const known = s.store.view(NO_FILTER).find((g) => isObject(g.object, q));
  // The uid the store knows makes the server's selector exact.
  const object: ObjectRef = { kind: q.kind, name: q.name, namespace: q.namespace, uid: q.uid || known?.object.uid || undefined };
  await s.filters.set({ object });
  const deadline = Date.now() + FOCUS_WAIT_MS;
  let group = s.tree.groups().find((g) => isObject(g.object, object));
  while (!group && Date.now() < deadline && s.focus.status?.phase !== 'live') {
    await new Promise((r) => setTimeout(r, REVEAL_RETRY_MS));
    group = s.tree.groups().find((g) => isObject(g.object, object));
  }
  // The list is in: give the view its last refresh.
  if (!group) {
    await new Promise((r) => setTimeout(r, REFRESH_DEBOUNCE_MS * 2));
    group = s.tree.groups().find((g) => isObject(g.object, object));
  }
  if (!group) {
    void vscode.window.showInformationMessage(`No events about ${q.kind}/${q.name}${q.namespace ? ` in ${q.namespace}` : ''} in ${s.connection.context ?? 'this cluster'} (events expire after an hour by default). Clear Filters shows every object again.`);
    return undefined;
  }
  const node = s.tree.groupNode(group.key, group.object);
  await revealExpanded(s, node, deadline);
  return node;
}

/** How many times Show Events reveals the row again when a refresh undid its expansion. */
const EXPAND_ATTEMPTS = 3;

/**
 * Reveals, selects and expands the object's row, and checks that VS Code expanded it. The
 * row is shown from what the store held while the apiserver's list for the object is still
 * coming; a refresh that crosses the reveal can leave the row selected but closed (seen on a
 * slow machine: the expand was lost, no error). So once the list is in and the view has drawn
 * it, the row is revealed again unless VS Code reported it expanded or the user has moved on.
 */
async function revealExpanded(s: Services, node: GroupNode, deadline: number): Promise<void> {
  let expanded = false;
  const subscriptions = [
    s.view.onDidExpandElement((e) => e.element.id === node.id && (expanded = true)),
    s.view.onDidCollapseElement((e) => e.element.id === node.id && (expanded = false)),
  ];
  try {
    await reveal(s, node);
    const settled = () => s.focus.status?.phase !== 'loading' && s.tree.isSettled;
    for (let attempt = 0; attempt < EXPAND_ATTEMPTS; attempt++) {
      while (Date.now() < deadline && !settled()) await new Promise((r) => setTimeout(r, REVEAL_RETRY_MS));
      // The view's last refresh reaches the workbench a moment after it is sent.
      await new Promise((r) => setTimeout(r, REFRESH_DEBOUNCE_MS * 2));
      const selection = s.selection.selection;
      if (expanded || Date.now() >= deadline || selection.length !== 1 || selection[0].id !== node.id) return;
      await reveal(s, node);
    }
  } finally {
    for (const d of subscriptions) d.dispose();
  }
}

/** Reveals and selects one event (clearing a filter or a pause that hides it); false when it is not in the store. */
export async function revealEvent(s: Services, uid: string): Promise<boolean> {
  if (!s.store.get(uid)) return false;
  if (s.tree.paused) {
    s.tree.resume();
    s.status.update();
  }
  let node = s.tree.eventNodeFor(uid);
  if (!node) {
    await s.filters.clear();
    node = s.tree.eventNodeFor(uid);
  }
  if (!node) return false;
  await reveal(s, node);
  return true;
}

export function registerShowEventsCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(Commands.showEventsForObject, async (arg?: unknown) => {
      const q = asObjectQuery(arg);
      if (!q) {
        void vscode.window.showErrorMessage('Show Events for Object needs an object: {kind, name, namespace?, uid?} with kind and name given.');
        return undefined;
      }
      return (await showEventsFor(s, q)) !== undefined;
    }),
  ];
}
