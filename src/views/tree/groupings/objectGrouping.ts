// Each involved object on its own, in the view's order.
import type { GroupBy } from '../../../services/settingsValidation';
import type { RollupNode } from '../../../model/rollup';
import type { ShownChange, ShownEvents } from '../../../services/shownEvents';
import type { Grouping, ObjectRow, Row, RowCache } from './grouping';

export class ObjectGrouping implements Grouping {
  readonly by: GroupBy = 'object';
  readonly building = false;

  constructor(protected readonly shown: ShownEvents) {}

  roots(): readonly Row[] {
    return this.shown.groups();
  }

  children(_row: Row): readonly ObjectRow[] {
    return [];
  }

  parentOf(_row: ObjectRow): Row | undefined {
    return undefined;
  }

  take(change: ShownChange): boolean {
    return change.kind !== 'groups' || change.change.all || change.change.orderChanged;
  }

  prune(rows: RowCache): void {
    for (const key of [...rows.objectKeys()]) if (!this.shown.liveGroup(key)) rows.dropObject(key, true);
  }

  rollup(_key: string): RollupNode | undefined {
    return undefined;
  }

  dispose(): void {}
}
