// How the Events view arranges objects: each on its own, under their namespace, or under
// their workload. A grouping works in keys (no rows, no vscode): the tree turns what it
// answers into nodes, and asks it which nodes a whole redraw must make anew.
import type { GroupBy } from '../../../services/settingsValidation';
import type { IDisposable } from '../../../common/lifecycle';
import type { InvolvedObject } from '../../../model/clusterEvent';
import type { RollupNode } from '../../../model/rollup';
import type { ShownChange } from '../../../services/shownEvents';

/** An object's row, by its key. */
export interface ObjectRow {
  readonly key: string;
  readonly object: InvolvedObject;
}

/** A namespace's row, by its name ('' for cluster-scoped objects). */
export interface NamespaceRow {
  readonly namespace: string;
}

export type Row = ObjectRow | NamespaceRow;

export const isObjectRow = (r: Row): r is ObjectRow => 'key' in r;

/** The rows made so far, as a grouping prunes them. */
export interface RowCache {
  objectKeys(): Iterable<string>;
  /** The key of the object row an object's row sits under, if any. */
  parentKeyOf(key: string): string | undefined;
  namespaces(): Iterable<string>;
  /** Makes the object's row anew next time (its place changed); `gone`: it left the view. */
  dropObject(key: string, gone: boolean): void;
  dropNamespace(namespace: string): void;
}

export interface Grouping extends IDisposable {
  readonly by: GroupBy;
  /** The rows at the top, below the status rows. */
  roots(): readonly Row[];
  /** The rows under a namespace's or an object's row (for an object: those it owns, above its events). */
  children(row: Row): readonly ObjectRow[];
  /** The row an object's row sits under. */
  parentOf(row: ObjectRow): Row | undefined;
  /** Takes in a change; true when it needs the whole tree drawn again, not only the changed groups. */
  take(change: ShownChange): boolean;
  /** Before a whole redraw: drops the rows that left or moved. */
  prune(rows: RowCache): void;
  /** In workload mode, an object's rolled-up totals. */
  rollup(key: string): RollupNode | undefined;
  /** A roll-up is being built: its rows come when it is done. */
  readonly building: boolean;
  /** Asks for a whole redraw (a roll-up built, owners changed). */
  readonly onDidChange?: (listener: () => void) => IDisposable;
}
