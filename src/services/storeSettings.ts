// The store's settings take effect as they change: a lowered cap drops the events seen
// longest ago (in slices), a raised one lists again when the old cap had dropped some, so
// the view fills up to it; a new history window drops history older than it. The
// correlator's shape the sinks, which start with the window (as client-go's broadcaster
// takes its options when it is made), so changing one offers the reload it needs rather
// than seeming to do nothing.
import * as vscode from 'vscode';
import type { Settings } from './settingsValidation';
import type { EventStore } from '../model/eventStore';
import type { Logger } from '../record/logger';
import type { ConnectionService } from './connectionService';

export interface StoreSettingsDeps {
  readonly store: EventStore;
  readonly connection: ConnectionService;
  readonly logger: Logger;
}

const HOUR_MS = 3_600_000;

/** `relisting`: the same change reconnects anyway (a new context or namespaces), and lists with the new cap. */
export function applyStoreSettings(s: StoreSettingsDeps, before: Settings, after: Settings, relisting: boolean): void {
  if (before.storeCap !== after.storeCap) void applyStoreCap(s, before.storeCap, after.storeCap, relisting);
  if (before.historyWindowHours !== after.historyWindowHours) void s.store.setHistoryWindow(after.historyWindowHours * HOUR_MS);
  if (JSON.stringify(before.correlator) !== JSON.stringify(after.correlator)) void offerReload();
}

async function applyStoreCap(s: StoreSettingsDeps, before: number, after: number, relisting: boolean): Promise<void> {
  if (after < before) {
    const dropped = await s.store.setMaxEvents(after);
    s.logger.info(0, 'Store cap lowered: the events seen longest ago dropped', ['cap', after, 'dropped', dropped]);
    return;
  }
  const evictedBefore = s.store.evictions;
  await s.store.setMaxEvents(after);
  // What the old cap dropped is still on the server (or gone for good, if it expired): list again.
  if (evictedBefore > 0 && !relisting && s.connection.context !== undefined) {
    s.logger.info(0, 'Store cap raised: listing again for the events the old cap dropped', ['cap', after]);
    await s.connection.refresh();
  }
}

async function offerReload(): Promise<void> {
  const pick = await vscode.window.showInformationMessage('Kubernetes Events: the correlator settings apply to events recorded after the window reloads.', 'Reload Window');
  if (pick) await vscode.commands.executeCommand('workbench.action.reloadWindow');
}
