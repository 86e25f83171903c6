// The sink turned on in the user's settings while the view cannot connect (a context the
// kubeconfig does not have): it is wanted, not running. Disable Sink is offered, Enable Sink
// is not (it could only say "not connected"), and Disable turns the saved setting off, so
// the sink does not start by itself once a connection works.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { eventually, EventsViewPage } from './eventsViewPage';
import { openWorkbench, type Workbench } from './support';

describe('a sink wanted while not connected, in Chromium', function () {
  this.timeout(180_000);
  let workbench: Workbench;

  before(async () => {
    workbench = await openWorkbench('sink-wanted', { settings: { 'kubernetesEvents.sink.enabled': true, 'kubernetesEvents.context': 'no-such-context' } });
  });
  after(async () => {
    await workbench?.close();
  });

  it('offers Disable Sink, not Enable Sink; Disable turns the saved setting off', async () => {
    const { page } = workbench;
    const v = new EventsViewPage(page);
    await v.open();
    await v.row(/^Context "no-such-context" is not in kubeconfig/).waitFor({ timeout: 60_000 });
    await v.titleButton('Views and More Actions');
    const items = page.locator('.monaco-menu .action-item .action-label');
    await items.first().waitFor({ timeout: 10_000 });
    const labels = await items.allInnerTexts();
    assert.ok(labels.some((l) => l.startsWith('Disable Sink')), `Disable Sink offered (the menu: ${labels.join(' | ')})`);
    assert.ok(!labels.some((l) => l.startsWith('Enable Sink')), 'Enable Sink not offered: the sink is already wanted');
    await v.menuItem('Disable Sink');
    const file = path.join(workbench.server.options.runDir, 'user-data', 'User', 'settings.json');
    // VS Code rewrites the file in place: read while it writes, it can be empty for a moment.
    const saved = (): Record<string, unknown> | undefined => {
      try {
        return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    };
    await eventually('the saved setting off', async () => {
      const settings = saved();
      return settings !== undefined && !('kubernetesEvents.sink.enabled' in settings);
    });
  });
});
