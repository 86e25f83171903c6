import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KubernetesEventsApi } from '../../src/extension';

const EXTENSION_ID = 'kubernetes-events.kubernetes-events';

describe('the extension in a real VS Code extension host', () => {
  let api: KubernetesEventsApi;

  before(async () => {
    const extension = vscode.extensions.getExtension<KubernetesEventsApi>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    api = await extension.activate();
  });

  it('activates', () => {
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
  });

  it('registers its command', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('kubernetesEvents.refresh'), 'kubernetesEvents.refresh is registered');
  });

  it('loads events from the real control plane when the command runs', async () => {
    await vscode.commands.executeCommand('kubernetesEvents.refresh');
    assert.ok(api.groupCount() > 0, `the view holds event groups after a refresh (got ${api.groupCount()})`);
  });
});
