// One connection to one cluster context at a time, feeding one store: switching context
// stops every watch and closes the old context's transport before anything of the new one
// is built (a client kept across a switch would send one user's credentials to another
// server), and each cluster identity (server, user, context) keeps its own history. One
// transport (one keep-alive agent) per context serves the watches, the commands and the
// sink alike.
import type { EventStore } from '../model/eventStore';
import { ApiClient } from './apiRequest';
import { EventObserver, type ObserverOptions, type ObserverState } from './eventObserver';
import { loadKubeconfig, type LoadedKubeconfig } from './kubeconfig';
import { restConfigFor, type RestConfig } from './restConfig';
import { ClusterTransport } from './transport';

export interface ConnectionOptions extends ObserverOptions {
  /** An explicit kubeconfig path; otherwise KUBECONFIG or ~/.kube/config. */
  readonly kubeconfigPath?: string;
  readonly env?: NodeJS.ProcessEnv;
}

function sameConfig(a: RestConfig, b: RestConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class ClusterConnection {
  private observer: EventObserver | undefined;
  private loadedNow: LoadedKubeconfig | undefined;
  private contextNow: string | undefined;
  private transport: ClusterTransport | undefined;
  private readonly stateListeners = new Set<(s: ObserverState) => void>();

  constructor(
    readonly store: EventStore,
    private options: ConnectionOptions = {},
  ) {}

  get kubeconfig(): LoadedKubeconfig | undefined {
    return this.loadedNow;
  }

  get context(): string | undefined {
    return this.contextNow;
  }

  get state(): ObserverState | undefined {
    return this.observer?.state;
  }

  get activeObserver(): EventObserver | undefined {
    return this.observer;
  }

  /**
   * Who the current context's requests are from (server URL, user, impersonation): two
   * clusters with the same context name have different identities, so history keyed by it
   * is never shared between them.
   */
  get identity(): string | undefined {
    return this.transport?.identity;
  }

  /** A client for the current context (for commands and the sink), sharing its connections; dispose() is harmless. */
  newClient(): ApiClient {
    if (!this.transport) throw new Error('not connected');
    return new ApiClient(this.transport);
  }

  onDidChangeState(listener: (s: ObserverState) => void): { dispose(): void } {
    this.stateListeners.add(listener);
    return { dispose: () => this.stateListeners.delete(listener) };
  }

  /**
   * (Re)reads the kubeconfig and connects to a context (the kubeconfig's current one by
   * default). Throws KubeconfigError with a message for the user; the store is then empty.
   */
  async connect(contextName?: string, options: Partial<ConnectionOptions> = {}): Promise<void> {
    const previous = this.transport;
    this.transport = undefined;
    await this.disconnect();
    this.options = { ...this.options, ...options };
    let transport: ClusterTransport | undefined;
    try {
      const loaded = loadKubeconfig(this.options.kubeconfigPath, this.options.env);
      const config = restConfigFor(loaded, contextName);
      // A reconnect to the same context with the same kubeconfig keeps its connections (and
      // the clients that hold them, such as the sink's); anything else gets a new transport.
      transport = previous && sameConfig(previous.config, config) ? previous : new ClusterTransport(config, { env: this.options.env });
      this.loadedNow = loaded;
    } finally {
      if (previous && previous !== transport) previous.dispose();
    }
    const config = transport.config;
    this.contextNow = config.context;
    this.transport = transport;
    // Whose history: the transport's identity (server, user, impersonation) and the context.
    await this.store.loadHistory(`${transport.identity} context=${config.context}`);
    const observer = new EventObserver(new ApiClient(transport), this.store, this.options);
    observer.onDidChangeState((s) => {
      for (const l of this.stateListeners) l(s);
    });
    this.observer = observer;
    observer.start();
  }

  /** Saves the history, stops every watch, forgets the context's events and closes its connections. */
  async disconnect(): Promise<void> {
    const observer = this.observer;
    this.observer = undefined;
    if (observer) await observer.stop();
    await this.saveHistory();
    this.store.clear();
    this.contextNow = undefined;
    this.transport?.dispose();
    this.transport = undefined;
  }

  /** Writes what changed since the last save to this cluster's history. Never rejects. */
  saveHistory(): Promise<void> {
    return this.store.saveHistory();
  }
}
