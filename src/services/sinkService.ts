// The apiserver sink's lifecycle: while it is wanted and a context is connected, events
// recorded here are also written to that context's cluster (client-go's correlator and
// retry rules); a context switch (or a kubeconfig that now names another server or user for
// the same context) gives it a client of the new one, never the old one's.
// Wanted comes from the setting (so it survives a reload) or from Enable Sink.
import type { ApiClient } from '../cluster/apiRequest';
import { ApiserverEventSink } from '../cluster/eventSink';
import { EventsV1Sink } from '../cluster/eventsV1Sink';
import { Emitter } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import type { EventWatch, SinkStats } from '../record/event';
import type { Logger } from '../record/logger';
import type { ConnectionService } from './connectionService';
import type { EventMachinery, EventsV1SinkWatch } from './eventMachinery';

interface Running {
  readonly context: string;
  /** Server, user and impersonation: a kubeconfig edited under the same context name changes it. */
  readonly identity: string | undefined;
  readonly client: ApiClient;
  readonly watch: EventWatch & { readonly stats: SinkStats };
  /** The events.k8s.io/v1 sink beside it (series, through tools/events). */
  readonly v1: EventsV1SinkWatch;
}

export class SinkService extends Disposable {
  private wanted = false;
  private running: Running | undefined;
  /** Serialises starts and stops: one change at a time, in order. */
  private queue: Promise<void> = Promise.resolve();
  private readonly changed = this._register(new Emitter());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly machinery: EventMachinery,
    private readonly connection: ConnectionService,
    private readonly logger: Logger,
  ) {
    super();
    this._register(connection.onDidChangeStatus(() => void this.reconcile()));
  }

  /** Writing to the cluster right now (wanted, and connected). */
  get enabled(): boolean {
    return this.running !== undefined;
  }

  get isWanted(): boolean {
    return this.wanted;
  }

  /** The context it writes to. */
  get context(): string | undefined {
    return this.running?.context;
  }

  get stats(): SinkStats | undefined {
    return this.running?.watch.stats;
  }

  /** Wants it on or off; resolves once the sink follows. */
  setWanted(wanted: boolean): Promise<void> {
    const changed = this.wanted !== wanted;
    this.wanted = wanted;
    // Wanted but not running (no connection yet) is a state the menus show (Disable Sink).
    if (changed) this.fire();
    return this.reconcile();
  }

  /** Brings the running sink in line with what is wanted and with the connected context. */
  private reconcile(): Promise<void> {
    this.queue = this.queue.then(() => this.apply()).catch((e: unknown) => this.logger.error(e, 'Cannot start or stop the sink'));
    return this.queue;
  }

  private async apply(): Promise<void> {
    const context = this.connection.context;
    const identity = this.connection.connection.identity;
    const connected = context !== undefined && this.connection.connection.kubeconfig !== undefined;
    const should = this.wanted && connected && !this.isDisposed;
    if (this.running && (!should || this.running.context !== context || this.running.identity !== identity)) {
      const { watch, v1, client, context: old } = this.running;
      this.running = undefined;
      await watch.stop();
      await v1.stop();
      client.dispose();
      this.logger.info(0, 'Stopped recording to the apiserver', ['context', old]);
      this.fire();
    }
    if (should && !this.running && context !== undefined) {
      const client = this.connection.newClient();
      const watch = await this.machinery.addSink(new ApiserverEventSink(client));
      const v1 = await this.machinery.addEventsV1Sink(new EventsV1Sink(client));
      this.running = { context, identity, client, watch, v1 };
      this.logger.info(0, 'Recording to the apiserver', ['context', context]);
      this.fire();
    }
  }

  private fire(): void {
    this.changed.fire();
  }

  override dispose(): void {
    super.dispose();
    void this.reconcile();
  }
}
