// Taking the user to events: an object's events (the view narrowed to that object, which
// the apiserver answers with a field selector, so everything the cluster has about it
// shows, even what the store's cap dropped), or one event (a pause or a filter that hides
// it is lifted). The rows are revealed through the view's RowReveal.
import { until } from '../common/until';
import type { InvolvedObject } from '../model/clusterEvent';
import type { EventStore } from '../model/eventStore';
import { isObject, NO_FILTER, type ObjectRef } from '../model/filters';
import type { FilterService } from './filterService';
import type { FocusService } from './focusService';
import type { ShownEvents } from './shownEvents';

/** How long Show Events waits for the apiserver's answer about the object. */
export const FOCUS_WAIT_MS = 10_000;

/** What the Events view does for navigation (views/tree/treeReveal.ts). */
export interface RowReveal {
  /** Reveals, selects and expands an object's row; resolves once it is shown or `deadline` (epoch ms) passed. */
  revealObject(key: string, object: InvolvedObject, deadline: number): Promise<void>;
  /** Reveals and selects an event's row; false when the view does not show it. */
  revealEvent(uid: string): Promise<boolean>;
}

export type ShowResult = { readonly shown: true; readonly key: string; readonly object: InvolvedObject } | { readonly shown: false; readonly text: string };

export class NavigationService {
  constructor(
    private readonly connection: { readonly context: string | undefined },
    private readonly store: EventStore,
    private readonly shown: ShownEvents,
    private readonly filters: FilterService,
    private readonly focus: FocusService,
    private readonly rows: RowReveal,
  ) {}

  /**
   * Shows the object's events and nothing else, then reveals and selects its row; when the
   * cluster has none, a sentence saying so (the view offers Clear Filters).
   */
  async showEvents(q: ObjectRef): Promise<ShowResult> {
    const known = this.store.view(NO_FILTER).find((g) => isObject(g.object, q));
    // The uid the store knows makes the server's selector exact.
    const owned = q.owned?.length ? { owned: q.owned } : {};
    const object: ObjectRef = { kind: q.kind, name: q.name, namespace: q.namespace, uid: q.uid || known?.object.uid || undefined, ...owned };
    await this.filters.set({ object });
    const deadline = Date.now() + FOCUS_WAIT_MS;
    const ownedSet = new Set(q.owned);
    const find = () => this.shown.groups().find((g) => isObject(g.object, object)) ?? this.shown.groups().find((g) => ownedSet.has(g.object.uid));
    // Shown as soon as the view has it; the answer is "none" once the object's list is in.
    const group = await until(
      [this.shown.onDidChange, this.focus.onDidChange],
      () => find() ?? (this.focus.status?.phase === 'loading' ? undefined : null),
      deadline - Date.now(),
    ) ?? find();
    if (!group) {
      const where = `${q.kind}/${q.name}${q.namespace ? ` in ${q.namespace}` : ''}`;
      return { shown: false, text: `No events about ${where} in ${this.connection.context ?? 'this cluster'} (events expire after an hour by default). Clear Filters shows every object again.` };
    }
    await this.rows.revealObject(group.key, group.object, deadline);
    return { shown: true, key: group.key, object: group.object };
  }

  /** Reveals and selects one event (lifting a pause or a filter that hides it); false when it is not in the store. */
  async revealEvent(uid: string): Promise<boolean> {
    if (!this.store.get(uid)) return false;
    this.shown.resume();
    if (await this.rows.revealEvent(uid)) return true;
    await this.filters.clear();
    return this.rows.revealEvent(uid);
  }
}
