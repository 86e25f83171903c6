// The owners the commands work with, each of one concern. Built once in extension.ts.
import type * as vscode from 'vscode';
import type { OutputChannelLogger } from '../logging';
import type { EventStore } from '../model/eventStore';
import type { EventsTreeProvider } from '../views/tree/eventsTreeProvider';
import type { TreeNode } from '../views/tree/nodes/treeNode';
import type { SelectionMemory } from '../views/selectionMemory';
import type { ViewStatus } from '../views/viewStatus';
import type { ConnectionService } from './connectionService';
import type { ContextKeyService } from './contextKeyService';
import type { FilterService } from './filterService';
import type { FocusService } from './focusService';
import type { OwnerService } from './ownerService';
import type { RecordingService } from './recordingService';
import type { SettingsService } from './settingsService';
import type { SinkService } from './sinkService';

export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly channel: vscode.LogOutputChannel;
  readonly logger: OutputChannelLogger;
  readonly settings: SettingsService;
  readonly keys: ContextKeyService;
  readonly store: EventStore;
  readonly tree: EventsTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  /** The view's selection, steady across refreshes. */
  readonly selection: SelectionMemory;
  readonly recording: RecordingService;
  readonly connection: ConnectionService;
  readonly sink: SinkService;
  readonly filters: FilterService;
  readonly status: ViewStatus;
  readonly owners: OwnerService;
  readonly focus: FocusService;
}
