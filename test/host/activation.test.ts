import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KubernetesEventsApi } from '../../src/extension';
import { extensionApi, waitFor } from './support';

describe('the extension in a real VS Code extension host', () => {
  let api: KubernetesEventsApi;

  before(async () => {
    api = await extensionApi();
  });

  it('activates', () => {
    assert.equal(vscode.extensions.getExtension('kubernetes-events.kubernetes-events')?.isActive, true);
  });

  it('registers every command it contributes', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed = ((vscode.extensions.getExtension('kubernetes-events.kubernetes-events')?.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands).map((c) => c.command);
    assert.ok(contributed.length >= 15);
    for (const c of contributed) assert.ok(registered.has(c), `${c} is registered`);
  });

  it('connects to the cluster in KUBECONFIG and fills the view', async () => {
    await waitFor('the view to be ready', async () => (api.controller.viewState === 'ready' ? true : undefined));
    assert.ok(api.groupCount() > 0);
    assert.equal(api.controller.connection.context, 'kev-admin');
  });
});
