// List, then watch from the list's resourceVersion, for ever: the initial state streamed
// from the watch cache where the apiserver offers it (client-go's reflector watchList),
// else paged lists; bookmarks, a server-side timeout, a watchdog for half-open
// connections, exponential backoff with jitter, a relist on 410 Gone, and a clear stop on
// 401/403. client-node 1.4's informer stops on errors and has no watchdog, so this
// replaces it (see the control-plane notes).
import { StatusError } from '../record/errors';
import { sleep } from '../record/sleep';
import { yieldToEventLoop } from '../model/slices';
import type { ApiClient, ListMetadata } from './apiRequest';
import { KubeconfigError } from './errors';
import type { ListText } from './listItems';
import type { RawEvent } from './normalize';
import { PROTOBUF_WATCH_ACCEPT } from './protobuf/watchFrames';
import { addedObject, decodeItem, decodeObject, watchSplitter, type PendingObject, type WatchEncoding, type WatchLine } from './watchItems';

/** The two event APIs. */
export type EventApi = 'core/v1' | 'events.k8s.io/v1';

/** Items per list page: the apiserver's own default chunk size. */
export const LIST_PAGE_SIZE = 500;
/**
 * Pages of a list received or on their way beyond the one being handled: each is asked for
 * from the previous one's head, so one request at a time is with the apiserver; this bounds
 * what a slow handler lets pile up.
 */
export const LIST_READ_AHEAD = 2;
/**
 * A page's items are parsed and handed over a few at a time, each batch in its own turn of the
 * event loop, sized so that a turn takes about this long (ms): a page of 500 at once held the
 * extension host, which every extension shares, for 20-50 ms at 200,000 events.
 */
export const LIST_TURN_MS = 5;
/**
 * While the next page is still on its way, the list sleeps this long (ms) between two turns
 * instead of going straight on; it runs flat out when a page is waiting. A local apiserver
 * (kind, minikube) shares our cores, and a thread that never sleeps is the one the scheduler
 * makes wait, which the user feels as a stall of the extension host.
 */
export const LIST_IDLE_PAUSE_MS = 1;
/** The first batch of a list, and the bounds its size adapts within. */
const LIST_TURN_ITEMS_START = 64;
const LIST_TURN_ITEMS_MIN = 16;
const LIST_TURN_ITEMS_MAX = 1000;
/** The watch's server-side timeout is picked in this range (seconds), as client-go's reflector does. */
export const WATCH_TIMEOUT_MIN_S = 300;
export const WATCH_TIMEOUT_MAX_S = 600;
/** Silence this long past the server-side timeout means the connection is dead. */
export const WATCHDOG_GRACE_MS = 30_000;
/**
 * A watch that asked for bookmarks gets one roughly every minute from the apiserver's watch
 * cache: silence this long means a dead connection or a hung apiserver, long before the
 * server-side timeout.
 */
export const WATCH_SILENCE_MS = 90_000;
/** Backoff between failed attempts: from 0.5 s, doubling, up to 30 s, each with jitter. */
export const BACKOFF_INITIAL_MS = 500;
export const BACKOFF_MAX_MS = 30_000;
/** A watch that ends cleanly sooner than this with nothing in it counts as a failure (no busy loop). */
export const MIN_HEALTHY_WATCH_MS = 1_000;

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/**
 * The annotation on the bookmark that ends a watch-list's initial events
 * (metav1.InitialEventsAnnotationKey): the state streamed so far is complete.
 */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/**
 * How the initial state is read. `stream`: a watch with sendInitialEvents (KEP-3157, on by
 * default from Kubernetes 1.34), which the apiserver serves from its watch cache without
 * building list pages, falling back to pages where the server refuses it; `pages`: paged
 * lists only.
 */
export type InitialSync = 'stream' | 'pages';

/**
 * Where the loop is. `forbidden`, `unauthorized` and `configError` (a kubeconfig, plugin,
 * certificate or CA to fix: the message says what) are final until start() is called again.
 */
export type ListWatchState =
  | { readonly phase: 'listing'; readonly streaming?: boolean }
  | { readonly phase: 'watching'; readonly resourceVersion: string }
  | { readonly phase: 'backoff'; readonly retryInMs: number; readonly error: string }
  | { readonly phase: 'forbidden'; readonly message: string }
  | { readonly phase: 'unauthorized'; readonly message: string }
  | { readonly phase: 'configError'; readonly message: string }
  | { readonly phase: 'stopped' };

