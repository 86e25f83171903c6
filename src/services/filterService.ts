// The filter the view shows: one owner, its context keys, and a change event for whatever
// describes it (the title, the status bar). Filters the apiserver can narrow are also
// watched with a field selector (FocusService).
import { ContextKeys } from '../common/contextKeys';
import { Emitter } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import { isFilterActive, isWarningsOnly, NO_FILTER, type EventFilter } from '../model/filters';
import type { ContextKeySetter } from '../common/contextKeys';
import type { FocusService } from './focusService';
import type { ShownEvents } from './shownEvents';

export class FilterService extends Disposable {
  private current: EventFilter = NO_FILTER;
  private readonly changed = this._register(new Emitter<EventFilter>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly shown: ShownEvents,
    private readonly focus: FocusService,
    private readonly keys: ContextKeySetter,
  ) {
    super();
    this.publish(NO_FILTER);
  }

  get filter(): EventFilter {
    return this.current;
  }

  /** Resolves when the view shows the filtered events (a view is built in slices). */
  set(filter: EventFilter): Promise<void> {
    this.current = filter;
    const shown = Promise.all([this.shown.setFilter(filter), this.focus.setFilter(filter)]).then(() => undefined);
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
