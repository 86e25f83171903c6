// The VS Code edge: builds each part once, in the order they depend on each other, registers
// the view before anything waits (so a reload shows "Loading events" at once, never an empty
// pane), hands each command what it uses, then connects in the background. Everything it
// builds is reachable from context.subscriptions.
import * as vscode from 'vscode';
import type { KubernetesEventsApi, Parts } from './api';
import { registerConnectionCommands } from './commands/connection';
import { Diagnoser, registerDiagnoseCommands, targetOf, type DiagnoseDeps } from './commands/diagnose';
import { registerExportCommands, writeExport } from './commands/export';
import { registerFilterCommands } from './commands/filters';
import { manifestObject, manifestTarget, registerManifestCommands } from './commands/manifests';
import { registerNotificationCommands } from './commands/notifications';
import { registerRecordCommands } from './commands/record';
import { registerSearchCommands } from './commands/search';
import { registerShowEventsCommands } from './commands/showEvents';
import { registerSinkCommands } from './commands/sink';
import { registerTimelineCommands } from './commands/timeline';
import { registerViewOptionsCommands } from './commands/viewOptions';
import { registerYamlCommands } from './commands/yaml';
import { VIEW_ID } from './common/commandIds';
import { toDisposable } from './common/lifecycle';
import { connectKubernetesExtension } from './integrations/kubernetesExtension';
import { asObjectRef } from './model/filters';
import { EventStore } from './model/eventStore';
import { connectionSettingsChanged } from './services/connectionChoice';
import { ConnectionService } from './services/connectionService';
import { ContextKeyService } from './services/contextKeyService';
import { EventMachinery } from './services/eventMachinery';
import { FilterService } from './services/filterService';
import { FocusService } from './services/focusService';
import { ManifestService } from './services/manifestService';
import { NavigationService } from './services/navigationService';
import { OutputChannelLogger } from './services/outputChannelLogger';
import { OwnerService } from './services/ownerService';
import { RecordingService } from './services/recordingService';
import { SettingsService } from './services/settingsService';
import { ShownEvents } from './services/shownEvents';
import { SinkService } from './services/sinkService';
import { applyStoreSettings } from './services/storeSettings';
import { WarningNotifier } from './services/warningNotifier';
import { RecordEventInput } from './views/recordEventInput';
import { SelectionMemory } from './views/selectionMemory';
import { SinkConsent } from './views/sinkConsent';
import { ManifestSurfaces } from './views/manifests/manifestSurfaces';
import { EventsTreeProvider } from './views/tree/eventsTreeProvider';
import { QuickInputs } from './views/tree/quickInputs';
import { RowDecorationProvider } from './views/tree/rowDecorations';
import { TreeReveal } from './views/tree/treeReveal';
import { ViewStatus } from './views/viewStatus';
import { Walkthrough } from './views/walkthrough';

let shutdown: (() => Promise<void>) | undefined;

