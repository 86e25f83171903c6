// Open Event as YAML and Open Object as YAML, in read-only editors, and Copy kubectl events.
import * as vscode from 'vscode';
import * as yaml from 'js-yaml';
import { findResourceKind, objectPath } from '../cluster/discovery';
import { resourcePath } from '../cluster/listWatch';
import type { Controller } from '../controller';
import type { InvolvedObject } from '../model/clusterEvent';
import { kubectlEventsCommand } from '../model/kubectlFormat';
import { EventNode, GroupNode } from '../views/eventsTree';

export const YAML_SCHEME = 'kubernetes-events';

/** Serves read-only documents: kubernetes-events:/<what>.yaml?<id>. */
class YamlProvider implements vscode.TextDocumentContentProvider {
  readonly documents = new Map<string, string>();
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.documents.get(uri.toString()) ?? '# gone';
  }
}

/** The API path of an object, found through its group version's discovery document. */
async function pathOfObject(c: Controller, o: InvolvedObject): Promise<string> {
  const client = c.connection.newClient();
  try {
    const kind = await findResourceKind(client, o.kind, o.apiVersion || 'v1');
    if (!kind) throw new Error(`the apiserver serves no ${o.kind} in ${o.apiVersion || 'v1'}`);
    return objectPath(kind, o.name, o.namespace);
  } finally {
    client.dispose();
  }
}

async function getJson(c: Controller, path: string): Promise<unknown> {
  const client = c.connection.newClient();
  try {
    return await client.request({ method: 'GET', path });
  } finally {
    client.dispose();
  }
}

async function show(provider: YamlProvider, name: string, content: string): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.from({ scheme: YAML_SCHEME, path: `/${name}.yaml`, query: String(Date.now()) });
  provider.documents.set(uri.toString(), content);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
  return vscode.window.showTextDocument(doc, { preview: true });
}

export function registerYamlCommands(c: Controller): vscode.Disposable[] {
  const provider = new YamlProvider();
  return [
    vscode.workspace.registerTextDocumentContentProvider(YAML_SCHEME, provider),
    vscode.commands.registerCommand('kubernetesEvents.openEventYaml', async (node?: EventNode) => {
      const e = node instanceof EventNode ? c.tree.eventOf(node) : undefined;
      if (!e) return void vscode.window.showWarningMessage('Pick an event in the Events view first.');
      let content: unknown;
      if (e.origin !== 'local' && e.expiredAt === undefined) {
        try {
          content = await getJson(c, `${resourcePath(e.origin, e.namespace)}/${encodeURIComponent(e.name)}`);
        } catch (err) {
          c.logger.error(err, 'Cannot read the event from the apiserver; showing the stored copy');
        }
      }
      // History and locally recorded events exist only in the store: show what it holds.
      content ??= { note: e.expiredAt !== undefined ? 'This event has expired on the server; this is the copy kept as history.' : 'Recorded by this extension.', ...e };
      return show(provider, `${e.namespace}-${e.name}`, yaml.dump(content, { noRefs: true, lineWidth: 120 }));
    }),
    vscode.commands.registerCommand('kubernetesEvents.openObjectYaml', async (node?: GroupNode | EventNode) => {
      const group = node instanceof EventNode ? node.group : node;
      if (!(group instanceof GroupNode)) return void vscode.window.showWarningMessage('Pick an object in the Events view first.');
      try {
        const object = await getJson(c, await pathOfObject(c, group.object));
        return await show(provider, `${group.object.kind}-${group.object.name}`, yaml.dump(object, { noRefs: true, lineWidth: 120 }));
      } catch (err) {
        return void vscode.window.showErrorMessage(`Cannot open ${group.object.kind}/${group.object.name}: ${(err as Error).message}`);
      }
    }),
    vscode.commands.registerCommand('kubernetesEvents.copyKubectlCommand', async (node?: GroupNode | EventNode) => {
      const group = node instanceof EventNode ? node.group : node;
      if (!(group instanceof GroupNode)) return;
      const command = kubectlEventsCommand(group.object);
      await vscode.env.clipboard.writeText(command);
      vscode.window.setStatusBarMessage(`Copied: ${command}`, 3000);
      return command;
    }),
  ];
}
