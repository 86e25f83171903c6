// Show Events for an object: reveals its group in the Events view (from another extension,
// a link, or the Kubernetes extension's explorer).
import * as vscode from 'vscode';
import type { Controller } from '../controller';
import { NO_FILTER } from '../model/filters';
import type { GroupNode } from '../views/eventsTree';

/** How often, and how far apart, reveal is tried while a newly shown view loads. */
const REVEAL_ATTEMPTS = 20;
const REVEAL_RETRY_MS = 100;

export interface ObjectQuery {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
}

/** Reveals the object's group (clearing filters that hide it); undefined with a message when it has no events. */
export async function showEventsFor(c: Controller, q: ObjectQuery): Promise<GroupNode | undefined> {
  const find = () =>
    c.tree.groups().filter((g) => g.object.kind === q.kind && g.object.name === q.name && (q.namespace === undefined || g.object.namespace === q.namespace) && (!q.uid || g.object.uid === q.uid));
  let groups = find();
  if (groups.length === 0 && c.store.view(NO_FILTER).some((g) => g.object.kind === q.kind && g.object.name === q.name)) {
    await c.setFilter({});
    groups = find();
  }
  const group = groups[0];
  if (!group) {
    void vscode.window.showInformationMessage(`No events about ${q.kind}/${q.name}${q.namespace ? ` in ${q.namespace}` : ''} in ${c.connection.context ?? 'this cluster'} (events expire after an hour by default).`);
    return undefined;
  }
  const node = c.tree.groupNode(group.key, group.object);
  await vscode.commands.executeCommand('kubernetesEvents.events.focus');
  // A view that was hidden until now loads its items after focus: reveal may not find the node yet.
  for (let attempt = 0; ; attempt++) {
    try {
      await c.view.reveal(node, { select: true, focus: true, expand: true });
      return node;
    } catch (e) {
      if (attempt >= REVEAL_ATTEMPTS) throw e;
      await new Promise((r) => setTimeout(r, REVEAL_RETRY_MS));
    }
  }
}

export function registerShowEventsCommands(c: Controller): vscode.Disposable[] {
  return [vscode.commands.registerCommand('kubernetesEvents.showEventsForObject', (q?: ObjectQuery) => (q ? showEventsFor(c, q) : undefined))];
}
