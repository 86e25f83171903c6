// One connection to one cluster context at a time, for the whole window. Connecting is
// single-flight (the latest request wins and nothing of an earlier one survives: two Refresh
// clicks or two context changes in a row leave exactly one set of watches), its state is
// told to whoever shows it, and the context's history is saved while connected.
import { ApiClient } from '../cluster/apiRequest';
import { ClusterConnection } from '../cluster/clusterConnection';
import { KubeconfigError } from '../cluster/kubeconfig';
import { Emitter } from '../common/emitter';
import { Disposable, toDisposable } from '../common/lifecycle';
import { LatestOnly } from '../common/latestOnly';
import type { EventStore } from '../model/eventStore';
import type { Logger } from '../record/logger';
import { statusOfWatches, type ConnectionStatus } from './connectionStatus';

/**
 * History is saved this often while connected (and when the connection ends). A save writes
 * only what changed (nothing when nothing did), off the hot path, so it can be frequent: a
 * crash loses at most this much.
 */
export const HISTORY_SAVE_INTERVAL_MS = 5_000;
/** Expired history is pruned this often. */
export const HISTORY_PRUNE_INTERVAL_MS = 60_000;

export interface ConnectRequest {
  /** The context; the kubeconfig's current one when empty. */
  readonly context?: string;
  /** An explicit kubeconfig path; KUBECONFIG or ~/.kube/config when empty. */
  readonly kubeconfigPath?: string;
  readonly namespaces?: readonly string[];
}

export class ConnectionService extends Disposable {
  readonly connection: ClusterConnection;
  private readonly latest = new LatestOnly();
  private statusNow: ConnectionStatus = { phase: 'disconnected', message: '' };
  private readonly changed = this._register(new Emitter<ConnectionStatus>());
  readonly onDidChangeStatus = this.changed.event;
  private lastRequest: ConnectRequest = {};
  /** The kubeconfig another extension (the Kubernetes extension) says to use, when ours is not set. */
  followedKubeconfig: string | undefined;
  /** Connects started, and the number that finished as the latest (for tests). */
  readonly counts = { started: 0, completed: 0 };

  constructor(
    readonly store: EventStore,
    private readonly logger: Logger,
  ) {
    super();
    this.connection = new ClusterConnection(store);
    this._register(this.connection.onDidChangeState((s) => this.setStatus(statusOfWatches(this.connection.context, s))));
    const save = setInterval(() => void this.saveHistory(), HISTORY_SAVE_INTERVAL_MS);
    const prune = setInterval(() => void store.pruneHistory(), HISTORY_PRUNE_INTERVAL_MS);
    this._register(toDisposable(() => (clearInterval(save), clearInterval(prune))));
  }

  get status(): ConnectionStatus {
    return this.statusNow;
  }

  get context(): string | undefined {
    return this.connection.context;
  }

  /** The request the current connection was made from (Refresh repeats it). */
  get request(): ConnectRequest {
    return this.lastRequest;
  }

  /** Whether this connection's watches have all been open once (later loading is a relist). */
  private listedOnce = false;

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
    await this.latest.run(async (signal) => {
      this.lastRequest = request;
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

  /** Connects again with the last request (Refresh, Retry). */
  reconnect(): Promise<void> {
    return this.connect(this.lastRequest);
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
