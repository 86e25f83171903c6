import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../src/common/commandIds';
import { EXTENSION_ID, extensionApi, waitFor } from './support';

describe('the extension in a real VS Code extension host', () => {
  it('activates, and gives other extensions a narrow API (the test harness also gets `testing`)', async () => {
    const api = await extensionApi();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    assert.deepEqual(Object.keys(api).sort(), ['apiVersion', 'context', 'recordEvent', 'showEvents', 'testing']);
    assert.ok(api.testing.activationMs < 1000, `activate() took ${api.testing.activationMs} ms`);
  });

  it('registers every command it contributes, and contributes every command it defines', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed = (vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands.map((c) => c.command);
    for (const c of contributed) assert.ok(registered.has(c), `${c} is registered`);
    assert.deepEqual([...contributed].sort(), Object.values(Commands).sort());
  });

  it('connects to the cluster in KUBECONFIG and fills the view', async () => {
    const api = await extensionApi();
    const s = api.testing.services;
    await waitFor('the first list', () => s.status.viewState === 'ready' || s.status.viewState === 'empty');
    assert.equal(api.context, 'kev-admin');
  });
});
