// The extension's state and its wiring: one EventBroadcaster (watchers: the store, the log,
// and the apiserver sink when enabled), one store, one cluster connection, the tree view and
// the context keys its menus and welcome content depend on.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { ApiClient } from './cluster/apiRequest';
import { ClusterConnection } from './cluster/clusterConnection';
import { ApiserverEventSink } from './cluster/eventSink';
import type { ListWatchState } from './cluster/listWatch';
import { KubeconfigError } from './cluster/kubeconfig';
import { StoreEventSink } from './cluster/storeSink';
import { OutputChannelLogger } from './logging';
import { EventStore } from './model/eventStore';
import { describeFilter, isFilterActive, type EventFilter } from './model/filters';
import { EventBroadcaster, type EventRecorder, type EventWatch, type SinkStats } from './record/event';
import { readSettings, type Settings } from './settings';
import { EventsTreeProvider, type EventsNode } from './views/eventsTree';

export const VIEW_ID = 'kubernetesEvents.events';
/** The component our events come from. */
export const RECORDER_COMPONENT = 'kubernetes-events-vscode';

/** What the view shows when it has no events to list (drives viewsWelcome). */
export type ViewState = 'loading' | 'noKubeconfig' | 'badKubeconfig' | 'unreachable' | 'forbidden' | 'empty' | 'ready';

export class Controller implements vscode.Disposable {
  readonly channel = vscode.window.createOutputChannel('Kubernetes Events', { log: true });
  readonly logger = new OutputChannelLogger(this.channel);
  settings: Settings = readSettings();
  readonly store: EventStore;
  readonly connection: ClusterConnection;
  readonly tree: EventsTreeProvider;
  readonly view: vscode.TreeView<EventsNode>;
  broadcaster!: EventBroadcaster;
  recorder!: EventRecorder;
  private sinkWatch: (EventWatch & { readonly stats: SinkStats }) | undefined;
  private sinkClient: ApiClient | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private seenWarnings = new Set<string>();
  viewState: ViewState = 'loading';
  lastError = '';
  private syncDone: (() => void) | undefined;

