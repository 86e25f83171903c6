// The timeline's webview panel: a strict content security policy (no source but this
// extension's media/timeline folder, the script by nonce), lanes from the feed, store
// changes batched into one update a few times a second, the view's filter followed, and
// the webview's requests (details on hover, reveal on click) answered.
import * as vscode from 'vscode';
import { Disposable, type IDisposable } from '../../common/lifecycle';
import type { InvolvedObject } from '../../model/clusterEvent';
import type { EventFilter } from '../../model/filters';
import { objectLabel, type LaneProvider, type LaneScope } from './lanes';
import { parseWebviewMessage, type HostMessage } from './protocol';
import { TimelineFeed } from './timelineFeed';
import type { TimelineSource } from './timelineSource';
import { webviewPage } from '../webviewPage';

export const TIMELINE_VIEW_TYPE = 'kubernetesEvents.timeline';
/** Store changes are gathered this long into one update (the tree batches the same way). */
export const UPDATE_DEBOUNCE_MS = 250;
/** The folder under the extension the webview may load from: its script and stylesheet. */
export const MEDIA_FOLDER = ['media', 'timeline'];

/** What the panel needs from the rest of the extension. */
export interface TimelineHost {
  readonly extensionUri: vscode.Uri;
  readonly source: TimelineSource;
  readonly lanes: LaneProvider;
  filter(): EventFilter;
  onDidChangeFilter(listener: (f: EventFilter) => void): IDisposable;
  historyWindowMs(): number;
  /** The event's details as plain text, or undefined when it left the store. */
  details(uid: string): string | undefined;
  /** Reveals and selects the event in the Events view; false when it is not there. */
  reveal(uid: string): Promise<boolean>;
  problem(text: string): void;
}

export class TimelinePanel extends Disposable {
  private readonly panel: vscode.WebviewPanel;
  private readonly feed: TimelineFeed;
  private ready = false;
  private pending = new Set<string>();
  private pendingAll = false;
  private pendingLanes = false;
  /** The scope changed: the next reset tells the webview to show the new scope whole. */
  private scopeChanged = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly closed = new vscode.EventEmitter<void>();
  readonly onDidClose = this.closed.event;
  /** Messages posted (for tests and the host benchmark). */
  posted = 0;

