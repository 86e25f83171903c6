// What the Events view says about itself, kept where it stays in sight: rows above the
// objects for loading, problems (with their actions beside them), a filter that hides
// everything and a pause; the view's title and a status bar item for the context, the
// filter and the sink; the badge for warnings not seen yet.
import * as vscode from 'vscode';
import { Commands, VIEW_ID } from '../common/commandIds';
import { ContextKeys } from '../common/contextKeys';
import { Disposable } from '../common/lifecycle';
import { describeFilter, isFilterActive } from '../model/filters';
import type { ConnectionService } from '../services/connectionService';
import type { ConnectionStatus } from '../services/connectionStatus';
import type { ContextKeySetter } from '../common/contextKeys';
import type { FilterService } from '../services/filterService';
import type { FocusService } from '../services/focusService';
import type { EventStore } from '../model/eventStore';
import type { ShownEvents } from '../services/shownEvents';
import type { SinkService } from '../services/sinkService';
import type { EventsTreeProvider } from './tree/eventsTreeProvider';
import { ActionNode, StatusNode, type StatusTone } from './tree/nodes/statusNode';
import type { TreeNode } from './tree/nodes/treeNode';
import { WarningBadge } from './warningBadge';

/** Problem messages are wrapped onto rows of about this many characters. */
const WRAP_AT = 64;
/** At most this many rows of one message (the tooltip has all of it). */
const MAX_MESSAGE_ROWS = 6;
/** How often the "retrying in N s" countdown is redrawn. */
const COUNTDOWN_MS = 1000;

/** What the view shows, for tests. */
export type ViewState = 'loading' | 'noKubeconfig' | 'badKubeconfig' | 'unreachable' | 'forbidden' | 'empty' | 'noMatches' | 'ready';

function wrap(text: string): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > WRAP_AT) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  if (lines.length > MAX_MESSAGE_ROWS) return [...lines.slice(0, MAX_MESSAGE_ROWS - 1), `${lines[MAX_MESSAGE_ROWS - 1]} … (hover for all of it)`];
  return lines;
}

function message(key: string, tone: StatusTone, text: string): StatusNode[] {
  return wrap(text).map((line, i) => new StatusNode(i === 0 ? key : `${key}:${i}`, i === 0 ? tone : 'none', line, text));
}

const RETRY = new ActionNode('Retry', Commands.refresh, 'refresh');
const SWITCH = new ActionNode('Switch Context…', Commands.switchContext, 'arrow-swap');
const LOG = new ActionNode('Show Log', Commands.showLog, 'output');
const OPEN_KUBECONFIG = new ActionNode('Open Kubeconfig', Commands.openKubeconfig, 'go-to-file');
const SET_KUBECONFIG = new ActionNode('Set Kubeconfig Path…', 'workbench.action.openSettings', 'gear', ['kubernetesEvents.kubeconfig']);
const CLEAR = new ActionNode('Clear Filters', Commands.clearFilters, 'clear-all');
const RESUME = new ActionNode('Resume Live Updates', Commands.resume, 'debug-continue');
const RECORD = new ActionNode('Record Event…', Commands.recordEvent, 'add');

export class ViewStatus extends Disposable {
  private state: ViewState = 'loading';
  private readonly statusBar: vscode.StatusBarItem;
  private progressDone: (() => void) | undefined;
  private countdown: NodeJS.Timeout | undefined;
  private retryAt: number | undefined;
  private drawn = { title: '', status: '' };
  /** The live-warning count the status bar shows. */
  private shownWarnings = -1;
  readonly badge: WarningBadge;

  constructor(
    private readonly view: vscode.TreeView<TreeNode>,
    private readonly tree: EventsTreeProvider,
    private readonly shown: ShownEvents,
    private readonly connection: ConnectionService,
    private readonly sink: SinkService,
    private readonly filters: FilterService,
    private readonly keys: ContextKeySetter,
    private readonly focus: FocusService,
    /** The main store (the tree may show a focused one). */
    private readonly store: EventStore,
  ) {
    super();
    this.statusBar = this._register(vscode.window.createStatusBarItem('kubernetesEvents.context', vscode.StatusBarAlignment.Left, 50));
    this.statusBar.name = 'Kubernetes Events: context';
    this.statusBar.command = Commands.switchContext;
    this.badge = this._register(new WarningBadge(view, store));
    this._register(focus.onDidChange(() => this.update()));
    this._register(connection.onDidChangeStatus((s) => this.onStatus(s)));
    this._register(sink.onDidChange(() => this.update()));
    this._register(filters.onDidChange(() => this.update()));
    this._register(tree.onDidSettle(() => this.update()));
    this._register(shown.onDidChangePause(() => this.update()));
    // The status bar counts the main store's live warnings; a filter hides changes from the
    // tree (so from onDidSettle), not from that count.
    this._register(store.onDidChange(() => store.liveWarnings !== this.shownWarnings && this.update()));
    this._register({ dispose: () => (this.stopProgress(), clearInterval(this.countdown)) });
    this.update();
  }

  get viewState(): ViewState {
    return this.state;
  }

  private onStatus(s: ConnectionStatus): void {
    if (s.phase === 'loading') this.startProgress(s.context);
    else this.stopProgress();
    clearInterval(this.countdown);
    this.countdown = undefined;
    this.retryAt = s.phase === 'reconnecting' && s.retryInMs !== undefined ? Date.now() + s.retryInMs : undefined;
    if (this.retryAt !== undefined) this.countdown = setInterval(() => this.update(), COUNTDOWN_MS);
    this.update();
  }

