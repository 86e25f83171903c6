// What the webview is sent: all lanes once, then only the lanes a store change touched, the
// lanes that went, and the order when it moved. Plain Node: the panel posts what this makes.
import { sortTime, type ClusterEvent, type InvolvedObject } from '../../model/clusterEvent';
import { oneLine } from '../../model/displayText';
import { describeFilter, NO_FILTER, type EventFilter } from '../../model/filters';
import { ALL_OBJECTS, objectLabel, type Lane, type LaneProvider, type LaneScope } from './lanes';
import { MARK_HISTORY, MARK_WARNING, type HostMessage, type LaneData, type ResetMessage, type TimelineHeader } from './protocol';
import type { TimelineSource } from './timelineSource';

/** The apiserver's default event TTL: a live event's last occurrence can be this much older than the history window. */
const EVENT_TTL_MS = 60 * 60 * 1000;

export interface FeedClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** How long history is kept (the historyWindowHours setting). */
  historyWindowMs(): number;
}

/** Everything that decides a lane's look apart from its events. */
function signature(lane: Lane): string {
  return JSON.stringify([lane.label, lane.description, lane.depth, lane.groupKeys]);
}

export class TimelineFeed {
  private filterNow: EventFilter = NO_FILTER;
  private scopeNow: LaneScope = ALL_OBJECTS;
  /** Lane id → signature of what was last sent. */
  private readonly sent = new Map<string, string>();
  /** Lane id → events it holds that have no time. */
  private readonly untimed = new Map<string, number>();
  private order = '';
  /** Lane id → the object of each lane last made. */
  private objects = new Map<string, InvolvedObject>();

  constructor(
    private readonly source: TimelineSource,
    private readonly provider: LaneProvider,
    private readonly clock: FeedClock,
  ) {}

  get filter(): EventFilter {
    return this.filterNow;
  }

  get scope(): LaneScope {
    return this.scopeNow;
  }

  /** A new filter or scope: the next message must be a reset. */
  configure(filter: EventFilter, scope: LaneScope): void {
    this.filterNow = filter;
    this.scopeNow = scope;
  }

  /** Every lane, from scratch. */
  reset(): ResetMessage {
    this.sent.clear();
    this.untimed.clear();
    const lanes = this.provider.lanes(this.source, this.filterNow, this.scopeNow);
    const data = lanes.map((l) => this.laneData(l));
    this.objects = new Map(lanes.map((l) => [l.id, l.object]));
    this.order = lanes.map((l) => l.id).join('\n');
    const now = this.clock.now();
    return { type: 'reset', now, oldest: now - this.clock.historyWindowMs() - EVENT_TTL_MS, header: this.header(), lanes: data };
  }

  /** The lanes the changed groups touched (and lanes that came, went or moved); undefined when nothing did. */
  update(changed: ReadonlySet<string>): HostMessage | undefined {
    const lanes = this.provider.lanes(this.source, this.filterNow, this.scopeNow);
    const present = new Set<string>();
    const data: LaneData[] = [];
    for (const lane of lanes) {
      present.add(lane.id);
      if (this.sent.get(lane.id) !== signature(lane) || lane.groupKeys.some((k) => changed.has(k))) data.push(this.laneData(lane));
    }
    const removed = [...this.sent.keys()].filter((id) => !present.has(id));
    for (const id of removed) {
      this.sent.delete(id);
      this.untimed.delete(id);
    }
    this.objects = new Map(lanes.map((l) => [l.id, l.object]));
    const order = lanes.map((l) => l.id).join('\n');
    const moved = order !== this.order;
    this.order = order;
    if (data.length === 0 && removed.length === 0 && !moved) return undefined;
    return { type: 'update', now: this.clock.now(), header: this.header(), lanes: data, removed, ...(moved ? { order: lanes.map((l) => l.id) } : {}) };
  }

  /** The object of a lane the page was sent (its context menu names the lane by id). */
  objectOf(laneId: string): InvolvedObject | undefined {
    return this.objects.get(laneId);
  }

  private header(): TimelineHeader {
    let untimed = 0;
    for (const n of this.untimed.values()) untimed += n;
    const s = this.scopeNow;
    const scope = s.kind === 'all' ? 'All objects' : `${objectLabel(s.object)}${s.object.namespace ? ` in ${oneLine(s.object.namespace)}` : ''}`;
    return { scope, filter: describeFilter(this.filterNow), untimed };
  }

  private laneData(lane: Lane): LaneData {
    this.sent.set(lane.id, signature(lane));
    const events: ClusterEvent[] = [];
    const seen = new Set<string>();
    let untimed = 0;
    for (const key of lane.groupKeys) {
      for (const e of this.source.group(key, this.filterNow)?.events ?? []) {
        if (seen.has(e.uid)) continue;
        seen.add(e.uid);
        if (sortTime(e) > 0) events.push(e);
        else untimed++;
      }
    }
    this.untimed.set(lane.id, untimed);
    // Groups hand events newest first; marks go oldest first (the webview searches them by time).
    events.sort((a, b) => sortTime(a) - sortTime(b));
    const n = events.length;
    const uids = new Array<string>(n);
    const first = new Array<number>(n);
    const last = new Array<number>(n);
    const counts = new Array<number>(n);
    const flags = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const e = events[i];
      const t = sortTime(e);
      uids[i] = e.uid;
      last[i] = t;
      first[i] = Math.min(e.firstSeen ?? t, t);
      counts[i] = Math.max(1, Math.floor(e.count) || 1);
      flags[i] = (e.type === 'Warning' ? MARK_WARNING : 0) | (e.expiredAt !== undefined ? MARK_HISTORY : 0);
    }
    return { id: lane.id, label: lane.label, description: lane.description, depth: lane.depth, uids, first, last, counts, flags };
  }
}
