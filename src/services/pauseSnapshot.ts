// The Events view held still: each group as it was when the view was paused (its count,
// warnings and newest event) and, for a group whose events were listed (expanded, or asked
// for by VS Code), those events too, so a paused row and what is open under it stay as
// they were while the store keeps filling. A group first opened during the pause shows its
// events as they are now.
import type { ClusterEvent } from '../model/clusterEvent';
import type { EventGroup, LiveView } from '../model/eventStore';

export class FrozenGroup implements EventGroup {
  readonly key: string;
  readonly object: EventGroup['object'];
  readonly count: number;
  readonly lastSeen: number;
  readonly warnings: number;
  private readonly first: ClusterEvent | undefined;
  private readonly list: readonly ClusterEvent[] | undefined;

  /** `listed`: keep its events (each also put in `events`, by uid). `live`: the group now, for one not listed. */
  constructor(
    g: EventGroup,
    listed: boolean,
    events: Map<string, ClusterEvent>,
    private readonly live: () => EventGroup | undefined,
  ) {
    this.key = g.key;
    this.object = g.object;
    this.count = g.count;
    this.lastSeen = g.lastSeen;
    this.warnings = g.warnings;
    this.first = g.newest(1)[0];
    if (listed) {
      this.list = [...g.events];
      for (const e of this.list) events.set(e.uid, e);
    }
  }

  get events(): readonly ClusterEvent[] {
    return this.list ?? this.live()?.events ?? [];
  }

  newest(limit: number): readonly ClusterEvent[] {
    if (this.list) return this.list.slice(0, limit);
    if (limit === 1 && this.first) return [this.first];
    return this.live()?.newest(limit) ?? [];
  }
}

export class PauseSnapshot {
  /** The groups in the order they had. */
  readonly groups: readonly FrozenGroup[];
  private readonly byKey: Map<string, FrozenGroup>;
  /** The events of the listed groups, by uid. */
  private readonly events = new Map<string, ClusterEvent>();
  /** Store changes held back since the pause. */
  heldBack = 0;

  constructor(view: LiveView, listed: (key: string) => boolean) {
    this.groups = view.groups().map((g) => new FrozenGroup(g, listed(g.key), this.events, () => view.group(g.key)));
    this.byKey = new Map(this.groups.map((g) => [g.key, g]));
  }

  group(key: string): FrozenGroup | undefined {
    return this.byKey.get(key);
  }

  event(uid: string): ClusterEvent | undefined {
    return this.events.get(uid);
  }
}
