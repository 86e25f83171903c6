// Keeps an EventStore in step with one cluster context: a ListWatch per namespace (or one
// for all), normalised events in, deletions kept as history, and a state per watch that
// the view can show ("forbidden in namespace X as user Y", "reconnecting in 4 s").
import { EventStore } from '../model/eventStore';
import type { ApiClient } from './apiRequest';
import { ListWatch, type EventApi, type InitialSync, type ListWatchState } from './listWatch';
import { normalizeEvent } from './normalize';
import type { WatchEncoding } from './watchItems';

export interface ObserverOptions {
  /** Which API to read: core/v1 (what kubectl shows) or events.k8s.io/v1. */
  readonly api?: EventApi;
  /** Namespaces to watch; empty or undefined for all. */
  readonly namespaces?: readonly string[];
  /** Ask the apiserver for warnings only (a field selector, so less traffic). */
  readonly warningsOnly?: boolean;
  /** Any server-side field selector (warningsOnly is `type=Warning`). */
  readonly fieldSelector?: string;
  /** Items per list page (the apiserver's default chunk size otherwise). */
  readonly pageSize?: number;
  /** `stream` (the default: from the watch cache where the server offers it) or `pages`. */
  readonly initialSync?: InitialSync;
  /** The encoding a watch asks for: `protobuf` (the default) or `json`. */
  readonly watchEncoding?: WatchEncoding;
  /** Test overrides passed to each ListWatch. */
  readonly watchTimeoutSeconds?: number;
  readonly watchdogGraceMs?: number;
  readonly watchSilenceMs?: number;
}

/** The state of each watch, by namespace ('' for all namespaces). */
export type ObserverState = ReadonlyMap<string, ListWatchState>;

export class EventObserver {
  private readonly watches: { namespace: string; watch: ListWatch }[] = [];
  private readonly states = new Map<string, ListWatchState>();
  private readonly listeners = new Set<(s: ObserverState) => void>();
  /** Lists completed since start, for tests and the initial-sync progress. */
  listsCompleted = 0;

  constructor(
    private readonly client: ApiClient,
    readonly store: EventStore,
    options: ObserverOptions = {},
  ) {
    const api = options.api ?? 'core/v1';
    const namespaces = options.namespaces?.length ? [...new Set(options.namespaces)] : [undefined];
    for (const namespace of namespaces) {
      const key = namespace ?? '';
      /** The store's sequence before the current list's first page. */
      let listStart = 0;
      const watch = new ListWatch(
        client,
        { api, namespace, pageSize: options.pageSize, initialSync: options.initialSync, watchEncoding: options.watchEncoding, fieldSelector: options.fieldSelector ?? (options.warningsOnly ? 'type=Warning' : undefined), watchTimeoutSeconds: options.watchTimeoutSeconds, watchdogGraceMs: options.watchdogGraceMs, watchSilenceMs: options.watchSilenceMs },
        {
          onListPage: (items, first) => {
            if (first) listStart = store.sequence;
            store.batch(() => {
              for (const item of items) store.upsert(normalizeEvent(item, api));
            });
          },
          onListDone: async () => {
            // Only a complete list tells what was deleted while nobody watched.
            await store.reconcile(api, listStart, namespace);
            this.listsCompleted++;
          },
          onEvent: (type, raw) => {
            const e = normalizeEvent(raw, api);
            if (type === 'DELETED') store.expire(e.uid);
            else store.upsert(e);
          },
          onState: (state) => {
            this.states.set(key, state);
            for (const l of this.listeners) l(this.states);
          },
        },
      );
      this.watches.push({ namespace: key, watch });
    }
  }

  get state(): ObserverState {
    return this.states;
  }

  /** How the last initial state was read (streamed from the watch cache, or paged); the first watch's. */
  get lastSync(): 'streamed' | 'paged' | undefined {
    return this.watches[0]?.watch.lastSync;
  }

  /** How the last watch's answer was encoded (the first watch's). */
  get lastWatchEncoding(): WatchEncoding | undefined {
    return this.watches[0]?.watch.lastWatchEncoding;
  }

  /** Why the apiserver would not stream the initial state, when it would not (the first watch's). */
  get streamRefused(): string | undefined {
    return this.watches[0]?.watch.streamRefused;
  }

  /** The resourceVersion of each watch, to resume from after a restart. */
  get resourceVersions(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const { namespace, watch } of this.watches) if (watch.lastResourceVersion) out[namespace] = watch.lastResourceVersion;
    return out;
  }

  onDidChangeState(listener: (s: ObserverState) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Starts every watch; with saved resourceVersions they resume without listing (410 Gone relists). */
  start(resume: Record<string, string> = {}): void {
    for (const { namespace, watch } of this.watches) {
      const rv = resume[namespace];
      watch.start(rv ? { resourceVersion: rv } : undefined);
    }
  }

  /** Stops every watch and closes the client's connections. */
  async stop(): Promise<void> {
    await Promise.all(this.watches.map(({ watch }) => watch.stop()));
    this.client.dispose();
  }
}
