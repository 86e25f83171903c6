// The API other extensions get from activate(): narrow and typed. Tests running under VS
// Code's test harness also get `testing`, the extension's parts, which no other caller sees.
import type * as vscode from 'vscode';
import type { ExportFormat } from './model/exportView';
import type { ObjectRef } from './model/filters';
import type { RecordRequest, RecordResult } from './model/recordRequest';
import type { EventStore } from './model/eventStore';
import type { ConnectionService } from './services/connectionService';
import type { EventMachinery } from './services/eventMachinery';
import type { FilterService } from './services/filterService';
import type { FocusService } from './services/focusService';
import type { NavigationService } from './services/navigationService';
import type { OwnerService } from './services/ownerService';
import type { SettingsService } from './services/settingsService';
import type { ShownEvents } from './services/shownEvents';
import type { SinkService } from './services/sinkService';
import type { ManifestService } from './services/manifestService';
import type { WarningNotifier } from './services/warningNotifier';
import type { SelectionMemory } from './views/selectionMemory';
import type { EventsTreeProvider } from './views/tree/eventsTreeProvider';
import type { TreeNode } from './views/tree/nodes/treeNode';
import type { ViewStatus } from './views/viewStatus';

/** An object by kind and name (namespace and uid make it exact). */
export type ObjectQuery = ObjectRef;
export type { RecordRequest as RecordEventRequest, RecordResult } from './model/recordRequest';

export interface KubernetesEventsApi {
  readonly apiVersion: 1;
  /** The context the view shows now. */
  readonly context: string | undefined;
  /** Reveals and selects the object's events in the view; false when it has none. */
  showEvents(object: ObjectQuery): Promise<boolean>;
  /** Records an event (and writes it to the cluster when the user turned the sink on). */
  recordEvent(request: RecordRequest): Promise<RecordResult>;
  /** Only under a test harness (ExtensionMode.Test). */
  readonly testing?: TestingApi;
}

/** The extension's parts, as tests reach them. */
export interface Parts {
  readonly settings: SettingsService;
  readonly store: EventStore;
  readonly shown: ShownEvents;
  readonly tree: EventsTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  readonly selection: SelectionMemory;
  readonly machinery: EventMachinery;
  readonly connection: ConnectionService;
  readonly sink: SinkService;
  readonly filters: FilterService;
  readonly focus: FocusService;
  readonly owners: OwnerService;
  readonly navigation: NavigationService;
  readonly status: ViewStatus;
  readonly notifier: WarningNotifier;
  readonly manifests: ManifestService;
}

export interface TestingApi {
  readonly services: Parts;
  /** Milliseconds activate() took. */
  readonly activationMs: number;
  /** Read-only YAML documents the extension holds. */
  readonly yamlDocuments: () => number;
  exportTo(format: ExportFormat, target: vscode.Uri): Promise<number>;
}
