// The VS Code edge: builds each owner once, registers the view before anything waits (so a
// reload shows "Loading events" at once, never an empty pane), registers the commands, then
// connects in the background. Everything it builds is reachable from context.subscriptions.
import * as vscode from 'vscode';
import type { KubernetesEventsApi } from './api';
import { connectFromSettings, registerClusterCommands } from './commands/cluster';
import { registerExportCommands, writeExport } from './commands/export';
import { registerFilterCommands } from './commands/filters';
import { record, registerRecordCommands } from './commands/record';
import { asObjectQuery, registerShowEventsCommands, showEventsFor } from './commands/showEvents';
import { registerSearchCommands } from './commands/search';
import { registerSinkCommands } from './commands/sink';
import { registerTimelineCommands } from './commands/timeline';
import { registerYamlCommands } from './commands/yaml';
import { registerPlainCommand } from './commands/registry';
import { Commands, VIEW_ID } from './common/commandIds';
import { ContextKeys } from './common/contextKeys';
import { toDisposable } from './common/lifecycle';
import { OutputChannelLogger } from './logging';
import { EventStore } from './model/eventStore';
import { ConnectionService } from './services/connectionService';
import { ContextKeyService } from './services/contextKeyService';
import { FilterService } from './services/filterService';
import { FocusService } from './services/focusService';
import { RecordingService } from './services/recordingService';
import type { Services } from './services/services';
import { SettingsService } from './services/settingsService';
import { OwnerService } from './services/ownerService';
import { SinkService } from './services/sinkService';
import { applyStoreSettings } from './services/storeSettings';
import { WarningNotifier } from './services/warningNotifier';
import { connectKubernetesExtension } from './views/kubernetesExtension';
import { RowDecorationProvider } from './views/tree/rowDecorations';
import { EventsTreeProvider } from './views/tree/eventsTreeProvider';
import { SelectionMemory } from './views/selectionMemory';
import { ViewStatus } from './views/viewStatus';

let shutdown: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): KubernetesEventsApi {
  const started = performance.now();
  const settings = new SettingsService();
  const s0 = settings.value;
  const channel = vscode.window.createOutputChannel('Kubernetes Events', { log: true });
  const logger = new OutputChannelLogger(channel);
  const keys = new ContextKeyService();
  const store = new EventStore({
    historyFolder: context.globalStorageUri.fsPath,
    maxEvents: s0.storeCap,
    historyWindowMs: s0.historyWindowHours * 3_600_000,
    onHistoryError: (e, action) => logger.error(e, `Cannot ${action} the event history`),
  });
  const tree = new EventsTreeProvider(store, { groupBy: s0.groupBy, maxChildren: s0.maxChildren, sortOrder: s0.sortOrder });
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: tree, showCollapseAll: true, canSelectMany: false });
  // TreeView.reveal first waits for the refreshes the extension host has sent (ExtHostTreeView's
  // refresh promise): the only public way to know they are drawn. The selected row is where
  // the click was, already on screen, so revealing it, neither selected again nor focused,
  // moves nothing. With no selection, no click put the focus in the tree; hidden, it has none
  // (and a reveal would show it).
  tree.drawn = async () => {
    const at = view.selection[0];
    if (at && view.visible) await Promise.resolve(view.reveal(at, { select: false, focus: false })).catch(() => undefined);
  };
  const recording = new RecordingService(store, logger, s0.correlator);
  const connection = new ConnectionService(store, logger);
  const sink = new SinkService(recording, connection, logger);
  const owners = new OwnerService(connection, store, context.globalStorageUri.fsPath, logger, tree.owners);
  const filters = new FilterService(tree, keys);
  const focus = new FocusService(store, tree, connection, () => settings.value.storeCap);
  filters.focus = focus;
  const status = new ViewStatus(view, tree, connection, sink, filters, keys, focus, store);
  const selection = new SelectionMemory(view, store);
  const s: Services = { context, channel, logger, settings, keys, store, tree, view, selection, recording, connection, sink, filters, status, owners, focus };
  const yaml = registerYamlCommands(s);
  const notifier = new WarningNotifier(s);
  context.subscriptions.push(
    settings, channel, tree, view, selection, connection, sink, focus, owners, status, notifier,
    owners.onDidChange(() => tree.ownersChanged()),
    vscode.window.registerFileDecorationProvider(new RowDecorationProvider()),
    view.onDidChangeVisibility((e) => tree.ticker.setVisible(e.visible)),
    ...registerClusterCommands(s),
    ...registerSinkCommands(s),
    ...registerFilterCommands(s),
    ...registerRecordCommands(s),
    ...registerExportCommands(s),
    ...registerShowEventsCommands(s),
    ...registerSearchCommands(s),
    registerPlainCommand(Commands.clearNotificationMutes, async () => {
      await notifier.setMutes({ objects: [], reasons: [] });
      vscode.window.setStatusBarMessage('Warning notifications: nothing muted.', 5000);
    }),
    ...registerTimelineCommands(s),
    ...yaml.disposables,
    settings.onDidChange((before, after) => {
      if (before.groupBy !== after.groupBy || before.maxChildren !== after.maxChildren || before.sortOrder !== after.sortOrder) {
        tree.setOptions({ groupBy: after.groupBy, maxChildren: after.maxChildren, sortOrder: after.sortOrder });
        keys.set(ContextKeys.sortOrder, after.sortOrder);
        keys.set(ContextKeys.groupBy, after.groupBy);
        void owners.setWanted(after.groupBy === 'workload');
      }
      if (before.sinkEnabled !== after.sinkEnabled) void sink.setWanted(after.sinkEnabled);
      const reconnect = before.kubeconfig !== after.kubeconfig || before.context !== after.context || before.namespaces.join() !== after.namespaces.join();
      // A context picked with Switch Context stays unless the context setting itself changed.
      if (reconnect) void connectFromSettings(s, before.context !== after.context ? after.context : undefined);
      applyStoreSettings(s, before, after, reconnect);
    }),
    toDisposable(() => store.clear()),
  );
  tree.ticker.setVisible(view.visible);
  keys.set(ContextKeys.sortOrder, s0.sortOrder);
  keys.set(ContextKeys.groupBy, s0.groupBy);
  void owners.setWanted(s0.groupBy === 'workload');
  if (s0.warningsOnly) void filters.set({ types: ['Warning'] });
  void sink.setWanted(s0.sinkEnabled);
  void connectFromSettings(s, s0.context || undefined);
  // Optional: the Kubernetes extension's explorer menus and kubeconfig, when it is installed.
  connectKubernetesExtension(s).then(
    (d) => context.subscriptions.push(...d),
    (e: Error) => logger.error(e, 'Cannot use the Kubernetes extension'),
  );
  shutdown = async () => {
    await owners.shutdown();
    await recording.shutdown();
    await connection.stop();
  };
  const activationMs = performance.now() - started;
  return {
    apiVersion: 1,
    get context() {
      return connection.context;
    },
    showEvents: async (object) => {
      const q = asObjectQuery(object);
      if (!q) throw new TypeError('showEvents needs {kind, name, namespace?, uid?} with kind and name given');
      return (await showEventsFor(s, q)) !== undefined;
    },
    recordEvent: (request) => record(s, request),
    testing: context.extensionMode === vscode.ExtensionMode.Test ? { services: s, notifier, activationMs, yamlDocuments: yaml.documents, exportTo: (format, target) => writeExport(s, format, target) } : undefined,
  };
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}
