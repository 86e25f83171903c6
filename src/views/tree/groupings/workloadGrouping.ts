// Objects under their workload: Pods under ReplicaSets under Deployments, Pods under Jobs
// under CronJobs, with counts and warnings summed per level. The roll-up of what the view
// shows is kept current with the groups that changed; a new one over a large store is built
// in slices and its rows come when it is done. A pause holds the rows as they were; resume
// builds the roll-up again.
import type { GroupBy } from '../../../services/settingsValidation';
import { Emitter } from '../../../common/emitter';
import type { IDisposable } from '../../../common/lifecycle';
import type { OwnerIndex } from '../../../model/ownerIndex';
import { RollupBuild, type Rollup, type RollupNode } from '../../../model/rollup';
import type { ShownChange, ShownEvents } from '../../../services/shownEvents';
import { isObjectRow, type Grouping, type ObjectRow, type Row, type RowCache } from './grouping';

/** What the roll-up reads owners from (OwnerService). */
export interface OwnerSource {
  readonly index: OwnerIndex;
  onDidChange(listener: () => void): IDisposable;
}

export class WorkloadGrouping implements Grouping {
  readonly by: GroupBy = 'workload';
  private built: Rollup | undefined;
  private build: RollupBuild | undefined;
  /** Groups changed since the roll-up last took changes in. */
  private readonly changes = new Set<string>();
  private ownersSeen = -1;
  /** Keys of rows that moved or left since the last prune; undefined: any may have (built afresh). */
  private moved: Set<string> | undefined = new Set();
  private readonly changed = new Emitter();
  readonly onDidChange = this.changed.event;
  private readonly ownerSubscription: IDisposable;

  constructor(
    private readonly shown: ShownEvents,
    private readonly owners: OwnerSource,
  ) {
    this.ownerSubscription = owners.onDidChange(() => this.changed.fire());
  }

  get building(): boolean {
    return this.build !== undefined;
  }

  roots(): readonly Row[] {
    return this.current()?.roots ?? [];
  }

  children(row: Row): readonly ObjectRow[] {
    return isObjectRow(row) ? (this.current()?.node(row.key)?.children ?? []) : [];
  }

  parentOf(row: ObjectRow): Row | undefined {
    return this.current()?.node(row.key)?.parent;
  }

  /** Sums change with any group beneath: the whole tree is drawn again. */
  take(change: ShownChange): boolean {
    if (change.kind === 'held') return false;
    if (change.kind === 'groups' && !change.change.all) for (const key of change.change.groups) this.changes.add(key);
    else this.drop();
    return true;
  }

  prune(rows: RowCache): void {
    this.update();
    // Still building: its end draws everything again.
    if (!this.built) return;
    const moved = this.moved;
    this.moved = new Set();
    for (const key of moved ?? [...rows.objectKeys()]) {
      const r = this.built.node(key);
      if (!r) rows.dropObject(key, true);
      else if (r.parent?.key !== rows.parentKeyOf(key)) rows.dropObject(key, false);
    }
  }

  rollup(key: string): RollupNode | undefined {
    return this.built?.node(key);
  }

  dispose(): void {
    this.drop();
    this.ownerSubscription.dispose();
    this.changed.dispose();
  }

  /** The roll-up, current with the changes seen so far; undefined while it is being built. */
  private current(): Rollup | undefined {
    this.update();
    return this.built;
  }

  private drop(): void {
    this.built = undefined;
    if (this.build) this.build.cancelled = true;
    this.build = undefined;
  }

  /** Brings the roll-up up to date (built afresh, in slices, when there is none), noting the rows that moved. */
  private update(): void {
    if (!this.built) {
      if (!this.build) {
        this.build = new RollupBuild(this.owners.index, this.shown.sortOrder, this.shown.groups());
        // Changes from here on are taken in once it is built.
        this.changes.clear();
        this.ownersSeen = this.owners.index.version;
      }
      const build = this.build;
      const done = build.step();
      if (!done) {
        void build.finish().then((r) => {
          if (!r || this.build !== build) return;
          this.finished(r);
          this.changed.fire();
        });
        return;
      }
      this.finished(done);
    }
    if (this.shown.paused || (this.changes.size === 0 && this.ownersSeen === this.owners.index.version)) return;
    const moved = (this.built as Rollup).update(this.changes, (key) => this.shown.liveGroup(key));
    this.changes.clear();
    this.ownersSeen = this.owners.index.version;
    if (this.moved) for (const key of moved) this.moved.add(key);
  }

  private finished(r: Rollup): void {
    this.built = r;
    this.build = undefined;
    this.moved = undefined;
  }
}
