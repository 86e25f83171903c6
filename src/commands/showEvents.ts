// Show Events for an object: reveals and selects its row in the Events view (clearing a
// filter that hides it). Other extensions call it with {kind, name, namespace?, uid?}; any
// other argument is refused with a message, never guessed at.
import * as vscode from 'vscode';
import { Commands, FOCUS_VIEW_COMMAND } from '../common/commandIds';
import { NO_FILTER } from '../model/filters';
import type { Services } from '../services/services';
import type { GroupNode } from '../views/tree/nodes/groupNode';

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

/** Reveals the object's group; undefined (with a message) when it has no events. */
export async function showEventsFor(s: Services, q: ObjectQuery): Promise<GroupNode | undefined> {
  const matches = (o: { kind: string; name: string; namespace: string; uid: string }) =>
    o.kind === q.kind && o.name === q.name && (q.namespace === undefined || o.namespace === q.namespace) && (!q.uid || o.uid === q.uid);
  let group = s.tree.groups().find((g) => matches(g.object));
  if (!group && s.store.view(NO_FILTER).some((g) => matches(g.object))) {
    await s.filters.clear();
    group = s.tree.groups().find((g) => matches(g.object));
  }
  if (!group) {
    void vscode.window.showInformationMessage(`No events about ${q.kind}/${q.name}${q.namespace ? ` in ${q.namespace}` : ''} in ${s.connection.context ?? 'this cluster'} (events expire after an hour by default).`);
    return undefined;
  }
  const node = s.tree.groupNode(group.key, group.object);
  await vscode.commands.executeCommand(FOCUS_VIEW_COMMAND);
  // A view that was hidden until now loads its rows after focus: reveal may not find the node yet.
  for (let attempt = 0; ; attempt++) {
    try {
      await s.view.reveal(node, { select: true, focus: true, expand: true });
      return node;
    } catch (e) {
      if (attempt >= REVEAL_ATTEMPTS) throw e;
      await new Promise((r) => setTimeout(r, REVEAL_RETRY_MS));
    }
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
  await vscode.commands.executeCommand(FOCUS_VIEW_COMMAND);
  for (let attempt = 0; ; attempt++) {
    try {
      await s.view.reveal(node, { select: true, focus: true, expand: true });
      return true;
    } catch (e) {
      if (attempt >= REVEAL_ATTEMPTS) throw e;
      await new Promise((r) => setTimeout(r, REVEAL_RETRY_MS));
    }
  }
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
