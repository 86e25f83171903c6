// One connection to one cluster context at a time, for the whole window. Connecting is
// single-flight (the latest request wins and nothing of an earlier one survives: two Refresh
// clicks or two context changes in a row leave exactly one set of watches), its state is
// told to whoever shows it, and the context's history is saved while connected. Which
// kubeconfig and context: ConnectionChoice.
import { ApiClient } from '../cluster/apiRequest';
import { ClusterConnection } from '../cluster/clusterConnection';
import { KubeconfigError } from '../cluster/kubeconfig';
import { Emitter } from '../common/emitter';
import { Disposable, toDisposable } from '../common/lifecycle';
import { LatestOnly } from '../common/latestOnly';
import type { EventStore } from '../model/eventStore';
import type { Logger } from '../record/logger';
import { ConnectionChoice, connectionSettingsChanged, type ConnectRequest, type ConnectSettings } from './connectionChoice';
import { statusOfWatches, type ConnectionStatus } from './connectionStatus';

export type { ConnectRequest } from './connectionChoice';

/**
 * History is saved this often while connected (and when the connection ends). A save writes
 * only what changed (nothing when nothing did), off the hot path, so it can be frequent: a
 * crash loses at most this much.
 */
export const HISTORY_SAVE_INTERVAL_MS = 5_000;
/** Expired history is pruned this often. */
export const HISTORY_PRUNE_INTERVAL_MS = 60_000;

export class ConnectionService extends Disposable {
  readonly connection: ClusterConnection;
  private readonly latest = new LatestOnly();
  private statusNow: ConnectionStatus = { phase: 'disconnected', message: '' };
  private readonly changed = this._register(new Emitter<ConnectionStatus>());
  readonly onDidChangeStatus = this.changed.event;
  private lastRequest: ConnectRequest = {};
  private readonly choice = new ConnectionChoice();
  /** Connects started, and the number that finished as the latest (the notifier's baseline). */
  readonly counts = { started: 0, completed: 0 };

  constructor(
    readonly store: EventStore,
    private readonly logger: Logger,
    /** The connection settings now. */
    private readonly settings: () => ConnectSettings,
  ) {
    super();
    this.connection = new ClusterConnection(store);
    this._register(
      this.connection.onDidChangeState((s) => {
        this.logSync();
        this.setStatus(statusOfWatches(this.connection.context, s));
      }),
    );
    const save = setInterval(() => void this.saveHistory(), HISTORY_SAVE_INTERVAL_MS);
    const prune = setInterval(() => void store.pruneHistory(), HISTORY_PRUNE_INTERVAL_MS);
    this._register(toDisposable(() => (clearInterval(save), clearInterval(prune))));
  }

  /** Logs once per connection how its initial state was read, and why not streamed when it was not. */
  private logSync(): void {
    const observer = this.connection.activeObserver;
    if (!observer?.lastSync || this.syncLogged === observer) return;
    this.syncLogged = observer;
    const refused = observer.streamRefused;
    this.logger.info(0, observer.lastSync === 'streamed' ? 'Initial events streamed from the watch cache' : 'Initial events listed in pages', ['context', this.connection.context ?? '', ...(refused ? ['streamRefused', refused] : [])]);
  }

  get status(): ConnectionStatus {
    return this.statusNow;
  }

  get context(): string | undefined {
    return this.connection.context;
  }

  /** The request the current connection was made from. */
  get request(): ConnectRequest {
    return this.lastRequest;
  }

  /** The kubeconfig path the settings and the followed extension name (undefined: KUBECONFIG, then ~/.kube/config). */
  get kubeconfigPath(): string | undefined {
    return this.choice.kubeconfigPath(this.settings());
  }

  /** Connects with what the settings and the user's choices say now (Refresh, Retry). */
  refresh(): Promise<void> {
    return this.connect(this.choice.request(this.settings()));
  }

  /** Switch Context: this context, for this window. */
  switchTo(context: string): Promise<void> {
    this.choice.pick(context);
    return this.refresh();
  }

  /**
   * Follows another extension's kubeconfig and context (the Kubernetes extension's); connects
   * again only when that changes what the view shows. With our own kubeconfig set, its
   * contexts (of another file) are not followed.
   */
  follow(kubeconfigPath: string | undefined, context?: string): Promise<void> {
    this.choice.follow(kubeconfigPath, this.settings().kubeconfig ? undefined : context);
    const next = this.choice.request(this.settings());
    const last = this.lastRequest;
    if (next.kubeconfigPath === last.kubeconfigPath && (next.context === last.context || next.context === this.context)) return Promise.resolve();
    return this.connect(next);
  }

  /** The settings changed: connects again when the kubeconfig, the context or the namespaces did. */
  settingsChanged(before: ConnectSettings, after: ConnectSettings): Promise<void> {
    if (before.context !== after.context) this.choice.contextSettingChanged();
    return connectionSettingsChanged(before, after) ? this.refresh() : Promise.resolve();
  }

  /** Whether this connection's watches have all been open once (later loading is a relist). */
  private listedOnce = false;
  /** The observer whose initial sync was logged. */
  private syncLogged: object | undefined;

  private setStatus(status: ConnectionStatus): void {
    if (status.phase === 'live') this.listedOnce = true;
    if (status.phase === 'loading') status = { ...status, firstList: !this.listedOnce };
    this.statusNow = status;
    this.changed.fire(status);
  }

  /**
   * (Re)connects. Resolves when this request has connected, failed, or been overtaken by a
   * newer one; never rejects (a failure becomes the status).
   */
  async connect(request: ConnectRequest): Promise<void> {
    this.counts.started++;
    this.lastRequest = request;
    await this.latest.run(async (signal) => {
      this.listedOnce = false;
      this.setStatus({ phase: 'loading', context: request.context || undefined, message: '' });
      try {
        await this.connection.connect(request.context || undefined, { kubeconfigPath: request.kubeconfigPath || undefined, namespaces: request.namespaces ?? [] });
        if (signal.aborted) return;
        this.counts.completed++;
        this.logger.info(0, 'Connected', ['context', this.connection.context ?? '', 'kubeconfig', this.connection.kubeconfig?.files.join(':') ?? '']);
        // The watches report their own state from here on; until the first does, we are loading.
        this.setStatus(statusOfWatches(this.connection.context, this.connection.state ?? new Map()));
      } catch (e) {
        if (signal.aborted) return;
        const message = (e as Error).message;
        this.logger.error(e, 'Cannot connect');
        this.setStatus({ phase: e instanceof KubeconfigError && /No kubeconfig found/.test(message) ? 'noKubeconfig' : 'badKubeconfig', context: request.context || undefined, message });
      }
    });
  }

  /** A client for the current context (for commands); dispose it when done. */
  newClient(): ApiClient {
    return this.connection.newClient();
  }

  /** Never rejects: the store hands write errors to its onHistoryError (the log). */
  saveHistory(): Promise<void> {
    return this.connection.saveHistory();
  }

  async stop(): Promise<void> {
    await this.latest.cancel();
    await this.connection.disconnect();
    this.setStatus({ phase: 'disconnected', message: '' });
  }

  override dispose(): void {
    super.dispose();
    void this.stop();
  }
}
