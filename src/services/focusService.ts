// Views the apiserver can narrow for us: warnings only (type=Warning) and one object
// (involvedObject.uid=...). The main store holds the newest events up to its cap, so in a
// big cluster it may have dropped older warnings or an object's older events; for these
// filters a second, focused list+watch with the field selector fills a store of its own,
// which the view shows until the filter changes. That store starts with what the main one
// holds and matches (model/focusSeed.ts), so the view is ready before the list is in.
// Events recorded in this window are copied in too (not on the server unless the sink
// wrote them).
import { EventObserver } from '../cluster/eventObserver';
import { Emitter } from '../common/emitter';
import { Disposable, toDisposable } from '../common/lifecycle';
import { EventStore } from '../model/eventStore';
import { matchesFilter, serverSelector, type EventFilter } from '../model/filters';
import { seedFocus } from '../model/focusSeed';
import type { ConnectionService } from './connectionService';
import { statusOfWatches, type ConnectionStatus } from './connectionStatus';
import type { ShownEvents } from './shownEvents';

/** A focused store holds at least this many events: it is meant to hold all the server has. */
export const FOCUS_MIN_CAP = 200_000;

interface Focus {
  readonly selector: string;
  readonly identity: string;
  readonly store: EventStore;
  readonly observer: EventObserver;
  readonly subscriptions: { dispose(): void }[];
}

export class FocusService extends Disposable {
  private focus: Focus | undefined;
  private filter: EventFilter = {};
  private readonly changed = this._register(new Emitter());
  readonly onDidChange = this.changed.event;
  /** Serialises focus changes. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly main: EventStore,
    private readonly shown: ShownEvents,
    private readonly connection: ConnectionService,
    /** The storeCap setting, read when a focused list starts. */
    private readonly storeCap: () => number,
  ) {
    super();
    this._register(connection.onDidChangeStatus(() => void this.apply()));
    this._register(toDisposable(() => void this.stop()));
  }

  /** The server-side selector in use, or undefined. */
  get selector(): string | undefined {
    return this.focus?.selector;
  }

  /** The focused list+watch's own state (loading until its first list is in). */
  get status(): ConnectionStatus | undefined {
    return this.focus && statusOfWatches(this.connection.context, this.focus.observer.state);
  }

  get store(): EventStore | undefined {
    return this.focus?.store;
  }

  /** The view's filter changed: focus on it when the apiserver can narrow it, else show the main store. */
  setFilter(filter: EventFilter): Promise<void> {
    this.filter = filter;
    return this.apply();
  }

  private apply(): Promise<void> {
    this.queue = this.queue.then(() => this.reconcile());
    return this.queue;
  }

  private async reconcile(): Promise<void> {
    const selector = serverSelector(this.filter);
    const identity = this.connection.connection.identity;
    const context = this.connection.context;
    const wanted = selector !== undefined && identity !== undefined && context !== undefined && !this.isDisposed ? `${identity}|${context}` : undefined;
    if (this.focus && (this.focus.selector !== selector || this.focus.identity !== wanted)) await this.stop();
    if (wanted && selector && !this.focus) {
      const store = new EventStore({ maxEvents: Math.max(this.storeCap(), FOCUS_MIN_CAP) });
      const observer = new EventObserver(this.connection.newClient(), store, { namespaces: this.connection.request.namespaces ?? [], fieldSelector: selector });
      const subscriptions = [
        observer.onDidChangeState(() => this.fire()),
        // What was recorded here and fits the filter shows in the focused view too.
        this.main.onDidChange((c) => {
          store.batch(() => {
            for (const key of c.all ? [] : c.groups) for (const e of this.main.group(key)?.events ?? []) if (e.origin === 'local' && matchesFilter(e, this.filter)) store.upsert(e);
          });
        }),
      ];
      this.focus = { selector, identity: wanted, store, observer, subscriptions };
      // Ready at once with what is already here; the list (started after, so it is the
      // authority on what still exists) adds the rest.
      await seedFocus(this.main, store, this.filter, () => this.focus?.store !== store);
      if (this.focus?.store !== store) return;
      observer.start();
      await this.shown.setSource(store);
      this.fire();
    } else if (!this.focus) {
      await this.shown.setSource(this.main);
    }
  }

  private async stop(): Promise<void> {
    const f = this.focus;
    this.focus = undefined;
    if (!f) return;
    for (const d of f.subscriptions) d.dispose();
    await f.observer.stop();
    await this.shown.setSource(this.main);
    this.fire();
  }

  private fire(): void {
    this.changed.fire();
  }
}