/** What a list or watch returns: an object with at least its resourceVersion. */
export interface RawObject {
  metadata?: { resourceVersion?: string };
}

export interface ListWatchHandlers<T extends RawObject = RawEvent> {
  /** A watch event. */
  onEvent(type: WatchEventType, object: T): void;
  /**
   * Items of a list in order, as they arrive, a few at a time (a page comes in several
   * calls, each in its own turn of the event loop); `first` starts a new list.
   */
  onListPage(items: T[], first: boolean): void;
  /** Every page of the list was handed over: what was not in it is gone. The watch starts once it settles. */
  onListDone(): void | Promise<void>;
  onState?(state: ListWatchState): void;
}

/** A collection other than events: its path, its name for messages, the media type asked for. */
export interface WatchedResource {
  /** The collection's path, e.g. /api/v1/pods or /apis/apps/v1/namespaces/x/replicasets. */
  readonly path: string;
  /** Plural, for messages: "pods". */
  readonly what: string;
  /** Media types asked for, for a list and for a watch (a metadata-only list differs from its watch). */
  readonly listAccept?: string;
  readonly watchAccept?: string;
}

export interface ListWatchOptions {
  readonly api: EventApi;
  /** Another collection than the events of `api` (then `api` only names the event API in use). */
  readonly resource?: WatchedResource;
  /** One namespace, or undefined for all. */
  readonly namespace?: string;
  /** A server-side field selector, e.g. `type=Warning`. */
  readonly fieldSelector?: string;
  /** A server-side label selector, e.g. `app=web` (a workload's pods). */
  readonly labelSelector?: string;
  readonly pageSize?: number;
  /** `stream` (the default) or `pages`. */
  readonly initialSync?: InitialSync;
  /**
   * The encoding a watch of events asks for: `protobuf` (the default, as client-go's typed
   * clients: the apiserver encodes it for less CPU than JSON, and it is smaller) or `json`. The
   * answer's Content-Type decides what is read: a server or proxy may answer JSON. Lists, and
   * other collections than events, are read as JSON.
   */
  readonly watchEncoding?: WatchEncoding;
  /** Overrides for tests: the watch timeout (s), the watchdog's grace (ms) and the silence limit (ms). */
  readonly watchTimeoutSeconds?: number;
  readonly watchdogGraceMs?: number;
  readonly watchSilenceMs?: number;
  readonly random?: () => number;
}

class GoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoneError';
  }
}

/** The apiserver does not stream initial events (feature gate off, an older release, a proxy that drops the parameter). */
class StreamRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamRefusedError';
  }
}

/**
 * Answers that mean the server will not stream the initial state: 422 Invalid from the
 * ListOptions validation when the WatchList gate is off (1.27-1.33 by default), 400 from
 * servers and proxies that reject parameters they do not know.
 */
const STREAM_REFUSED_CODES = new Set([400, 422]);
/**
 * A user may list but not watch, or the other way round: a 403 on the stream falls back to the
 * paged list, which says which verb is missing (and shows what may be listed), as before streaming.
 */
const FORBIDDEN = 403;

