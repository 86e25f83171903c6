// Sort By, Group By, Pause and Resume, Show More: how the view lays out what it shows. The
// order and the grouping are settings (the view follows them as they change, wherever they
// were changed); these commands write them where they take effect.
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import type { GroupBy } from '../services/settingsValidation';
import type { SortOrder } from '../model/groupOrder';
import type { SettingsService } from '../services/settingsService';
import type { ShownEvents } from '../services/shownEvents';
import type { EventsTreeProvider } from '../views/tree/eventsTreeProvider';
import { MoreNode } from '../views/tree/nodes/moreNode';
import type { QuickInputs } from '../views/tree/quickInputs';
import { registerPlainCommand, registerRowCommand } from './registry';

const ORDERS: { value: SortOrder; label: string; description: string }[] = [
  { value: 'lastSeen', label: 'Last seen', description: 'objects with the newest events first' },
  { value: 'warnings', label: 'Most warnings', description: 'objects with the most live warning events first' },
  { value: 'name', label: 'Name', description: 'by object name, then kind and namespace' },
];

const GROUPINGS: { value: GroupBy; label: string; description: string }[] = [
  { value: 'object', label: 'Object', description: 'each involved object on its own' },
  { value: 'namespace', label: 'Namespace', description: 'objects under their namespace' },
  { value: 'workload', label: 'Workload', description: 'Pods under ReplicaSets under Deployments, Jobs under CronJobs, with sums' },
];

/** One choice among a few, the current one checked; undefined when cancelled or unchanged. */
async function pickChoice<T extends string>(title: string, choices: { value: T; label: string; description: string }[], now: T): Promise<T | undefined> {
  const picked = await vscode.window.showQuickPick(
    choices.map((c) => ({ ...c, label: `${c.value === now ? '$(check) ' : ''}${c.label}` })),
    { title, placeHolder: `Now: ${choices.find((c) => c.value === now)?.label ?? now}` },
  );
  return picked && picked.value !== now ? picked.value : undefined;
}

export interface ViewOptionsDeps {
  readonly settings: SettingsService;
  readonly shown: ShownEvents;
  readonly tree: EventsTreeProvider;
  readonly inputs: QuickInputs;
  readonly selection: () => readonly unknown[];
}

export function registerViewOptionsCommands(d: ViewOptionsDeps): vscode.Disposable[] {
  return [
    registerPlainCommand(Commands.sortBy, async () => {
      const order = await d.inputs.ask(() => pickChoice('Sort Objects By', ORDERS, d.settings.value.sortOrder));
      // Written even when it is the default: clearing it could let a value set elsewhere (the user's settings) win.
      if (order) await d.settings.update('sortOrder', order);
    }),
    registerPlainCommand(Commands.groupBy, async () => {
      const groupBy = await d.inputs.ask(() => pickChoice('Group Events By', GROUPINGS, d.settings.value.groupBy));
      if (groupBy) await d.settings.update('groupBy', groupBy);
    }),
    registerPlainCommand(Commands.pause, () => d.tree.pause()),
    registerPlainCommand(Commands.resume, () => d.shown.resume()),
    registerRowCommand(Commands.showMore, (x): x is MoreNode => x instanceof MoreNode, d.selection, (node) => d.tree.expandGroup(node.parent), 'Pick a "Show more" row in the Events view.'),
  ];
}