  private startProgress(context: string | undefined): void {
    if (this.progressDone) return;
    void vscode.window.withProgress({ location: { viewId: VIEW_ID }, title: `Loading events${context ? ` from ${context}` : ''}` }, () => new Promise<void>((resolve) => (this.progressDone = resolve)));
  }

  private stopProgress(): void {
    this.progressDone?.();
    this.progressDone = undefined;
  }

  /** Works out the rows, the state, the title and the status bar from everything it watches. */
  update(): void {
    const s = this.connection.status;
    const context = s.context ?? this.connection.context;
    const where = context ? ` in ${context}` : '';
    const hasEvents = this.store.size > 0;
    const focus = this.focus.status;
    const shown = this.shown.groupCount > 0;
    const filter = this.filters.filter;
    const rows: TreeNode[] = [];
    let state: ViewState;
    switch (s.phase) {
      case 'disconnected':
      case 'loading':
        // A relist under rows already shown only runs the view's progress bar; a first list
        // says so, also over the history shown meanwhile.
        state = hasEvents ? 'ready' : 'loading';
        if (!hasEvents || s.firstList) rows.push(new StatusNode('loading', 'loading', `Loading events${context ? ` from ${context}` : ''}…${hasEvents ? ' (the saved history shows meanwhile)' : ''}`));
        break;
      case 'noKubeconfig':
        state = 'noKubeconfig';
        rows.push(...message('problem', 'warning', s.message), SET_KUBECONFIG, RETRY);
        break;
      case 'badKubeconfig':
        state = 'badKubeconfig';
        rows.push(...message('problem', 'error', s.message), RETRY, SWITCH, OPEN_KUBECONFIG, LOG);
        break;
      case 'forbidden':
        state = 'forbidden';
        rows.push(...message('problem', 'error', s.message), RETRY, SWITCH, LOG);
        break;
      case 'reconnecting': {
        state = hasEvents ? 'ready' : 'unreachable';
        const seconds = this.retryAt === undefined ? undefined : Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000));
        const when = seconds === undefined ? '' : seconds > 0 ? `, retrying in ${seconds} s` : ', retrying now';
        rows.push(...message('problem', 'warning', `Cannot reach${context ? ` ${context}` : ' the cluster'}${when}: ${s.message}`), RETRY, SWITCH, LOG);
        break;
      }
      case 'live':
        state = hasEvents ? 'ready' : 'empty';
        break;
    }
    // A focused view (warnings, one object) has its own list+watch with a field selector.
    if (focus && (state === 'ready' || state === 'empty')) {
      const asked = `${context ?? 'the cluster'} for ${this.focus.selector ?? 'these events'}`;
      if (focus.phase === 'loading') rows.push(new StatusNode('focus', 'loading', `Asking ${asked}…${this.shown.source.size === 0 ? '' : ' (meanwhile, the events already here)'}`));
      else if (focus.phase === 'forbidden' || focus.phase === 'badKubeconfig' || focus.phase === 'reconnecting') rows.push(...message('focus', 'warning', focus.message), RETRY);
    }
    if ((state === 'ready' || state === 'empty') && !shown && !(focus && focus.phase === 'loading')) {
      if ((hasEvents || focus) && isFilterActive(filter)) {
        state = 'noMatches';
        rows.push(new StatusNode('noMatches', 'info', `No events match the filter: ${describeFilter(filter)}`), CLEAR);
      } else if (!hasEvents) {
        rows.push(new StatusNode('empty', 'info', `No events${where} right now (events expire after an hour by default).`), RECORD);
      }
    }
    const held = this.shown.heldBackChanges;
    if (this.shown.paused) rows.unshift(new StatusNode('paused', 'info', `Live updates paused${held ? `: ${held} change${held === 1 ? '' : 's'} waiting` : ''}`), RESUME);
    this.state = state;
    this.keys.set(ContextKeys.sinkWanted, this.sink.isWanted);
    this.keys.set(ContextKeys.paused, this.shown.paused);
    this.tree.setStatus(rows);
    this.updateTitle(context);
  }

  /** The title and the status bar: the context, the filter, the sink and a pause, always in sight. */
  private updateTitle(context: string | undefined): void {
    const filter = describeFilter(this.filters.filter);
    // Shown after the container's name ("Kubernetes Events: kev-admin · Warning · sink on"),
    // where VS Code keeps it when the view's description would be hidden.
    const parts = [context ?? 'Events', filter, this.sink.enabled && 'sink on', this.shown.paused && 'paused'].filter(Boolean);
    const title = parts.join(' · ');
    if (title !== this.drawn.title) this.view.title = this.drawn.title = title;
    const warnings = this.badge.liveWarnings;
    this.shownWarnings = warnings;
    const text = `$(pulse) ${context ?? 'Kubernetes Events'}${warnings > 0 ? `  $(warning) ${warnings}` : ''}${this.sink.enabled ? '  $(cloud-upload)' : ''}`;
    const tooltip = [
      `Kubernetes Events: ${context ? `context ${context}` : 'not connected'}`,
      `Live warning events: ${warnings}`,
      filter ? `Filter: ${filter}` : 'No filter',
      this.sink.enabled ? `Sink on: events recorded here are written to ${this.sink.context}` : 'Sink off: events recorded here stay in this window',
      'Click to switch context',
    ].join('\n');
    if (`${text}\n${tooltip}` === this.drawn.status) return;
    this.drawn.status = `${text}\n${tooltip}`;
    this.statusBar.text = text;
    this.statusBar.tooltip = tooltip;
    this.statusBar.show();
  }
}
