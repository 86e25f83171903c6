// Filter, Clear Filters, Show Warnings Only and Show All Types (view title and palette).
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import type { ClusterEvent } from '../model/clusterEvent';
import { oneLine } from '../model/displayText';
import type { EventStore } from '../model/eventStore';
import type { EventFilter } from '../model/filters';
import type { FilterService } from '../services/filterService';
import type { QuickInputs } from '../views/tree/quickInputs';
import { registerPlainCommand } from './registry';

type Dimension = 'types' | 'namespaces' | 'kinds' | 'reasons' | 'sources';

const DIMENSIONS: { key: Dimension | 'text'; label: string; of?: (e: ClusterEvent) => string }[] = [
  { key: 'types', label: 'Type', of: (e) => e.type },
  { key: 'namespaces', label: 'Namespace', of: (e) => e.involvedObject.namespace || e.namespace },
  { key: 'kinds', label: 'Kind', of: (e) => e.involvedObject.kind },
  { key: 'reasons', label: 'Reason', of: (e) => e.reason },
  { key: 'sources', label: 'Source', of: (e) => e.source },
  { key: 'text', label: 'Text in reason, message or object name' },
];

function describeCurrent(f: EventFilter, key: Dimension | 'text'): string | undefined {
  const v = f[key];
  if (!v || (Array.isArray(v) && v.length === 0)) return undefined;
  return typeof v === 'string' ? `"${v}"` : v.join(', ');
}

/** The filter's two steps: what to filter on, then the values (from the events in the store) or the text; undefined when cancelled. */
async function askFilter(store: EventStore, current: EventFilter): Promise<EventFilter | undefined> {
  const dimension = await vscode.window.showQuickPick(
    DIMENSIONS.map((d) => ({ label: d.label, key: d.key, description: describeCurrent(current, d.key) })),
    { title: 'Filter Events (1/2): filter on', placeHolder: 'What to filter on' },
  );
  if (!dimension) return undefined;
  if (dimension.key === 'text') {
    const text = await vscode.window.showInputBox({ title: 'Filter Events (2/2): text', prompt: 'Events whose reason, message or object name contain this (case-insensitive); empty clears it', value: current.text ?? '' });
    return text === undefined ? undefined : { ...current, text: text || undefined };
  }
  const of = DIMENSIONS.find((d) => d.key === dimension.key)?.of;
  if (!of) return undefined;
  const counts = new Map<string, number>();
  for (const e of store.all()) counts.set(of(e), (counts.get(of(e)) ?? 0) + 1);
  const chosen = new Set(current[dimension.key] ?? []);
  const picked = await vscode.window.showQuickPick(
    [...counts].sort((a, b) => b[1] - a[1]).map(([value, n]) => ({ label: oneLine(value) || '(none)', value, description: `${n} event${n === 1 ? '' : 's'}`, picked: chosen.has(value) })),
    { title: `Filter Events (2/2): ${dimension.label}`, canPickMany: true, placeHolder: 'None picked shows all' },
  );
  return picked ? { ...current, [dimension.key]: picked.map((p) => p.value) } : undefined;
}

export function registerFilterCommands(filters: FilterService, store: EventStore, inputs: QuickInputs): vscode.Disposable[] {
  return [
    registerPlainCommand(Commands.filter, async () => {
      const next = await inputs.ask(() => askFilter(store, filters.filter));
      if (next) await filters.set(next);
    }),
    registerPlainCommand(Commands.clearFilters, () => filters.clear()),
    registerPlainCommand(Commands.warningsOnly, () => filters.set({ ...filters.filter, types: ['Warning'] })),
    registerPlainCommand(Commands.allTypes, () => filters.set({ ...filters.filter, types: [] })),
  ];
}
