// Notifications for new warnings, when the user turns them on: a warning that is new, or
// whose count rose, in the watched namespaces and through the view's filter, not muted.
// Bursts become one summary at most every 10 s. Each notification offers Show (reveals the
// event) and Mute (this object or this reason, remembered for the workspace). What exists
// when a connection (re)lists is the baseline, never news.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { ClusterEvent } from '../model/clusterEvent';
import { oneLine } from '../model/displayText';
import { matchesFilter } from '../model/filters';
import { BurstThrottle, realScheduler, type Scheduler } from '../model/burstThrottle';
import { isMuted, NO_MUTES, objectMuteKey, type Mutes } from '../model/mutes';
import type { EventStore } from '../model/eventStore';
import { WarningWatch, type WarningNews } from '../model/warningWatch';
import type { Logger } from '../record/logger';
import type { ConnectionService } from './connectionService';
import type { FilterService } from './filterService';
import type { NavigationService } from './navigationService';
import type { SettingsService } from './settingsService';

/** At most one notification this often; what comes meanwhile is summarised. */
export const NOTIFY_WINDOW_MS = 10_000;
const MUTES_KEY = 'kubernetesEvents.notificationMutes';
/** A message in a notification is cut here (Show opens the whole event). */
const MESSAGE_CHARS = 160;
/** How long the status bar confirms a mute (as long as Clear Notification Mutes confirms its undo). */
const MUTED_MESSAGE_MS = 5_000;

/** VS Code renders [text](target) in a notification as a link: an event's text must not become one. */
export function notificationText(s: string): string {
  return oneLine(s).replace(/\]\s*\(/g, '] (');
}

export interface NotifierDeps {
  readonly connection: ConnectionService;
  readonly store: EventStore;
  readonly settings: SettingsService;
  readonly filters: FilterService;
  readonly navigation: NavigationService;
  readonly logger: Logger;
  /** Where mutes are kept: the workspace's memento. */
  readonly memento: vscode.Memento;
  /** Shows a quick input over the Events view (QuickInputs.ask). */
  ask<T>(show: () => Thenable<T>): Promise<T>;
}

export class WarningNotifier extends Disposable {
  private readonly watch = new WarningWatch();
  private readonly throttle: BurstThrottle<WarningNews>;
  /** The connect whose first list was taken as the baseline (a relist after an outage is news). */
  private baselined = -1;

  constructor(
    private readonly s: NotifierDeps,
    scheduler: Scheduler = realScheduler,
  ) {
    super();
    this.throttle = new BurstThrottle(NOTIFY_WINDOW_MS, (items) => void this.tell(items), scheduler);
    this._register(toDisposable(() => this.throttle.dispose()));
    this._register(s.connection.onDidChangeStatus((st) => this.onStatus(st.phase)));
    this._register(s.store.onDidChange((c) => this.onChange(c.all ? undefined : c.groups)));
  }

  get enabled(): boolean {
    return this.s.settings.value.notifyWarnings;
  }

  get mutes(): Mutes {
    return this.s.memento.get<Mutes>(MUTES_KEY) ?? NO_MUTES;
  }

  async setMutes(m: Mutes): Promise<void> {
    await this.s.memento.update(MUTES_KEY, m.objects.length || m.reasons.length ? m : undefined);
  }

  /** A new connection's first complete list (and its history) is the baseline, not news. */
  private onStatus(phase: string): void {
    const connect = this.s.connection.counts.completed;
    if (phase === 'live' && this.baselined !== connect) {
      this.baselined = connect;
      this.watch.clear();
      this.watch.baseline(this.s.store.all());
    }
  }

  private onChange(groups: ReadonlySet<string> | undefined): void {
    if (!groups) {
      // Everything changed (a context switch, a history load): a new baseline, no news.
      this.watch.clear();
      this.watch.baseline(this.s.store.all());
      return;
    }
    if (this.baselined !== this.s.connection.counts.completed) {
      for (const key of groups) this.watch.baseline(this.s.store.group(key)?.events ?? []);
      return;
    }
    const events: ClusterEvent[] = [];
    for (const key of groups) for (const e of this.s.store.group(key)?.events ?? []) events.push(e);
    const news = this.watch.check(events);
    if (this.watch.size > 2 * this.s.store.size + 1000) this.watch.prune((uid) => this.s.store.get(uid) !== undefined);
    if (!this.enabled) return;
    const mutes = this.mutes;
    const filter = this.s.filters.filter;
    this.throttle.push(news.filter((n) => !isMuted(mutes, n.event) && matchesFilter(n.event, filter)));
  }

  private describe(items: WarningNews[]): string {
    if (items.length === 1) {
      const { event: e, isNew, countBefore } = items[0];
      const o = e.involvedObject;
      const what = `${oneLine(e.reason)} on ${oneLine(`${o.kind}/${o.name}`)}${o.namespace ? ` in ${oneLine(o.namespace)}` : ''}`;
      const message = notificationText(e.message);
      return `Warning ${what}${isNew ? '' : ` again (count ${countBefore} → ${e.count})`}: ${message.length > MESSAGE_CHARS ? `${message.slice(0, MESSAGE_CHARS)}…` : message}`;
    }
    const objects = new Set(items.map((n) => objectMuteKey(n.event.involvedObject)));
    const reasons = new Map<string, number>();
    for (const n of items) reasons.set(n.event.reason, (reasons.get(n.event.reason) ?? 0) + 1);
    const top = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([r, n]) => `${oneLine(r)} ×${n}`);
    return `${items.length} warning${items.length === 1 ? '' : 's'} on ${objects.size} object${objects.size === 1 ? '' : 's'} in ${this.s.connection.context ?? 'the cluster'}: ${top.join(', ')}${reasons.size > 4 ? ', …' : ''}`;
  }

  private async tell(items: WarningNews[]): Promise<void> {
    const text = this.describe(items);
    this.s.logger.info(0, 'Warning notification', ['text', text, 'events', items.length]);
    const newest = items.reduce((a, b) => ((b.event.lastSeen ?? 0) > (a.event.lastSeen ?? 0) ? b : a)).event;
    const pick = await vscode.window.showWarningMessage(text, 'Show', 'Mute…');
    if (pick === 'Show') await this.s.navigation.revealEvent(newest.uid);
    if (pick === 'Mute…') await this.askMute(newest);
  }

  private async askMute(e: ClusterEvent): Promise<void> {
    const o = e.involvedObject;
    const pick = await this.s.ask(() => vscode.window.showQuickPick(
      [
        { label: `Mute ${oneLine(`${o.kind}/${o.name}`)}`, description: o.namespace ? `in ${oneLine(o.namespace)}` : 'cluster-scoped', mute: 'object' as const },
        { label: `Mute the reason ${oneLine(e.reason)}`, description: 'on every object', mute: 'reason' as const },
      ],
      { title: 'Mute Warning Notifications', placeHolder: 'In this workspace; Clear Notification Mutes undoes it' },
    ));
    if (!pick) return;
    const m = this.mutes;
    await this.setMutes(pick.mute === 'object' ? { ...m, objects: [...new Set([...m.objects, objectMuteKey(o)])] } : { ...m, reasons: [...new Set([...m.reasons, e.reason])] });
    // Said once it is kept: a warning after this message is judged against the mute.
    const what = pick.mute === 'object' ? oneLine(`${o.kind}/${o.name}`) : `the reason ${oneLine(e.reason)}`;
    vscode.window.setStatusBarMessage(`Warning notifications: ${what} muted in this workspace.`, MUTED_MESSAGE_MS);
  }
}
