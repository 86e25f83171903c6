// The API other extensions get from activate(): narrow and typed. Tests running under VS
// Code's test harness also get `testing`, the extension's owners, which no other caller sees.
import type * as vscode from 'vscode';
import type { ObjectSummary } from './cluster/discovery';
import type { RecordResult } from './commands/record';
import type { ObjectQuery } from './commands/showEvents';
import type { Services } from './services/services';
import type { WarningNotifier } from './services/warningNotifier';

export type { ObjectQuery } from './commands/showEvents';
export type { RecordResult } from './commands/record';

export interface RecordEventRequest {
  readonly object: ObjectSummary;
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly message: string;
}

export interface KubernetesEventsApi {
  readonly apiVersion: 1;
  /** The context the view shows now. */
  readonly context: string | undefined;
  /** Reveals and selects the object's events in the view; false when it has none. */
  showEvents(object: ObjectQuery): Promise<boolean>;
  /** Records an event (and writes it to the cluster when the user turned the sink on). */
  recordEvent(request: RecordEventRequest): Promise<RecordResult>;
  /** Only under a test harness (ExtensionMode.Test). */
  readonly testing?: TestingApi;
}

export interface TestingApi {
  readonly services: Services;
  readonly notifier: WarningNotifier;
  /** Milliseconds activate() took. */
  readonly activationMs: number;
  /** Read-only YAML documents the extension holds. */
  readonly yamlDocuments: () => number;
  exportTo(format: 'json' | 'csv' | 'markdown', target: vscode.Uri): Promise<number>;
}
