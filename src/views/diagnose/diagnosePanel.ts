// The Diagnose panel of one object: a webview with the timeline's strict content security
// policy (its own script and stylesheet only, no command links, no forms), drawn from a
// DiagnoseSession. State goes over at most every UPDATE_MS, log lines as they come in
// batches, ages again every AGE_TICK_MS while it is shown. Copy, Save and the kubectl
// command act on the host's side, never on text from the page.
import * as vscode from 'vscode';
import { kubectlLogsCommand } from '../../cluster/podLogs';
import { Disposable } from '../../common/lifecycle';
import type { DiagnoseSession } from '../../services/diagnoseSession';
import { conditionRows, containerRows, eventRows, logChoices, logHeader, podRows, summaryOf } from './diagnoseText';
import { LogFeed, UPDATE_MS } from './logFeed';
import { parseWebviewMessage, type HostMessage, type StateMessage } from './protocol';
import { webviewPage } from '../webviewPage';

export const DIAGNOSE_VIEW_TYPE = 'kubernetesEvents.diagnose';
/** Ages are drawn again this often while the panel is shown. */
export const AGE_TICK_MS = 5_000;
const MEDIA_FOLDER = ['media', 'diagnose'];

export interface DiagnoseHost {
  readonly extensionUri: vscode.Uri;
  readonly context: string | undefined;
  /** Kept by the page, so that a window reload brings the panel back on the same object. */
  readonly restoreKey: string;
  /** Opens (or shows) the panel of a pod of this workload. */
  diagnosePod(namespace: string, name: string): void;
  problem(text: string): void;
}

export class DiagnosePanel extends Disposable {
  private readonly panel: vscode.WebviewPanel;
  private ready = false;
  private stateDue = true;
  private readonly feed: LogFeed;
  private timer: NodeJS.Timeout | undefined;
  private readonly ticker: NodeJS.Timeout;
  private timestamps = false;
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;

