// Filter, Clear Filters and Warnings Only.
import * as vscode from 'vscode';
import type { Controller } from '../controller';
import type { EventFilter } from '../model/filters';

type Dimension = 'types' | 'namespaces' | 'kinds' | 'reasons' | 'sources';

const DIMENSIONS: { key: Dimension | 'text'; label: string; of?: (e: import('../model/clusterEvent').ClusterEvent) => string }[] = [
  { key: 'types', label: 'Type', of: (e) => e.type },
  { key: 'namespaces', label: 'Namespace', of: (e) => e.involvedObject.namespace || e.namespace },
  { key: 'kinds', label: 'Kind', of: (e) => e.involvedObject.kind },
  { key: 'reasons', label: 'Reason', of: (e) => e.reason },
  { key: 'sources', label: 'Source', of: (e) => e.source },
  { key: 'text', label: 'Text in reason, message or object name' },
];

/** Filter: pick what to filter on, then the values (from the events in the store) or the text. */
export async function filterCommand(c: Controller, preset?: EventFilter): Promise<void> {
  if (preset) return c.setFilter(preset);
  const dimension = await vscode.window.showQuickPick(
    DIMENSIONS.map((d) => ({ label: d.label, key: d.key, description: describeCurrent(c.filter, d.key) })),
    { title: 'Filter Events (1/2): filter on', placeHolder: 'What to filter on' },
  );
  if (!dimension) return;
  if (dimension.key === 'text') {
    const text = await vscode.window.showInputBox({ title: 'Filter Events (2/2): text', prompt: 'Events whose reason, message or object name contain this (case-insensitive); empty clears it', value: c.filter.text ?? '' });
    if (text === undefined) return;
    return c.setFilter({ ...c.filter, text: text || undefined });
  }
  const of = DIMENSIONS.find((d) => d.key === dimension.key)?.of;
  if (!of) return;
  const counts = new Map<string, number>();
  for (const e of c.store.all()) counts.set(of(e), (counts.get(of(e)) ?? 0) + 1);
  const current = new Set(c.filter[dimension.key] ?? []);
  const picked = await vscode.window.showQuickPick(
    [...counts].sort((a, b) => b[1] - a[1]).map(([value, n]) => ({ label: value || '(none)', value, description: `${n} event${n === 1 ? '' : 's'}`, picked: current.has(value) })),
    { title: `Filter Events (2/2): ${dimension.label}`, canPickMany: true, placeHolder: 'None picked shows all' },
  );
  if (!picked) return;
  return c.setFilter({ ...c.filter, [dimension.key]: picked.map((p) => p.value) });
}

function describeCurrent(f: EventFilter, key: Dimension | 'text'): string | undefined {
  const v = f[key];
  if (!v || (Array.isArray(v) && v.length === 0)) return undefined;
  return typeof v === 'string' ? `"${v}"` : v.join(', ');
}

export function registerFilterCommands(c: Controller): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubernetesEvents.filter', (preset?: EventFilter) => filterCommand(c, preset)),
    vscode.commands.registerCommand('kubernetesEvents.clearFilters', () => c.setFilter({})),
    vscode.commands.registerCommand('kubernetesEvents.warningsOnly', () => c.setFilter({ ...c.filter, types: ['Warning'] })),
    vscode.commands.registerCommand('kubernetesEvents.allTypes', () => c.setFilter({ ...c.filter, types: [] })),
  ];
}
