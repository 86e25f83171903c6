// Helpers for tests inside the extension host.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { KubernetesEventsApi, TestingApi } from '../../src/api';
import type { Parts as Services } from '../../src/api';
import type { EventNode } from '../../src/views/tree/nodes/eventNode';
import type { GroupNode } from '../../src/views/tree/nodes/groupNode';
import type { TreeNode } from '../../src/views/tree/nodes/treeNode';
import { pollUntil } from '../support/wait';

export const EXTENSION_ID = 'kubernetes-events.kubernetes-events';

export async function extensionApi(): Promise<KubernetesEventsApi & { testing: TestingApi }> {
  const extension = vscode.extensions.getExtension<KubernetesEventsApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = await extension.activate();
  if (!api.testing) throw new Error('the extension gives no testing API: is the host running tests (ExtensionMode.Test)?');
  return api as KubernetesEventsApi & { testing: TestingApi };
}

/** pollUntil (test/support/wait.ts) every 100 ms: what the host tests wait for is in memory. */
export const waitFor = <T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> => pollUntil(what, check, timeoutMs, 100);

/** A line in the host report (the extension host's console does not reach it). */
export function report(line: string): void {
  const file = process.env.KEV_HOST_REPORT;
  if (file) fs.appendFileSync(file, `      ${line}\n`);
}

/** Reading the tree as VS Code does: rows, their children, and the items it would draw. */
export class TreeReader {
  constructor(readonly s: Services) {}

  roots(): TreeNode[] {
    return this.s.tree.getChildren();
  }

  groups(): GroupNode[] {
    return this.roots().filter((n): n is GroupNode => n.id.startsWith('group:'));
  }

  group(kind: string, name: string): GroupNode | undefined {
    return this.groups().find((g) => g.object.kind === kind && g.object.name === name);
  }

  events(group: GroupNode): EventNode[] {
    return this.s.tree.getChildren(group).filter((n): n is EventNode => n.id.startsWith('event:'));
  }

  /** The status rows above the objects: their labels. */
  statusLabels(): string[] {
    return this.roots()
      .filter((n) => n.id.startsWith('status:') || n.id.startsWith('action:'))
      .map((n) => this.s.tree.getTreeItem(n).label as string);
  }

  item(node: TreeNode): vscode.TreeItem {
    return this.s.tree.getTreeItem(node);
  }

  tooltip(node: TreeNode): unknown {
    const item = this.s.tree.getTreeItem(node);
    return this.s.tree.resolveTreeItem(item, node).tooltip;
  }
}

/**
 * A workload whose controllers and scheduler write real events (ScalingReplicaSet,
 * SuccessfulCreate, FailedScheduling: its pods ask for a node that no cluster has), so
 * the host suite does not depend on another layer having run first.
 */
export async function ensureWorkload(s: Services, namespace = 'host-demo'): Promise<void> {
  const client = s.connection.newClient();
  const create = async (path: string, body: unknown) => {
    try {
      await client.request({ method: 'POST', path, body: JSON.stringify(body) });
    } catch (e) {
      if ((e as { code?: number }).code !== 409) throw e;
    }
  };
  try {
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    const labels = { app: 'web' };
    await create(`/apis/apps/v1/namespaces/${namespace}/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { nodeSelector: { 'kubernetes-events.test/never': 'true' }, containers: [{ name: 'web', image: 'example.invalid/web:1' }] } } },
    });
  } finally {
    client.dispose();
  }
}