export function activate(context: vscode.ExtensionContext): KubernetesEventsApi {
  const started = performance.now();
  const own = <T extends vscode.Disposable | { dispose(): unknown }>(t: T): T => (context.subscriptions.push(t), t);
  const settings = own(new SettingsService());
  const s0 = settings.value;
  const channel = own(vscode.window.createOutputChannel('Kubernetes Events', { log: true }));
  const logger = new OutputChannelLogger(channel);
  const keys = new ContextKeyService();
  const store = new EventStore({
    historyFolder: context.globalStorageUri.fsPath,
    maxEvents: s0.storeCap,
    historyWindowMs: s0.historyWindowHours * 3_600_000,
    onHistoryError: (e, action) => logger.error(e, `Cannot ${action} the event history`),
  });
  own(toDisposable(() => store.clear()));
  // The cluster and what the view shows of it.
  const connection = own(new ConnectionService(store, logger, () => settings.value));
  const owners = own(new OwnerService(connection, store, context.globalStorageUri.fsPath, logger));
  const shown = own(new ShownEvents(store, s0.sortOrder));
  const focus = own(new FocusService(store, shown, connection, () => settings.value.storeCap));
  const filters = own(new FilterService(shown, focus, keys));
  // The view.
  const tree = own(new EventsTreeProvider(shown, owners, { groupBy: s0.groupBy, maxChildren: s0.maxChildren }));
  const view = own(vscode.window.createTreeView(VIEW_ID, { treeDataProvider: tree, showCollapseAll: true, canSelectMany: false }));
  const selection = own(new SelectionMemory(view, store));
  const inputs = new QuickInputs(tree, view, () => selection.selection);
  const navigation = new NavigationService(connection, store, shown, filters, focus, own(new TreeReveal(view, tree, focus)));
  // Recording, and the sink to the cluster.
  const machinery = new EventMachinery(store, logger, s0.correlator);
  const sink = own(new SinkService(machinery, connection, logger));
  const walkthrough = own(new Walkthrough(connection, keys));
  const recording = new RecordingService(machinery, sink, () => walkthrough.recorded());
  const sinkConsent = new SinkConsent(connection, sink, settings);
  const recordInput = new RecordEventInput(inputs, recording, connection, sinkConsent);
  const status = own(new ViewStatus(view, tree, shown, connection, sink, filters, keys, focus, store));
  const notifier = own(new WarningNotifier({ connection, store, settings, filters, navigation, logger, memento: context.workspaceState, ask: (show) => inputs.ask(show) }));
  // The manifests the user edits, with their objects' events.
  const manifests = own(new ManifestService(store, owners, connection, settings, logger));
  own(new ManifestSurfaces(manifests, connection, settings));
  const rows = () => selection.selection;
  const diagnoseDeps: DiagnoseDeps = { extensionUri: context.extensionUri, connection, store, owners, logger, selection: rows, memento: context.workspaceState, manifestObject: (u, i, r) => manifestTarget(manifests, u, i, r) };
  const diagnoser = new Diagnoser(diagnoseDeps);
  const yaml = registerYamlCommands({ connection, logger, settings, store, tree, selection: rows });
  context.subscriptions.push(
    vscode.window.registerFileDecorationProvider(new RowDecorationProvider()),
    view.onDidChangeVisibility((e) => tree.ticker.setVisible(e.visible)),
    ...registerConnectionCommands(connection, inputs, channel),
    ...registerViewOptionsCommands({ settings, shown, tree, inputs, selection: rows }),
    ...registerFilterCommands(filters, store, inputs),
    ...registerSinkCommands(sinkConsent),
    ...registerRecordCommands(recordInput, rows),
    ...registerExportCommands(shown, connection, inputs),
    ...registerShowEventsCommands(navigation),
    ...registerManifestCommands(manifests, navigation),
    ...registerSearchCommands(store, inputs, navigation),
    ...registerNotificationCommands(notifier),
    ...registerTimelineCommands({ extensionUri: context.extensionUri, memento: context.workspaceState, store, owners, settings, filters, navigation, logger, selection: rows, manifestObjects: (u, i, r) => manifestObject(manifests, u, i, r)?.objects, diagnose: (o) => void diagnoser.open(targetOf(o)) }),
    ...registerDiagnoseCommands(diagnoser, diagnoseDeps),
    ...yaml.disposables,
    settings.onDidChange((before, after) => {
      if (before.groupBy !== after.groupBy || before.maxChildren !== after.maxChildren) tree.setOptions({ groupBy: after.groupBy, maxChildren: after.maxChildren });
      if (before.sortOrder !== after.sortOrder) void shown.setSortOrder(after.sortOrder);
      if (before.groupBy !== after.groupBy) void owners.setWanted(after.groupBy === 'workload');
      if (before.sinkEnabled !== after.sinkEnabled) void sink.setWanted(after.sinkEnabled);
      void connection.settingsChanged(before, after);
      applyStoreSettings({ store, connection, logger }, before, after, connectionSettingsChanged(before, after));
    }),
  );
  tree.ticker.setVisible(view.visible);
  void owners.setWanted(s0.groupBy === 'workload');
  if (s0.warningsOnly) void filters.set({ types: ['Warning'] });
  void sink.setWanted(s0.sinkEnabled);
  void connection.refresh();
  walkthrough.start(context, s0.walkthroughOnFirstRun).catch((e: Error) => logger.error(e, 'Cannot open the walkthrough'));
  // Optional: the Kubernetes extension's explorer menus and kubeconfig, when it is installed.
  connectKubernetesExtension({ connection, navigation, recordInput, diagnose: (o) => void diagnoser.open(o) }).then(
    (d) => context.subscriptions.push(...d),
    (e: Error) => logger.error(e, 'Cannot use the Kubernetes extension'),
  );
  shutdown = async () => {
    await owners.shutdown();
    await machinery.shutdown();
    await connection.stop();
  };
  const activationMs = performance.now() - started;
  const parts: Parts = { settings, store, shown, tree, view, selection, machinery, connection, sink, filters, focus, owners, navigation, status, notifier, manifests };
  return {
    apiVersion: 1,
    get context() {
      return connection.context;
    },
    showEvents: async (object) => {
      const q = asObjectRef(object);
      if (!q) throw new TypeError('showEvents needs {kind, name, namespace?, uid?} with kind and name given');
      const result = await navigation.showEvents(q);
      if (!result.shown) void vscode.window.showInformationMessage(result.text);
      return result.shown;
    },
    recordEvent: (request) => recording.record(request),
    testing: context.extensionMode === vscode.ExtensionMode.Test ? { services: parts, activationMs, yamlDocuments: yaml.documents, exportTo: (format, target) => writeExport(shown, format, target) } : undefined,
  };
}

export async function deactivate(): Promise<void> {
  await shutdown?.();
  shutdown = undefined;
}
