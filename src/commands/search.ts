// Search Events: type, and the events kept (live and history) that match show as rows like
// `kubectl events` (last seen, type, reason, object, message), newest first; the chosen one
// is revealed and selected in the tree.
import * as vscode from 'vscode';
import { Commands } from '../common/commandIds';
import type { ClusterEvent } from '../model/clusterEvent';
import { oneLine } from '../model/displayText';
import { searchEvents, SEARCH_LIMIT } from '../model/eventSearch';
import { eventInterval } from '../model/kubectlFormat';
import type { EventStore } from '../model/eventStore';
import type { NavigationService } from '../services/navigationService';
import type { QuickInputs } from '../views/tree/quickInputs';
import { registerPlainCommand } from './registry';

/** Typing is searched this long after the last key. */
const DEBOUNCE_MS = 120;

interface Row extends vscode.QuickPickItem {
  readonly uid: string;
}

function row(e: ClusterEvent, now: number): Row {
  const o = e.involvedObject;
  const marks = [e.expiredAt !== undefined ? 'history' : '', e.origin === 'local' ? 'recorded here' : ''].filter(Boolean).join(', ');
  return {
    uid: e.uid,
    label: `${oneLine(e.reason)}  ${oneLine(`${o.kind}/${o.name}`)}`,
    description: [eventInterval(e, now), oneLine(e.type), oneLine(o.namespace || e.namespace), marks].filter(Boolean).join(' · '),
    detail: oneLine(e.message),
    iconPath: new vscode.ThemeIcon(e.expiredAt !== undefined ? 'history' : e.type === 'Warning' ? 'warning' : 'info'),
    // Matching is ours (every word, anywhere): VS Code must not filter again.
    alwaysShow: true,
  };
}

async function searchCommand(store: EventStore, inputs: QuickInputs, navigation: NavigationService): Promise<void> {
  const qp = vscode.window.createQuickPick<Row>();
  qp.title = `Search Events (${store.size} kept, history included)`;
  qp.placeholder = 'Words in the reason, message, object, namespace or source; newest first';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  let timer: NodeJS.Timeout | undefined;
  const update = () => {
    const result = searchEvents(store.all(), qp.value);
    const now = Date.now();
    qp.items = result.events.map((e) => row(e, now));
    qp.title = `Search Events: ${result.total} match${result.total === 1 ? '' : 'es'}${result.total > SEARCH_LIMIT ? `, the newest ${SEARCH_LIMIT} shown` : ''}`;
    qp.busy = false;
  };
  const picked = await inputs.ask(() => new Promise<Row | undefined>((resolve) => {
    qp.onDidChangeValue(() => {
      qp.busy = true;
      clearTimeout(timer);
      timer = setTimeout(update, DEBOUNCE_MS);
    });
    qp.onDidAccept(() => {
      resolve(qp.selectedItems[0]);
      qp.hide();
    });
    qp.onDidHide(() => {
      clearTimeout(timer);
      resolve(undefined);
      qp.dispose();
    });
    update();
    qp.show();
  }));
  if (!picked) return;
  if (!(await navigation.revealEvent(picked.uid))) void vscode.window.showInformationMessage('That event is no longer kept (the store cap or the history window dropped it).');
}

export function registerSearchCommands(store: EventStore, inputs: QuickInputs, navigation: NavigationService): vscode.Disposable[] {
  return [registerPlainCommand(Commands.searchEvents, () => searchCommand(store, inputs, navigation))];
}