  /** `restored`: the panel VS Code kept across a window reload (its serializer hands it over). */
  constructor(
    private readonly host: TimelineHost,
    scope: LaneScope,
    restored?: vscode.WebviewPanel,
  ) {
    super();
    this.feed = new TimelineFeed(host.source, host.lanes, { now: Date.now, historyWindowMs: () => host.historyWindowMs() });
    this.feed.configure(host.filter(), scope);
    const media = vscode.Uri.joinPath(host.extensionUri, ...MEDIA_FOLDER);
    const options: vscode.WebviewPanelOptions & vscode.WebviewOptions = { enableScripts: true, enableCommandUris: false, enableForms: false, localResourceRoots: [media] };
    this.panel = this._register(restored ?? vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, titleOf(scope), vscode.ViewColumn.Active, options));
    if (restored) {
      restored.webview.options = options;
      restored.title = titleOf(scope);
    }
    this.panel.iconPath = vscode.Uri.joinPath(host.extensionUri, 'media', 'events.svg');
    this.panel.webview.html = html(this.panel.webview, media);
    this._register(this.panel.onDidDispose(() => this.dispose()));
    this._register(this.panel.onDidChangeViewState((e) => this.visibilityChanged(e.webviewPanel.visible)));
    this._register(this.panel.webview.onDidReceiveMessage((m: unknown) => this.receive(m)));
    this._register(host.source.onDidChange((c) => {
      if (c.all) this.pendingAll = true;
      for (const k of c.groups) this.pending.add(k);
      this.flushSoon();
    }));
    this._register(host.onDidChangeFilter((f) => {
      this.feed.configure(f, this.feed.scope);
      this.pendingAll = true;
      this.flushSoon();
    }));
    if (host.lanes.onDidChangeLanes) {
      this._register(host.lanes.onDidChangeLanes(() => {
        this.pendingLanes = true;
        this.flushSoon();
      }));
    }
  }

  get scope(): LaneScope {
    return this.feed.scope;
  }

  /** The object of one of the lanes the page shows (its context menu names a lane by id). */
  objectOfLane(laneId: string): InvolvedObject | undefined {
    return this.feed.objectOf(laneId);
  }

  /** Shows the panel on a scope (the whole view, or one object's lanes). */
  show(scope: LaneScope): void {
    if (!sameScope(scope, this.feed.scope)) {
      this.feed.configure(this.feed.filter, scope);
      this.panel.title = titleOf(scope);
      this.pendingAll = true;
      this.scopeChanged = true;
      this.flushSoon();
    }
    this.panel.reveal(undefined, false);
  }

  override dispose(): void {
    if (this.isDisposed) return;
    clearTimeout(this.timer);
    super.dispose();
    this.closed.fire();
    this.closed.dispose();
  }

  private receive(raw: unknown): void {
    const m = parseWebviewMessage(raw);
    if (!m) return this.host.problem('The timeline sent a message it should not have; it was ignored.');
    switch (m.type) {
      case 'ready':
        // A (re)loaded webview: everything from scratch.
        this.ready = true;
        this.pending.clear();
        this.pendingAll = false;
        this.pendingLanes = false;
        // A webview shown again restores its own zoom; one that had not seen this scope shows it whole.
        this.post({ ...this.feed.reset(), fit: this.scopeChanged });
        this.scopeChanged = false;
        return;
      case 'details':
        return this.post({ type: 'details', uid: m.uid, text: this.host.details(m.uid) });
      case 'reveal':
        this.host.reveal(m.uid).then(
          (shown) => shown || void vscode.window.showInformationMessage('That event is no longer in the Events view (it may have been dropped from the store).'),
          (e: Error) => this.host.problem(`Cannot reveal the event: ${e.message}`),
        );
        return;
      case 'problem':
        return this.host.problem(m.text);
    }
  }

  private visibilityChanged(visible: boolean): void {
    // A hidden webview is torn down (no retained context): it asks again with 'ready'.
    if (!visible) this.ready = false;
  }

  private flushSoon(): void {
    this.timer ??= setTimeout(() => this.flush(), UPDATE_DEBOUNCE_MS);
  }

  private flush(): void {
    this.timer = undefined;
    if (this.isDisposed || !this.ready || !this.panel.visible) return;
    const keys = this.pending;
    this.pending = new Set();
    const lanes = this.pendingLanes;
    this.pendingLanes = false;
    if (this.pendingAll) {
      this.pendingAll = false;
      const fit = this.scopeChanged;
      this.scopeChanged = false;
      return this.post({ ...this.feed.reset(), fit });
    }
    if (keys.size === 0 && !lanes) return;
    const update = this.feed.update(keys);
    if (update) this.post(update);
  }

  private post(m: HostMessage): void {
    this.posted++;
    void this.panel.webview.postMessage(m);
  }
}

function sameScope(a: LaneScope, b: LaneScope): boolean {
  return a.kind === b.kind && (a.kind === 'all' || a.key === (b as { key: string }).key);
}

function titleOf(scope: LaneScope): string {
  return scope.kind === 'all' ? 'Events Timeline' : `Timeline: ${objectLabel(scope.object)}`;
}

/** The page's markup (webviewPage gives it the policy, the stylesheet and the script). */
export function html(webview: vscode.Webview, media: vscode.Uri): string {
  return webviewPage(webview, media, 'timeline', 'Events Timeline', `<header id="bar">
  <div id="title"><span id="scope"></span><span id="filter"></span></div>
  <div id="summary"></div>
  <div id="buttons" role="toolbar" aria-label="Zoom">
    <button id="zoomOut" type="button" title="Zoom out (-)" aria-label="Zoom out">−</button>
    <button id="zoomIn" type="button" title="Zoom in (+)" aria-label="Zoom in">+</button>
    <button id="fit" type="button" title="Show all the history (0)">Fit</button>
  </div>
</header>
<div id="plot">
  <canvas id="canvas" tabindex="0" role="application" aria-roledescription="timeline" aria-label="Events timeline" aria-describedby="help"></canvas>
  <div id="empty" hidden></div>
  <div id="tooltip" role="tooltip" hidden></div>
</div>
<footer>
  <div id="help">Wheel or +/− zoom · drag or Shift+arrows pan · arrows move between events · Enter shows one in the Events view · 0 fits</div>
  <div id="cursor" aria-live="polite"></div>
</footer>`);
}