  /** `restored`: the panel VS Code brings back after a window reload (its serializer), else a new one. */
  constructor(
    readonly session: DiagnoseSession,
    private readonly host: DiagnoseHost,
    restored?: vscode.WebviewPanel,
  ) {
    super();
    this.feed = new LogFeed(session.buffer);
    const media = vscode.Uri.joinPath(host.extensionUri, ...MEDIA_FOLDER);
    const t = session.target;
    const options = { enableScripts: true, enableCommandUris: false, enableForms: false, localResourceRoots: [media] };
    this.panel = this._register(restored ?? vscode.window.createWebviewPanel(DIAGNOSE_VIEW_TYPE, `Diagnose: ${t.kind}/${t.name}`, vscode.ViewColumn.Active, { ...options, retainContextWhenHidden: false }));
    if (restored) this.panel.webview.options = options;
    this.panel.iconPath = vscode.Uri.joinPath(host.extensionUri, 'media', 'events.svg');
    this.panel.webview.html = html(this.panel.webview, media, `Diagnose: ${t.kind}/${t.name}`);
    this._register(session);
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this._register(this.panel.onDidChangeViewState((e) => {
      if (!e.webviewPanel.visible) this.ready = false;
    }));
    this._register(this.panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)));
    this._register(session.onDidChange((c) => {
      if (c !== 'log' || !this.stateDue) this.stateDue = true;
      this.flushSoon();
    }));
    this.ticker = setInterval(() => {
      this.stateDue = true;
      this.flushSoon();
    }, AGE_TICK_MS);
    void session.start();
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    clearTimeout(this.timer);
    clearInterval(this.ticker);
    super.dispose();
    this.closed.fire();
    this.closed.dispose();
  }

  private async receive(raw: unknown): Promise<void> {
    const m = parseWebviewMessage(raw);
    if (!m) return this.host.problem('The Diagnose panel sent a message it should not have; it was ignored.');
    const s = this.session;
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.feed.restart();
        this.stateDue = true;
        return this.flush();
      case 'chooseLog':
        return s.showLog(m.container, m.previous);
      case 'loadMore':
        return s.loadMore();
      case 'timestamps':
        this.timestamps = m.on;
        this.stateDue = true;
        this.flushSoon();
        return;
      case 'copy':
        await vscode.env.clipboard.writeText(s.buffer.text(this.timestamps));
        void vscode.window.setStatusBarMessage(`Copied ${s.buffer.length} log lines.`, 3000);
        return;
      case 'copyCommand': {
        const command = this.kubectl();
        if (!command) return;
        await vscode.env.clipboard.writeText(command);
        void vscode.window.setStatusBarMessage('Copied the kubectl logs command.', 3000);
        return;
      }
      case 'save':
        return this.save();
      case 'diagnosePod':
        return this.host.diagnosePod(s.target.namespace, m.pod);
      case 'problem':
        return this.host.problem(m.text);
    }
  }

  private kubectl(): string | undefined {
    const l = this.session.log;
    if (!l) return undefined;
    const t = this.session.target;
    return kubectlLogsCommand({ namespace: t.namespace, pod: t.name, container: l.container }, { previous: l.previous, follow: l.following, tailLines: l.tailLines, timestamps: this.timestamps }, this.host.context);
  }

  private async save(): Promise<void> {
    const l = this.session.log;
    if (!l) return;
    const t = this.session.target;
    const name = `${t.name}-${l.container}${l.previous ? '-previous' : ''}.log`.replace(/[^A-Za-z0-9._-]+/g, '_');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({ defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined, filters: { Logs: ['log', 'txt'] }, title: `Save the whole ${l.previous ? 'previous ' : ''}log of ${l.container}` });
    if (!target) return;
    try {
      const bytes = await this.session.saveLog(target.fsPath, this.timestamps);
      void vscode.window.showInformationMessage(`Saved the log of ${l.container} (${bytes.toLocaleString('en-US')} bytes) to ${target.fsPath}.`);
    } catch (e) {
      void vscode.window.showErrorMessage(`Cannot save the log of ${l.container}: ${(e as Error).message}`);
    }
  }

  private flushSoon(): void {
    this.timer ??= setTimeout(() => this.flush(), UPDATE_MS);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.isDisposed || !this.ready || !this.panel.visible) return;
    if (this.stateDue) {
      this.stateDue = false;
      this.post(this.stateMessage(Date.now()));
    }
    const lines = this.feed.next();
    if (lines) this.post(lines);
  }

  private stateMessage(now: number): StateMessage {
    const s = this.session;
    const t = s.target;
    const st = s.status;
    const summary = summaryOf(st);
    const log = s.log;
    const noLogs = s.noLogs;
    return {
      type: 'state',
      restoreKey: this.host.restoreKey,
      title: `${t.kind}/${t.name}`,
      subtitle: `${t.namespace ? `in ${t.namespace} · ` : ''}${this.host.context ?? ''}`,
      summary: summary.text,
      summaryWarn: summary.warn,
      problem: st.problem,
      containers: st.pod ? containerRows(st.pod, now) : undefined,
      conditions: (st.pod?.conditions ?? st.workload?.conditions ?? st.conditions)?.length ? conditionRows(st.pod?.conditions ?? st.workload?.conditions ?? st.conditions ?? [], now) : undefined,
      pods: st.pods ? podRows(st.pods) : undefined,
      events: eventRows(s.events, now),
      logs: s.isPod
        ? {
            choices: st.pod ? logChoices(st.pod, log) : [],
            header: noLogs && !log ? '' : log ? logHeader(log) : 'Reading its status…',
            problem: noLogs && !log ? noLogs : log?.problem,
            canLoadMore: Boolean(log && !log.loading && !log.whole && !log.following && !log.problem),
            kubectl: this.kubectl() ?? '',
            timestamps: this.timestamps,
          }
        : undefined,
    };
  }

  private post(m: HostMessage): void {
    void this.panel.webview.postMessage(m);
  }
}

/** The page's markup (webviewPage gives it the policy, the stylesheet and the script). */
function html(webview: vscode.Webview, media: vscode.Uri, title: string): string {
  return webviewPage(webview, media, 'diagnose', title, `<header><h1 id="title"></h1><div id="subtitle"></div></header>
<div id="summary" role="status"></div>
<div id="problem" class="problem" role="alert" hidden></div>
<section id="containers" hidden><h2>Containers</h2><table></table></section>
<section id="pods" hidden><h2>Pods, worst first</h2><table></table></section>
<section id="logs" hidden>
  <h2>Logs</h2>
  <div id="choices" role="toolbar" aria-label="Which log"></div>
  <div id="logProblem" class="problem" role="alert" hidden></div>
  <div id="logHeader" aria-live="polite"></div>
  <div role="toolbar" aria-label="Log actions">
    <label><input id="timestamps" type="checkbox"> Timestamps</label>
    <button id="loadMore" type="button">Load More</button>
    <button id="copy" type="button">Copy</button>
    <button id="save" type="button">Save…</button>
    <button id="copyCommand" type="button">Copy kubectl Command</button>
  </div>
  <div id="kubectl"></div>
  <div id="log" tabindex="0" role="log" aria-label="Container log"></div>
</section>
<section id="conditions" hidden><h2>Conditions</h2><table></table></section>
<section id="eventsSection"><h2>Events</h2><div id="eventsNote"></div><section id="events"><table></table></section></section>`);
}
