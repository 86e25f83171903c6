// The timeline commands inside the real extension host: what each takes from where VS Code
// calls it, and the one panel they open and move between scopes.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Commands } from '../../src/common/commandIds';
import type { Parts as Services } from '../../src/api';
import { TIMELINE_VIEW_TYPE } from '../../src/views/timeline/timelinePanel';
import { ensureWorkload, extensionApi, TreeReader, waitFor } from './support';

function timelineTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(TIMELINE_VIEW_TYPE));
}

describe('the timeline commands', function () {
  this.timeout(120_000);
  let s: Services;
  let t: TreeReader;

  before(async () => {
    s = (await extensionApi()).testing.services;
    t = new TreeReader(s);
    await waitFor('connected', () => s.status.viewState === 'ready' || s.status.viewState === 'empty');
    await ensureWorkload(s);
    await waitFor('events in the view', () => s.status.viewState === 'ready', 60_000);
  });
  after(async () => {
    for (const tab of timelineTabs()) await vscode.window.tabGroups.close(tab);
  });

  it('Show Timeline ignores the row VS Code passes; for This Object takes the row, else the selected one; one panel moves between them', async () => {
    const [first, second] = await waitFor('two objects', () => (t.groups().length >= 2 ? t.groups() : undefined));
    await vscode.commands.executeCommand(Commands.showTimeline, first, [first]);
    await waitFor('the timeline tab', () => timelineTabs().find((tab) => tab.label === 'Events Timeline'));
    await vscode.commands.executeCommand(Commands.showTimelineForObject, first);
    const label = (g: typeof first) => `Timeline: ${g.object.kind}/${g.object.name}`;
    await waitFor('the object\'s timeline', () => timelineTabs().find((tab) => tab.label === label(first)));
    assert.equal(timelineTabs().length, 1, 'one panel, moved to the object');
    // A keybinding or another extension passing something else: the selected row is used.
    await s.view.reveal(second, { select: true, focus: true });
    // The workbench tells the extension of the selection after the reveal; a person's key press comes after they see it.
    await waitFor('the row selected', () => s.view.selection.some((n) => n.id === second.id));
    await vscode.commands.executeCommand(Commands.showTimelineForObject, `${first.object.kind}/${first.object.name}`);
    await waitFor('the selected object\'s timeline', () => timelineTabs().find((tab) => tab.label === label(second)));
    await vscode.commands.executeCommand(Commands.showTimeline);
    await waitFor('every object again', () => timelineTabs().find((tab) => tab.label === 'Events Timeline'));
    assert.equal(timelineTabs().length, 1);
  });
});