  constructor(readonly context: vscode.ExtensionContext) {
    this.store = new EventStore({ historyFolder: context.globalStorageUri.fsPath, maxEvents: this.settings.storeCap, historyWindowMs: this.settings.historyWindowHours * 3_600_000 });
    this.connection = new ClusterConnection(this.store);
    this.tree = new EventsTreeProvider(this.store, { groupByNamespace: this.settings.groupByNamespace, maxChildren: this.settings.maxChildren });
    this.view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true, canSelectMany: false });
    this.disposables.push(this.channel, this.tree, this.view);
    this.disposables.push(this.view.onDidChangeVisibility((e) => e.visible && this.markWarningsSeen()));
    this.disposables.push(this.tree.onDidSettle(() => this.updateView()));
    this.disposables.push(this.connection.onDidChangeState((s) => this.onConnectionState(s)));
    const pruneTimer = setInterval(() => this.store.pruneHistory(), 60_000);
    const saveTimer = setInterval(() => this.connection.saveHistory(), 30_000);
    this.disposables.push({ dispose: () => (clearInterval(pruneTimer), clearInterval(saveTimer)) });
  }

  /** Starts the machinery: the broadcaster and its watchers, then the cluster connection. */
  async start(): Promise<void> {
    await this.startBroadcaster();
    await this.setFilter(this.settings.warningsOnly ? { types: ['Warning'] } : {});
    await this.connect();
  }

  private async startBroadcaster(): Promise<void> {
    this.broadcaster = new EventBroadcaster({ logger: this.logger, correlatorOptions: this.settings.correlator });
    this.recorder = this.broadcaster.newRecorder({ component: RECORDER_COMPONENT, host: os.hostname() });
    await this.broadcaster.startRecordingToSink(new StoreEventSink(this.store));
    await this.broadcaster.startStructuredLogging(0);
    if (this.settings.sinkEnabled) await this.startSink();
  }

  /** The kubeconfig another extension (the Kubernetes extension) says to use, when ours is not set. */
  private followedKubeconfig: string | undefined;

  /** (Re)connects to the configured context, or `context` when given. */
  async connect(context?: string, follow?: { kubeconfigPath?: string }): Promise<void> {
    if (follow?.kubeconfigPath) this.followedKubeconfig = follow.kubeconfigPath;
    this.setViewState('loading');
    const done = new Promise<void>((resolve) => (this.syncDone = resolve));
    void vscode.window.withProgress({ location: { viewId: VIEW_ID }, title: 'Loading events' }, () => Promise.race([done, new Promise((r) => setTimeout(r, 60_000))]));
    try {
      await this.connection.connect(context || this.settings.context || undefined, { kubeconfigPath: this.settings.kubeconfig || this.followedKubeconfig || undefined, namespaces: this.settings.namespaces });
      this.logger.info(0, 'Connected', ['context', this.connection.context ?? '', 'kubeconfig', this.connection.kubeconfig?.files.join(':') ?? '']);
      await this.restartSinkClient();
    } catch (e) {
      this.lastError = (e as Error).message;
      this.setViewState(e instanceof KubeconfigError && /No kubeconfig found/.test(this.lastError) ? 'noKubeconfig' : 'badKubeconfig');
      this.logger.error(e, 'Cannot connect');
      this.syncDone?.();
    }
    this.updateDescription();
  }

  private onConnectionState(states: ReadonlyMap<string, ListWatchState>): void {
    const all = [...states.values()];
    const forbidden = all.find((s) => s.phase === 'forbidden' || s.phase === 'unauthorized') as { message: string } | undefined;
    const failing = all.find((s) => s.phase === 'backoff') as { error: string; retryInMs: number } | undefined;
    if (forbidden) {
      this.lastError = forbidden.message;
      this.setViewState('forbidden');
      this.syncDone?.();
    } else if (failing && this.store.size === 0) {
      this.lastError = `${failing.error} (retrying in ${Math.round(failing.retryInMs / 1000)} s)`;
      this.setViewState('unreachable');
    } else if (all.length > 0 && all.every((s) => s.phase === 'watching')) {
      this.lastError = '';
      this.setViewState(this.store.size === 0 ? 'empty' : 'ready');
      this.syncDone?.();
    }
    this.updateView();
  }

  setViewState(state: ViewState): void {
    this.viewState = state;
    void vscode.commands.executeCommand('setContext', 'kubernetesEvents.state', state);
    this.view.message = state === 'ready' || state === 'empty' || state === 'loading' ? undefined : this.lastError;
  }

  /** After each refresh: the badge, the empty state, the description. */
  private updateView(): void {
    if (this.viewState === 'ready' || this.viewState === 'empty') this.setViewState(this.store.size === 0 ? 'empty' : 'ready');
    const unseen = [...this.store.all()].filter((e) => e.type === 'Warning' && e.expiredAt === undefined && !this.seenWarnings.has(e.uid)).length;
    if (this.view.visible && unseen > 0) this.markWarningsSeen();
    else this.view.badge = unseen > 0 ? { value: unseen, tooltip: `${unseen} new warning${unseen === 1 ? '' : 's'}` } : undefined;
  }

  private markWarningsSeen(): void {
    this.seenWarnings = new Set([...this.store.all()].filter((e) => e.type === 'Warning').map((e) => e.uid));
    this.view.badge = undefined;
  }

  get filter(): EventFilter {
    return this.tree.filter;
  }

  async setFilter(filter: EventFilter): Promise<void> {
    this.tree.setFilter(filter);
    await vscode.commands.executeCommand('setContext', 'kubernetesEvents.warningsOnly', (filter.types ?? []).length === 1 && filter.types?.[0] === 'Warning');
    await vscode.commands.executeCommand('setContext', 'kubernetesEvents.filtered', isFilterActive(filter));
    this.updateDescription();
  }

  private updateDescription(): void {
    const parts = [this.connection.context ?? '', describeFilter(this.tree.filter), this.sinkWatch ? 'sink on' : ''].filter(Boolean);
    this.view.description = parts.join(' · ');
  }

  /** The apiserver sink: recorded events are also written to the cluster. */
  get sinkEnabled(): boolean {
    return this.sinkWatch !== undefined;
  }

  get sinkStats(): SinkStats | undefined {
    return this.sinkWatch?.stats;
  }

  async startSink(): Promise<void> {
    if (this.sinkWatch || !this.connection.kubeconfig) return;
    this.sinkClient = this.connection.newClient();
    this.sinkWatch = await this.broadcaster.startRecordingToSink(new ApiserverEventSink(this.sinkClient));
    await vscode.commands.executeCommand('setContext', 'kubernetesEvents.sinkEnabled', true);
    this.logger.info(0, 'Recording to the apiserver', ['context', this.connection.context ?? '']);
    this.updateDescription();
  }

  async stopSink(): Promise<void> {
    const watch = this.sinkWatch;
    this.sinkWatch = undefined;
    await watch?.stop();
    this.sinkClient?.dispose();
    this.sinkClient = undefined;
    await vscode.commands.executeCommand('setContext', 'kubernetesEvents.sinkEnabled', false);
    this.updateDescription();
  }

  /** A context switch gives the sink a client of the new context (never the old one's). */
  private async restartSinkClient(): Promise<void> {
    if (!this.sinkWatch) return;
    await this.stopSink();
    await this.startSink();
  }

  async dispose(): Promise<void> {
    // Flush: everything queued gets its write attempt before we go.
    await this.broadcaster?.shutdown();
    this.sinkClient?.dispose();
    await this.connection.disconnect();
    for (const d of this.disposables) d.dispose();
  }
}
