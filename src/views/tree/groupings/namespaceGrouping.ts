// Objects under their namespace's row, cluster-scoped ones under one of their own.
import type { GroupBy } from '../../../services/settingsValidation';
import { isObjectRow, type ObjectRow, type Row, type RowCache } from './grouping';
import { ObjectGrouping } from './objectGrouping';

export class NamespaceGrouping extends ObjectGrouping {
  override readonly by: GroupBy = 'namespace';

  override roots(): readonly Row[] {
    return [...new Set(this.shown.groups().map((g) => g.object.namespace))].map((namespace) => ({ namespace }));
  }

  override children(row: Row): readonly ObjectRow[] {
    return isObjectRow(row) ? [] : this.shown.groups().filter((g) => g.object.namespace === row.namespace);
  }

  override parentOf(row: ObjectRow): Row | undefined {
    return { namespace: row.object.namespace };
  }

  override prune(rows: RowCache): void {
    super.prune(rows);
    const namespaces = new Set(this.shown.groups().map((g) => g.object.namespace));
    for (const ns of [...rows.namespaces()]) if (!namespaces.has(ns)) rows.dropNamespace(ns);
  }
}
