// Lanes: which rows the timeline draws and which events each one holds. The timeline asks a
// LaneProvider and draws what it gets; it knows nothing of objects, owners or workloads.
// Today's provider gives one lane per involved object. A workload roll-up provider (Pods
// under ReplicaSets under Deployments) fits the same interface: a Deployment lane lists
// its own group key and those of its ReplicaSets and Pods, its children follow it one
// level deeper, and it fires onDidChangeLanes when an owner is resolved later.
import type { IDisposable } from '../../common/lifecycle';
import type { InvolvedObject } from '../../model/clusterEvent';
import { oneLine } from '../../model/displayText';
import type { EventFilter } from '../../model/filters';
import type { TimelineSource } from './timelineSource';

/** What the panel was opened on: every object, or one object (and, for a roll-up, what it owns). */
export type LaneScope = { readonly kind: 'all' } | { readonly kind: 'object'; readonly key: string; readonly object: InvolvedObject };

export const ALL_OBJECTS: LaneScope = { kind: 'all' };

export interface Lane {
  /** Stable while the lane exists: the timeline keeps a lane's place and its cursor by it. */
  readonly id: string;
  /** Shown at the lane's start, drawn as text (never markup). */
  readonly label: string;
  /** Shown after the label, dimmer: the namespace, a replica count. */
  readonly description: string;
  /** 0 for a top lane; child lanes follow their parent, one level deeper. */
  readonly depth: number;
  /**
   * The store groups (object keys) whose events the lane draws: its object's for an object
   * lane; the workload's own and every descendant's for a roll-up lane. A store change to
   * any of them redraws the lane. A key may sit in several lanes (a parent and its child).
   */
  readonly groupKeys: readonly string[];
  /** The object the lane is about (Diagnose in its context menu opens it). */
  readonly object: InvolvedObject;
}

export interface LaneProvider {
  /** Lanes top to bottom for the events passing the filter, within the scope; none without events. */
  lanes(source: TimelineSource, filter: EventFilter, scope: LaneScope): readonly Lane[];
  /** Fires when lanes change while no event did (an owner found later); providers without such knowledge leave it out. */
  readonly onDidChangeLanes?: (listener: () => void) => IDisposable;
}

/** "Kind/name", as the Events view labels an object. */
export function objectLabel(o: InvolvedObject): string {
  return oneLine(`${o.kind || '(unknown kind)'}/${o.name}`);
}

/** One lane per involved object, in the Events view's default order (newest event first). */
export class ObjectLanes implements LaneProvider {
  lanes(source: TimelineSource, filter: EventFilter, scope: LaneScope): readonly Lane[] {
    if (scope.kind === 'object') {
      const g = source.group(scope.key, filter);
      return g ? [this.lane(g.key, g.object)] : [];
    }
    return source.groups(filter).map((g) => this.lane(g.key, g.object));
  }

  private lane(key: string, o: InvolvedObject): Lane {
    return { id: key, label: objectLabel(o), description: oneLine(o.namespace), depth: 0, groupKeys: [key], object: o };
  }
}

/** The lanes of the view's grouping: workload lanes while the Events view rolls up, object lanes otherwise. */
export class ViewLanes implements LaneProvider {
  constructor(
    private readonly rolledUp: () => boolean,
    private readonly byObject: LaneProvider,
    private readonly byWorkload: LaneProvider,
    /** The view's grouping changed. */
    private readonly onDidChangeGrouping: (listener: () => void) => IDisposable,
  ) {}

  lanes(source: TimelineSource, filter: EventFilter, scope: LaneScope): readonly Lane[] {
    return (this.rolledUp() ? this.byWorkload : this.byObject).lanes(source, filter, scope);
  }

  readonly onDidChangeLanes = (listener: () => void): IDisposable => {
    const grouping = this.onDidChangeGrouping(listener);
    // Owners found later change the lanes only while they are rolled up.
    const owners = this.byWorkload.onDidChangeLanes?.(() => this.rolledUp() && listener());
    return { dispose: () => (grouping.dispose(), owners?.dispose()) };
  };
}