export function resourcePath(api: EventApi, namespace?: string): string {
  const base = api === 'core/v1' ? '/api/v1' : '/apis/events.k8s.io/v1';
  return namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/events` : `${base}/events`;
}

function userOf(message: string): string | undefined {
  return /User "([^"]*)"/.exec(message)?.[1];
}

export class ListWatch<T extends RawObject = RawEvent> {
  private controller: AbortController | undefined;
  private running: Promise<void> | undefined;
  private stateNow: ListWatchState = { phase: 'stopped' };
  private resourceVersion: string | undefined;
  private failures = 0;
  private readonly random: () => number;
  /** Items handed over per turn of a list (adapts to LIST_TURN_MS). */
  private itemsPerTurn = LIST_TURN_ITEMS_START;
  /** Why the server would not stream the initial state; paged lists until start() again. */
  private refusedWhy: string | undefined;
  /** How the last complete initial state was read. */
  private lastSyncHow: 'streamed' | 'paged' | undefined;
  /** How the last watch's answer was encoded. */
  private lastEncoding: WatchEncoding | undefined;

  constructor(
    private readonly client: ApiClient,
    private readonly options: ListWatchOptions,
    private readonly handlers: ListWatchHandlers<T>,
  ) {
    this.random = options.random ?? Math.random;
  }

  get state(): ListWatchState {
    return this.stateNow;
  }

  /** The resourceVersion the next watch starts from (saved to resume after a restart). */
  get lastResourceVersion(): string | undefined {
    return this.resourceVersion;
  }

  /** How the last complete initial state was read: streamed from the watch cache, or paged. */
  get lastSync(): 'streamed' | 'paged' | undefined {
    return this.lastSyncHow;
  }

  /** How the last watch's answer was encoded (the apiserver's choice from what was asked for). */
  get lastWatchEncoding(): WatchEncoding | undefined {
    return this.lastEncoding;
  }

  /** Why the apiserver would not stream the initial state, when it would not. */
  get streamRefused(): string | undefined {
    return this.refusedWhy;
  }

  /** Starts (or restarts) the loop; with a resourceVersion it resumes a watch without listing first. */
  start(resume?: { resourceVersion: string }): void {
    if (this.running) return;
    this.resourceVersion = resume?.resourceVersion;
    this.failures = 0;
    this.refusedWhy = undefined;
    const controller = new AbortController();
    this.controller = controller;
    this.running = this.loop(controller.signal).finally(() => {
      if (this.controller === controller) {
        this.running = undefined;
        this.controller = undefined;
      }
    });
  }

  /** Stops the loop and closes its connection; resolves when nothing is left running. */
  async stop(): Promise<void> {
    const running = this.running;
    this.controller?.abort();
    await running;
    this.setState({ phase: 'stopped' });
  }

  private setState(state: ListWatchState): void {
    this.stateNow = state;
    this.handlers.onState?.(state);
  }

  private where(): string {
    return this.options.namespace ? `in namespace ${this.options.namespace}` : 'in any namespace';
  }

  /** The next initial state is to be streamed. */
  private get streams(): boolean {
    return (this.options.initialSync ?? 'stream') === 'stream' && this.refusedWhy === undefined;
  }

  private async loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        if (this.resourceVersion === undefined && this.streams) {
          // The initial state, then the watch on the same connection until it ends.
          await this.watch(signal, true);
          continue;
        }
        if (this.resourceVersion === undefined) await this.list(signal);
        // Stopped while listing (a handler may stop the loop): no watch may open after that.
        if (signal.aborted) return;
        await this.watch(signal);
      } catch (err) {
        if (signal.aborted) return;
        if (err instanceof StreamRefusedError) {
          this.refusedWhy = err.message;
          continue;
        }
        if (err instanceof GoneError) {
          // Too old to resume from: list again (a list without resourceVersion never answers 410).
          this.resourceVersion = undefined;
          continue;
        }
        if (err instanceof KubeconfigError) {
          this.setState({ phase: 'configError', message: err.message });
          return;
        }
        if (err instanceof StatusError && (err.code === 403 || err.code === 401)) {
          const user = userOf(err.message);
          const verb = this.resourceVersion === undefined && !this.streams ? 'list' : 'watch';
          const message = `Cannot ${verb} ${this.options.resource?.what ?? 'events'} ${this.where()}${user ? ` as user ${user}` : ''}: ${err.message}`;
          this.setState(err.code === 403 ? { phase: 'forbidden', message } : { phase: 'unauthorized', message: `The apiserver did not accept the credentials: ${err.message}` });
          return;
        }
        if (err instanceof StatusError && err.code === 410) {
          this.resourceVersion = undefined;
          continue;
        }
        await this.backoff(signal, err);
      }
    }
  }

  private async backoff(signal: AbortSignal, err: unknown): Promise<void> {
    const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_INITIAL_MS * 2 ** this.failures);
    this.failures++;
    // Jitter: half fixed, half random, so many clients do not reconnect in step.
    const delay = Math.round(ceiling / 2 + (ceiling / 2) * this.random());
    this.setState({ phase: 'backoff', retryInMs: delay, error: err instanceof Error ? err.message : String(err) });
    await sleep(delay, signal);
  }

  private query(params: Record<string, string | number | boolean | undefined>): string {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
    if (this.options.fieldSelector) q.set('fieldSelector', this.options.fieldSelector);
    if (this.options.labelSelector) q.set('labelSelector', this.options.labelSelector);
    return q.toString();
  }

  /** The collection this loop lists and watches. */
  private get collection(): string {
    return this.options.resource?.path ?? resourcePath(this.options.api, this.options.namespace);
  }

  private listPage(signal: AbortSignal, continueToken: string | undefined, onListMetadata: (m: ListMetadata) => void): Promise<ListText> {
    return this.client.list({
      path: `${this.collection}?${this.query({ limit: this.options.pageSize ?? LIST_PAGE_SIZE, continue: continueToken })}`,
      signal,
      accept: this.options.resource?.listAccept,
      onListMetadata,
    });
  }

  /**
   * A paged list: each page goes to the handler as it arrives, in order. The next page is
   * asked for as soon as a page's head has come (its continue token), while earlier pages
   * are still being read and processed, so the apiserver is never kept waiting for us; at
   * most LIST_READ_AHEAD pages wait beyond the one being handled. No page is held
   * past its handler: one kept across the wait for the next would outlive the young
   * generation's collections and be copied into the old one as garbage.
   */
  private async list(signal: AbortSignal): Promise<void> {
    this.setState({ phase: 'listing' });
    interface Pending {
      page: Promise<ListText>;
      /** The page after this one has been asked for (or there is none). */
      followed: boolean;
      /** Its continue token, once known, while the page after it waits for room. */
      token?: string;
      /** The page has come in whole. */
      arrived: boolean;
    }
    const queue: Pending[] = [];
    const follow = (p: Pending, token: string | undefined) => {
      if (p.followed) return;
      if (!token) {
        p.followed = true;
        return;
      }
      if (queue.length > LIST_READ_AHEAD) {
        p.token = token;
        return;
      }
      p.followed = true;
      ask(token);
    };
    const ask = (token: string | undefined) => {
      const pending = { followed: false, arrived: false } as Pending;
      pending.page = this.listPage(signal, token, (m) => follow(pending, m.continue || undefined));
      // Processing an earlier page may throw: a later page's failure must not go unhandled then.
      pending.page.then(() => (pending.arrived = true), () => undefined);
      queue.push(pending);
    };
    ask(undefined);
    /** A later page has been asked for and none of them is in yet. */
    const nextOnItsWay = () => queue.length > 0 && !queue.some((p) => p.arrived);
    let first = true;
    let resourceVersion = '';
    while (queue.length > 0) {
      const oldest = queue[0];
      const page = await oldest.page;
      queue.shift();
      resourceVersion = page.metadata.resourceVersion ?? '';
      // A page whose head was not read early is followed now; one that waited for room, too.
      follow(oldest, page.metadata.continue || undefined);
      for (const p of queue) if (p.token !== undefined && !p.followed) follow(p, p.token);
      if (signal.aborted) return;
      if (!(await this.handOver(page.items, first, signal, nextOnItsWay))) return;
      first = false;
    }
    await this.complete(signal, resourceVersion, 'paged');
  }

  /** The initial state is all handed over: onListDone, then the watch goes on from `resourceVersion`. Resolves false when stopped meanwhile. */
  private async complete(signal: AbortSignal, resourceVersion: string, how: 'streamed' | 'paged'): Promise<boolean> {
    await yieldToEventLoop();
    if (signal.aborted) return false;
    await this.handlers.onListDone();
    if (signal.aborted) return false;
    this.resourceVersion = resourceVersion;
    this.lastSyncHow = how;
    return true;
  }

  /**
   * Parses a page's items (their managed fields left out: nothing reads them) and hands them
   * to the handler in batches, one per turn of the event loop, each sized from the last one's
   * time to take about LIST_TURN_MS, with a pause of LIST_IDLE_PAUSE_MS before each while
   * `nextOnItsWay`. Resolves false when stopped meanwhile.
   */
  private async handOver(texts: PendingObject[], first: boolean, signal: AbortSignal, nextOnItsWay: () => boolean): Promise<boolean> {
    let i = 0;
    do {
      // Each batch in a turn of its own: one run straight from the page's I/O callback would be
      // followed by the next in the same turn (setImmediate runs right after I/O, before timers).
      if (nextOnItsWay()) await sleep(LIST_IDLE_PAUSE_MS, signal);
      else await yieldToEventLoop();
      if (signal.aborted) return false;
      const start = performance.now();
      const n = Math.min(this.itemsPerTurn, texts.length - i);
      const items = new Array<T>(n);
      for (let k = 0; k < n; k++) items[k] = decodeObject(texts[i + k]) as T;
      i += n;
      this.handlers.onListPage(items, first);
      first = false;
      const ms = performance.now() - start;
      // At most doubled or halved at a time: one turn slowed by a collection is no measure.
      const next = n === 0 ? this.itemsPerTurn : Math.round(n * Math.min(2, Math.max(0.5, LIST_TURN_MS / Math.max(ms, 0.01))));
      if (n === this.itemsPerTurn || next < this.itemsPerTurn) this.itemsPerTurn = Math.min(LIST_TURN_ITEMS_MAX, Math.max(LIST_TURN_ITEMS_MIN, next));
    } while (i < texts.length);
    return true;
  }

  /** Hands the initial events taken so far to the handler, as handOver does a page's. */
  private async handOverStream(sync: InitialStream<T>, signal: AbortSignal): Promise<boolean> {
    if (sync.texts.length === 0 && !(sync.done && sync.first)) return true;
    const texts = sync.texts;
    sync.texts = [];
    sync.count += texts.length;
    const first = sync.first;
    sync.first = false;
    return this.handOver(texts, first, signal, () => false);
  }

  /**
   * One watch connection, until the server closes it (resolves) or it fails (rejects). With
   * `initial`, it first streams the state the list would give (sendInitialEvents): ADDED
   * events handed to onListPage as a list's items, until the bookmark annotated
   * INITIAL_EVENTS_END_ANNOTATION, whose resourceVersion the state is complete at; then
   * onListDone, and the same connection goes on as the watch.
   */
  private async watch(signal: AbortSignal, initial = false): Promise<void> {
    const timeoutSeconds = this.options.watchTimeoutSeconds ?? Math.floor(WATCH_TIMEOUT_MIN_S + this.random() * (WATCH_TIMEOUT_MAX_S - WATCH_TIMEOUT_MIN_S));
    const grace = this.options.watchdogGraceMs ?? WATCHDOG_GRACE_MS;
    const silenceMs = Math.min(timeoutSeconds * 1000 + grace, this.options.watchSilenceMs ?? WATCH_SILENCE_MS);
    const connection = new AbortController();
    const stopConnection = () => connection.abort();
    // An 'abort' listener added to a signal already aborted is never called.
    if (signal.aborted) return;
    signal.addEventListener('abort', stopConnection, { once: true });
    let watchdog: NodeJS.Timeout | undefined;
    let silent = false;
    const kick = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        silent = true;
        connection.abort();
      }, silenceMs);
    };
    const started = Date.now();
    let received = 0;
    const sync = initial ? new InitialStream<T>() : undefined;
    try {
      kick();
      const params = sync
        ? { watch: 1, sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true, timeoutSeconds }
        : { watch: 1, resourceVersion: this.resourceVersion, allowWatchBookmarks: true, timeoutSeconds };
      const path = `${this.collection}?${this.query(params)}`;
      if (sync) this.setState({ phase: 'listing', streaming: true });
      let response;
      try {
        response = await this.client.open(path, connection.signal, undefined, this.watchAccept);
      } catch (err) {
        if (sync && err instanceof StatusError && (STREAM_REFUSED_CODES.has(err.code) || err.code === FORBIDDEN)) throw new StreamRefusedError(`${err.code} ${err.message}`);
        throw err;
      }
      const splitter = watchSplitter(response.contentType);
      // Known before the watch is announced, so whoever hears of it can read how it is encoded.
      this.lastEncoding = splitter.encoding;
      if (!sync) this.setState({ phase: 'watching', resourceVersion: this.resourceVersion ?? '' });
      try {
        for await (const chunk of response.body) {
          kick();
          for (const unit of splitter.push(chunk as Buffer)) {
            received++;
            if (sync && !sync.done) {
              const added = addedObject(unit);
              if (added !== undefined) {
                sync.texts.push(added);
                continue;
              }
              // What came before this event goes first, in the order it came.
              if (!(await this.handOverStream(sync, signal))) return;
              const end = sync.take(decodeItem<T>(unit));
              if (end === undefined) continue;
              // The state is complete: its end, then the same connection goes on as the watch from its resourceVersion.
              if (!(await this.handOverStream(sync, signal))) return;
              if (!(await this.complete(signal, end, 'streamed'))) return;
              this.failures = 0;
              this.setState({ phase: 'watching', resourceVersion: end });
              kick();
              continue;
            }
            this.handleLine(decodeItem<T>(unit));
          }
          if (sync && !sync.done && !(await this.handOverStream(sync, signal))) return;
        }
      } catch (err) {
        if (signal.aborted) return;
        if (silent) throw new Error(`the watch was silent for ${silenceMs / 1000} s: connection presumed dead`);
        throw err;
      }
      if (silent) throw new Error(`the watch was silent for ${silenceMs / 1000} s: connection presumed dead`);
      // Closed before the state was complete: what came is no list; the loop streams again.
      if (sync && !sync.done) throw new Error(`the apiserver closed the initial events after ${sync.count} of them, before their end`);
      if (received === 0 && Date.now() - started < MIN_HEALTHY_WATCH_MS && !signal.aborted) throw new Error('the watch closed at once with nothing in it');
      this.failures = 0;
    } finally {
      clearTimeout(watchdog);
      signal.removeEventListener('abort', stopConnection);
      connection.abort();
    }
  }

  /** What a watch asks for: the collection's own media type, else protobuf or JSON for events. */
  private get watchAccept(): string | undefined {
    if (this.options.resource) return this.options.resource.watchAccept;
    return (this.options.watchEncoding ?? 'protobuf') === 'protobuf' ? PROTOBUF_WATCH_ACCEPT : undefined;
  }

  private handleLine(line: WatchLine<T>): void {
    const rv = line.object?.metadata?.resourceVersion;
    switch (line.type) {
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED':
        this.handlers.onEvent(line.type, line.object);
        if (rv) this.resourceVersion = rv;
        this.failures = 0;
        return;
      case 'BOOKMARK':
        if (rv) this.resourceVersion = rv;
        return;
      case 'ERROR':
        if (line.object?.code === 410) throw new GoneError(line.object.message ?? 'resourceVersion too old');
        throw new StatusError(line.object?.code ?? 500, line.object?.reason ?? '', line.object?.message ?? 'watch error');
      default:
        throw new Error(`unexpected watch event type ${line.type}`);
    }
  }
}

/** The initial events of a watch-list so far: the ADDED objects' texts not yet handed over, until the bookmark that ends them. */
class InitialStream<T extends RawObject> {
  /** ADDED objects not yet handed over, undecoded. */
  texts: PendingObject[] = [];
  /** The next hand-over starts the list. */
  first = true;
  /** Items handed over so far. */
  count = 0;
  /** The end bookmark has come. */
  done = false;

  /**
   * Takes a line other than an ADDED one; returns the resourceVersion the state is complete at
   * when it is the end bookmark. Anything else but an ADDED event before it means the server
   * ignored sendInitialEvents (a plain watch never sends that bookmark): a StreamRefusedError.
   */
  take(decoded: WatchLine<T>): string | undefined {
    const line = decoded as WatchLine<T & { metadata?: { annotations?: Record<string, string> } }>;
    if (line.type === 'ADDED') {
      this.texts.push(JSON.stringify(line.object));
      return undefined;
    }
    if (line.type === 'BOOKMARK' && line.object?.metadata?.annotations?.[INITIAL_EVENTS_END_ANNOTATION] === 'true') {
      this.done = true;
      return line.object.metadata.resourceVersion ?? '';
    }
    if (line.type === 'ERROR') {
      if (line.object?.code === 410) throw new GoneError(line.object.message ?? 'resourceVersion too old');
      throw new StatusError(line.object?.code ?? 500, line.object?.reason ?? '', line.object?.message ?? 'watch error');
    }
    throw new StreamRefusedError(`a ${line.type} event came before the end of the initial events: the server (or a proxy) ignored sendInitialEvents`);
  }
}
