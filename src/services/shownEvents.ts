// What the Events view shows: one of the store's live views (over the main store, or a
// focused one: FocusService), through the view's filter and in its order, and a pause that
// holds the groups as they were while the store keeps filling. The tree, the status rows,
// export and navigation read it; it tells each change once. A new filter, order or source
// shows nothing until its view is built: the rows go from what they were (paused or not)
// to the new view in one step, never through the old view's live rows.
import { Emitter } from '../common/emitter';
import { Disposable, toDisposable, type IDisposable } from '../common/lifecycle';
import type { ClusterEvent } from '../model/clusterEvent';
import type { EventGroup, EventStore, LiveView, ViewChange } from '../model/eventStore';
import { NO_FILTER, type EventFilter } from '../model/filters';
import type { SortOrder } from '../model/groupOrder';
import { PauseSnapshot } from './pauseSnapshot';

export type ShownChange =
  /** Groups changed in the view shown. */
  | { readonly kind: 'groups'; readonly change: ViewChange }
  /** A change the pause holds back (heldBackChanges counts them). */
  | { readonly kind: 'held' }
  /** Another view is shown (a filter, an order, the pause ended): any row may differ. */
  | { readonly kind: 'rebuilt' }
  /** Another source, or the store was cleared: nothing shown before is kept. */
  | { readonly kind: 'reset' };

export class ShownEvents extends Disposable {
  private sourceNow: EventStore;
  private filterNow: EventFilter = NO_FILTER;
  private view: LiveView;
  private viewSubscription: IDisposable;
  private sourceSubscription: IDisposable;
  /** The view being built for a new filter, order or source, and that source. */
  private nextView: LiveView | undefined;
  private nextSource: EventStore | undefined;
  private snapshot: PauseSnapshot | undefined;
  /** The pause the view being built ends when it is shown (a pause taken meanwhile holds on). */
  private endingPause: PauseSnapshot | undefined;
  private readonly changed = this._register(new Emitter<ShownChange>());
  readonly onDidChange = this.changed.event;
  private readonly pauseChanged = this._register(new Emitter<boolean>());
  /** Fires when the view is paused or resumed. */
  readonly onDidChangePause = this.pauseChanged.event;

  constructor(
    main: EventStore,
    private order: SortOrder,
  ) {
    super();
    this.sourceNow = main;
    this.sourceSubscription = this.watchSource(main);
    this.view = main.liveView(NO_FILTER, order);
    this.viewSubscription = this.view.onDidChange((c) => this.viewChanged(c));
    this._register(toDisposable(() => {
      this.sourceSubscription.dispose();
      this.viewSubscription.dispose();
      this.view.dispose();
      this.nextView?.dispose();
    }));
  }

  /** The store the rows come from: the main one, or a focused one (another once its view is shown). */
  get source(): EventStore {
    return this.sourceNow;
  }

  get filter(): EventFilter {
    return this.filterNow;
  }

  get sortOrder(): SortOrder {
    return this.order;
  }

  /** The view for the current filter and order is built and shown. */
  get filterApplied(): boolean {
    return this.nextView === undefined;
  }

  get paused(): boolean {
    return this.snapshot !== undefined;
  }

  /** Store changes not shown because of a pause. */
  get heldBackChanges(): number {
    return this.snapshot?.heldBack ?? 0;
  }

  /** Shows another store (a focused one, or back to the main one); resolves once it is shown. */
  setSource(store: EventStore): Promise<void> {
    if (store === (this.nextSource ?? this.sourceNow)) return Promise.resolve();
    return this.useView(store);
  }

  /** Resolves when the view through the new filter is shown. */
  setFilter(filter: EventFilter): Promise<void> {
    this.filterNow = filter;
    return this.useView();
  }

  setSortOrder(order: SortOrder): Promise<void> {
    if (order === this.order) return Promise.resolve();
    this.order = order;
    return this.useView();
  }

  /**
   * Holds the groups where they are (the store keeps filling); resume shows what changed.
   * `listed`: the groups whose events are on screen, which keep their events as they are.
   */
  pause(listed: (key: string) => boolean): void {
    if (this.snapshot) this.snapshot.heldBack = 0;
    else this.snapshot = new PauseSnapshot(this.view, listed);
    this.pauseChanged.fire(true);
  }

  resume(): void {
    if (!this.snapshot) return;
    this.snapshot = undefined;
    this.changed.fire({ kind: 'rebuilt' });
    this.pauseChanged.fire(false);
  }

  /** The groups shown, in the view's order (a pause keeps the order it had). */
  groups(): readonly EventGroup[] {
    return this.snapshot?.groups ?? this.view.groups();
  }

  /** How many objects are shown, without listing them. */
  get groupCount(): number {
    return this.snapshot?.groups.length ?? this.view.groupCount;
  }

  /** One group as the rows show it: as it was when paused, else as it is. */
  group(key: string): EventGroup | undefined {
    return this.snapshot?.group(key) ?? this.view.group(key);
  }

  /** One group as it is now, through the filter (a pause aside). */
  liveGroup(key: string): EventGroup | undefined {
    return this.view.group(key);
  }

  /** An event as the rows show it. */
  event(uid: string): ClusterEvent | undefined {
    return this.snapshot?.event(uid) ?? this.sourceNow.get(uid);
  }

  private watchSource(store: EventStore): IDisposable {
    // A cleared store (a context switch) leaves nothing of the old cluster behind.
    return store.onDidChange((c) => {
      if (!c.all) return;
      const paused = this.snapshot !== undefined;
      this.snapshot = undefined;
      this.changed.fire({ kind: 'reset' });
      if (paused) this.pauseChanged.fire(false);
    });
  }

  private viewChanged(change: ViewChange): void {
    if (this.snapshot) {
      this.snapshot.heldBack += change.all ? 1 : change.groups.size;
      this.changed.fire({ kind: 'held' });
    } else this.changed.fire({ kind: 'groups', change });
  }

  /** A view for the source, filter and order asked for, built in slices; shown once ready, with its source, ending the pause. */
  private useView(source: EventStore = this.nextSource ?? this.sourceNow): Promise<void> {
    this.nextView?.dispose();
    const next = source.liveView(this.filterNow, this.order);
    this.nextView = next;
    this.nextSource = source;
    this.endingPause ??= this.snapshot;
    return next.ready.then(() => {
      if (this.nextView !== next) return;
      this.nextView = undefined;
      this.nextSource = undefined;
      const newSource = source !== this.sourceNow;
      if (newSource) {
        this.sourceSubscription.dispose();
        this.sourceNow = source;
        this.sourceSubscription = this.watchSource(source);
      }
      this.viewSubscription.dispose();
      this.view.dispose();
      this.view = next;
      this.viewSubscription = next.onDidChange((c) => this.viewChanged(c));
      const ended = this.snapshot !== undefined && (newSource || this.snapshot === this.endingPause);
      this.endingPause = undefined;
      if (ended) this.snapshot = undefined;
      if (newSource) this.changed.fire({ kind: 'reset' });
      this.changed.fire({ kind: 'rebuilt' });
      if (ended) this.pauseChanged.fire(false);
    });
  }
}
