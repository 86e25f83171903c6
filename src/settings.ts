// Every setting the extension reads, in one place, with its default.
import * as vscode from 'vscode';
import type { CorrelatorOptions } from './record/eventsCache';

export const SECTION = 'kubernetesEvents';

export interface Settings {
  readonly kubeconfig: string;
  readonly context: string;
  readonly namespaces: string[];
  readonly warningsOnly: boolean;
  readonly groupByNamespace: boolean;
  readonly historyWindowHours: number;
  readonly storeCap: number;
  readonly maxChildren: number;
  readonly sinkEnabled: boolean;
  readonly correlator: CorrelatorOptions;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  // A kubeconfig path can run an exec plugin: in an untrusted workspace only the user's own value counts.
  const trusted = vscode.workspace.isTrusted;
  const machine = <T>(key: string, fallback: T): T => (trusted ? c.get<T>(key, fallback) : (c.inspect<T>(key)?.globalValue ?? fallback));
  return {
    kubeconfig: machine('kubeconfig', ''),
    context: machine('context', ''),
    namespaces: c.get<string[]>('namespaces', []),
    warningsOnly: c.get<boolean>('warningsOnly', false),
    groupByNamespace: c.get<boolean>('groupByNamespace', false),
    historyWindowHours: c.get<number>('historyWindowHours', 24),
    storeCap: c.get<number>('storeCap', 20000),
    maxChildren: c.get<number>('maxChildren', 50),
    sinkEnabled: trusted && c.get<boolean>('sink.enabled', false),
    correlator: {
      burstSize: c.get<number>('correlator.burstSize', 25),
      qps: c.get<number>('correlator.qps', 1 / 300),
      maxEvents: c.get<number>('correlator.aggregateMaxEvents', 10),
      maxIntervalInSeconds: c.get<number>('correlator.aggregateIntervalSeconds', 600),
    },
  };
}
