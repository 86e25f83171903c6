// Open Event as YAML and Open Object as YAML in read-only editors, and Copy kubectl Command.
import * as vscode from 'vscode';
import * as yaml from 'js-yaml';
import { findResourceKind, objectPath } from '../cluster/discovery';
import { resourcePath } from '../cluster/listWatch';
import { Commands } from '../common/commandIds';
import type { InvolvedObject } from '../model/clusterEvent';
import { toCoreV1Event } from '../model/eventManifest';
import { kubectlEventsCommand } from '../model/kubectlFormat';
import type { EventStore } from '../model/eventStore';
import type { Logger } from '../record/logger';
import type { ConnectionService } from '../services/connectionService';
import type { SettingsService } from '../services/settingsService';
import type { EventsTreeProvider } from '../views/tree/eventsTreeProvider';
import { EventNode } from '../views/tree/nodes/eventNode';
import { GroupNode } from '../views/tree/nodes/groupNode';
import { registerRowCommand } from './registry';

export const YAML_SCHEME = 'kubernetes-events';
/** Documents kept; past this the oldest not shown in an editor go (VS Code may keep closed documents for minutes). */
export const MAX_DOCUMENTS = 50;

/** Serves read-only documents: kubernetes-events:/<what>.yaml?<n>. Forgets closed ones. */
class YamlProvider implements vscode.TextDocumentContentProvider {
  private readonly documents = new Map<string, string>();
  private next = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.documents.get(uri.toString()) ?? '# This document is no longer available: open it again from the Events view.\n';
  }

  add(name: string, content: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: YAML_SCHEME, path: `/${name}.yaml`, query: String(++this.next) });
    this.documents.set(uri.toString(), content);
    const shown = new Set(vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()));
    for (const key of this.documents.keys()) {
      if (this.documents.size <= MAX_DOCUMENTS) break;
      if (!shown.has(key) && key !== uri.toString()) this.documents.delete(key);
    }
    return uri;
  }

  forget(uri: vscode.Uri): void {
    this.documents.delete(uri.toString());
  }

  get size(): number {
    return this.documents.size;
  }
}

/** A file name part from anything (names may hold characters a path cannot). */
const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);

async function pathOfObject(connection: ConnectionService, o: InvolvedObject): Promise<string> {
  const client = connection.newClient();
  try {
    const kind = await findResourceKind(client, o.kind, o.apiVersion || 'v1');
    if (!kind) throw new Error(`the apiserver serves no ${o.kind} in ${o.apiVersion || 'v1'}`);
    return objectPath(kind, o.name, o.namespace);
  } finally {
    client.dispose();
  }
}

async function getJson(connection: ConnectionService, path: string): Promise<Record<string, unknown>> {
  const client = connection.newClient();
  try {
    return await client.request<Record<string, unknown>>({ method: 'GET', path });
  } finally {
    client.dispose();
  }
}

/** managedFields are bookkeeping that buries the object; kubectl hides them too unless asked. */
function withoutManagedFields(show: boolean, object: Record<string, unknown>): Record<string, unknown> {
  if (show) return object;
  const metadata = object.metadata as Record<string, unknown> | undefined;
  if (!metadata?.managedFields) return object;
  const { managedFields: _, ...rest } = metadata;
  return { ...object, metadata: rest };
}

async function show(provider: YamlProvider, name: string, object: unknown): Promise<vscode.TextEditor> {
  const uri = provider.add(name, yaml.dump(object, { noRefs: true, lineWidth: -1 }));
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
  return vscode.window.showTextDocument(doc, { preview: true });
}

export interface YamlDeps {
  readonly connection: ConnectionService;
  readonly logger: Logger;
  readonly settings: SettingsService;
  readonly store: EventStore;
  readonly tree: EventsTreeProvider;
  readonly selection: () => readonly unknown[];
}

export function registerYamlCommands(d: YamlDeps): { disposables: vscode.Disposable[]; documents: () => number } {
  const provider = new YamlProvider();
  const selection = d.selection;
  const managed = (object: Record<string, unknown>) => withoutManagedFields(d.settings.value.showManagedFields, object);
  const groupOf = (node: GroupNode | EventNode) => (node instanceof EventNode ? node.parent : node);
  const isRow = (x: unknown): x is GroupNode | EventNode => x instanceof GroupNode || x instanceof EventNode;
  const disposables = [
    vscode.workspace.registerTextDocumentContentProvider(YAML_SCHEME, provider),
    vscode.workspace.onDidCloseTextDocument((d) => d.uri.scheme === YAML_SCHEME && provider.forget(d.uri)),
    registerRowCommand(Commands.openEventYaml, (x): x is EventNode => x instanceof EventNode, selection, async (node) => {
      const e = d.tree.eventOf(node);
      if (!e) return void vscode.window.showWarningMessage('That event is no longer in the store.');
      let object: Record<string, unknown> | undefined;
      if (e.origin !== 'local' && e.expiredAt === undefined) {
        try {
          object = await getJson(d.connection, `${resourcePath(e.origin, e.namespace)}/${encodeURIComponent(e.name)}`);
        } catch (err) {
          d.logger.error(err, 'Cannot read the event from the apiserver; showing the stored copy');
        }
      }
      // History and locally recorded events exist only in the store: shown as the Event they are.
      return show(provider, `${safe(e.namespace)}-${safe(e.name)}`, object ? managed(object) : toCoreV1Event(e));
    }, 'Pick an event in the Events view first.'),
    registerRowCommand(Commands.openObjectYaml, isRow, selection, async (node) => {
      const o = groupOf(node).object;
      try {
        const object = await getJson(d.connection, await pathOfObject(d.connection, o));
        return await show(provider, `${safe(o.kind)}-${safe(o.name)}`, managed(object));
      } catch (err) {
        return void vscode.window.showErrorMessage(`Cannot open ${o.kind}/${o.name}: ${(err as Error).message}`);
      }
    }, 'Pick an object in the Events view first.'),
    registerRowCommand(Commands.copyKubectlCommand, isRow, selection, async (node) => {
      const group = groupOf(node);
      const namespace = d.store.group(group.key)?.events[0]?.namespace ?? group.object.namespace;
      const built = kubectlEventsCommand(group.object, namespace, d.connection.context);
      if ('problem' in built) return void vscode.window.showWarningMessage(built.problem);
      await vscode.env.clipboard.writeText(built.command);
      vscode.window.setStatusBarMessage(`Copied: ${built.command}`, 5000);
      return built.command;
    }, 'Pick an object in the Events view first.'),
  ];
  return { disposables, documents: () => provider.size };
}
