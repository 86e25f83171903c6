// The filter the view shows: one owner, its context keys, and a change event for whatever
// describes it (the title, the status bar).
import { ContextKeys } from '../common/contextKeys';
import { Emitter } from '../common/emitter';
import { isFilterActive, NO_FILTER, type EventFilter } from '../model/filters';
import type { EventsTreeProvider } from '../views/tree/eventsTreeProvider';
import type { ContextKeyService } from './contextKeyService';

export function isWarningsOnly(f: EventFilter): boolean {
  return f.types?.length === 1 && f.types[0] === 'Warning';
}

export class FilterService {
  private readonly changed = new Emitter<EventFilter>();
  readonly onDidChange = this.changed.event;

  /** Filters the apiserver can narrow are also watched with a field selector (FocusService). */
  focus: { setFilter(f: EventFilter): Promise<void> } | undefined;

  constructor(
    private readonly tree: EventsTreeProvider,
    private readonly keys: ContextKeyService,
  ) {
    this.publish(NO_FILTER);
  }

  get filter(): EventFilter {
    return this.tree.filter;
  }

  /** Resolves when the view shows the filtered events (a view is built in slices). */
  set(filter: EventFilter): Promise<void> {
    const shown = Promise.all([this.tree.setFilter(filter), this.focus?.setFilter(filter)]).then(() => undefined);
    this.publish(filter);
    this.changed.fire(filter);
    return shown;
  }

  clear(): Promise<void> {
    return this.set(NO_FILTER);
  }

  private publish(filter: EventFilter): void {
    this.keys.set(ContextKeys.warningsOnly, isWarningsOnly(filter));
    this.keys.set(ContextKeys.filtered, isFilterActive(filter));
  }
}
