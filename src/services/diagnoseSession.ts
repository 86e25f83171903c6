// One object under diagnosis: its status watched live (a pod's containers; a workload's
// counts and its pods worst first), its events (a workload's rolled up), and one container
// log at a time: the previous instance's when the container has restarted, else the current
// one followed. Plain Node: the panel draws what it says; cluster tests drive it directly.
import { collectionPath, findResourceKind } from '../cluster/discovery';
import type { ApiClient } from '../cluster/apiRequest';
import { ListWatch, type ListWatchState, type RawObject } from '../cluster/listWatch';
import { LogFollower, logProblem, readLog, saveLog, type LogOptions, type LogTarget } from '../cluster/podLogs';
import { Emitter } from '../common/emitter';
import { Disposable, type IDisposable } from '../common/lifecycle';
import type { EventsAbout } from '../model/diagnose/eventsAbout';
import { LogBuffer } from '../model/diagnose/logBuffer';
import { conditionsOf, defaultLogChoice, noLogsYet, podReport, worstFirst, type Condition, type PodReport, type RawPod } from '../model/diagnose/podStatus';
import { isWorkloadKind, workloadReport, type RawWorkload, type WorkloadReport } from '../model/diagnose/workloadStatus';

/** Lines a log is first read (or followed) from the end with; Load More multiplies it. */
export const LOG_TAIL_LINES = 1000;
export const LOAD_MORE_FACTOR = 4;
/** Bytes one read of a log may bring; a tail longer than this is read again shorter, so what shows is its end. */
export const LOG_READ_BYTES = 1024 * 1024;
/** Shorter tails tried when the last lines do not fit LOG_READ_BYTES. */
const TAIL_ATTEMPTS = 4;

export interface DiagnoseTarget {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly apiVersion: string;
  readonly uid?: string;
}

export interface StatusState {
  readonly loading: boolean;
  readonly problem?: string;
  readonly gone: boolean;
  readonly pod?: PodReport;
  readonly workload?: WorkloadReport;
  /** A workload's pods, worst first. */
  readonly pods?: readonly PodReport[];
  /** Any other object's conditions. */
  readonly conditions?: readonly Condition[];
}

export interface LogState {
  readonly container: string;
  readonly previous: boolean;
  readonly following: boolean;
  readonly loading: boolean;
  readonly tailLines: number;
  /** Every line the log has is held (it was shorter than the tail asked for). */
  readonly whole: boolean;
  /** The tail's last lines did not fit LOG_READ_BYTES: fewer lines than asked are shown. */
  readonly shortened: boolean;
  readonly problem?: string;
  readonly retrying: boolean;
  readonly lines: number;
  readonly bytes: number;
  readonly dropped: { readonly lines: number; readonly bytes: number };
}

export interface SessionDeps {
  events(target: DiagnoseTarget): EventsAbout;
  onEventsChange(listener: () => void): IDisposable;
}

type Change = 'status' | 'events' | 'log';

export class DiagnoseSession extends Disposable {
  private statusNow: StatusState = { loading: true, gone: false };
  private readonly pods = new Map<string, RawPod>();
  private object: RawObject | undefined;
  private readonly watches: ListWatch<RawObject>[] = [];
  private readonly changes = this._register(new Emitter<Change>());
  readonly onDidChange = this.changes.event;
  readonly buffer = new LogBuffer();
  private logNow: LogState | undefined;
  private follower: LogFollower | undefined;
  private logRun = 0;
  /** The user chose a log: status changes no longer choose one. */
  private chosen = false;
  /** Ends every request of this session when it is disposed. */
  private readonly aborter = new AbortController();

  constructor(
    readonly client: ApiClient,
    readonly target: DiagnoseTarget,
    private readonly deps: SessionDeps,
  ) {
    super();
    this._register(deps.onEventsChange(() => this.changes.fire('events')));
  }

  get status(): StatusState {
    return this.statusNow;
  }

  get log(): LogState | undefined {
    return this.logNow;
  }

  get events(): EventsAbout {
    return this.deps.events(this.target);
  }

  get isPod(): boolean {
    return this.target.kind === 'Pod' && (this.target.apiVersion || 'v1') === 'v1';
  }

  /** Why no log can be read yet (a pod not scheduled, containers not created), if so. */
  get noLogs(): string | undefined {
    return this.statusNow.pod ? noLogsYet(this.statusNow.pod) : undefined;
  }

  async start(): Promise<void> {
    const t = this.target;
    const kind = await findResourceKind(this.client, t.kind, t.apiVersion || 'v1').catch((e: Error) => {
      this.setStatus({ loading: false, gone: false, problem: `Cannot find ${t.kind} on the apiserver: ${e.message}` });
      return undefined;
    });
    if (!kind || this.isDisposed) {
      if (!kind && !this.statusNow.problem) this.setStatus({ loading: false, gone: false, problem: `The apiserver serves no ${t.kind} in ${t.apiVersion || 'v1'}.` });
      return;
    }
    this.watch(collectionPath(kind, t.namespace || undefined), kind.resource, `metadata.name=${t.name}`, undefined, {
      put: (o) => {
        this.object = o;
        this.rebuild();
      },
      gone: () => {
        this.object = undefined;
        this.rebuild();
      },
    });
    if (isWorkloadKind(t.kind)) this.watchPodsWhenSelectorKnown();
  }

  /** A workload's pods: watched by its selector once its object has come. */
  private podsSelector: string | undefined;
  private watchPodsWhenSelectorKnown(): void {
    const sub = this.onDidChange((c) => {
      if (c !== 'status' || this.podsSelector || !this.statusNow.workload?.selector) return;
      this.podsSelector = this.statusNow.workload.selector;
      sub.dispose();
      this.watch(`/api/v1/namespaces/${encodeURIComponent(this.target.namespace)}/pods`, 'pods', undefined, this.podsSelector, {
        put: (o) => {
          const uid = (o as RawPod).metadata?.uid ?? '';
          this.pods.set(uid, o as RawPod);
          this.rebuild();
        },
        gone: (o) => {
          this.pods.delete((o as RawPod).metadata?.uid ?? '');
          this.rebuild();
        },
        reset: () => this.pods.clear(),
      });
    });
    this._register(sub);
  }

  private watch(path: string, what: string, fieldSelector: string | undefined, labelSelector: string | undefined, on: { put(o: RawObject): void; gone(o: RawObject): void; reset?(): void }): void {
    let listed: RawObject[] = [];
    const w = new ListWatch<RawObject>(
      this.client,
      { api: 'core/v1', namespace: this.target.namespace || undefined, fieldSelector, labelSelector, resource: { path, what } },
      {
        onListPage: (items, first) => {
          if (first) listed = [];
          listed.push(...items);
        },
        onListDone: () => {
          on.reset?.();
          if (!labelSelector) {
            if (listed.length) on.put(listed[0]);
            else on.gone({});
          } else {
            for (const o of listed) on.put(o);
            if (!listed.length) this.rebuild();
          }
        },
        onEvent: (type, o) => (type === 'DELETED' ? on.gone(o) : on.put(o)),
        onState: (s) => this.watchState(s),
      },
    );
    this.watches.push(w);
    w.start();
  }

  private watchState(s: ListWatchState): void {
    if (s.phase === 'forbidden' || s.phase === 'unauthorized' || s.phase === 'configError') this.setStatus({ ...this.statusNow, loading: false, problem: s.message });
    else if (s.phase === 'backoff') this.setStatus({ ...this.statusNow, problem: `Status is not current: ${s.error} (trying again in ${Math.ceil(s.retryInMs / 1000)} s).` });
    else if (s.phase === 'watching' && this.statusNow.problem) this.setStatus({ ...this.statusNow, problem: undefined });
  }

  private rebuild(): void {
    const o = this.object as (RawObject & RawPod & RawWorkload & { status?: { conditions?: [] } }) | undefined;
    if (!o) return this.setStatus({ loading: false, gone: true, problem: this.statusNow.problem });
    const base = { loading: false, gone: false, problem: this.statusNow.problem };
    if (this.isPod) return this.setStatus({ ...base, pod: podReport(o) });
    if (isWorkloadKind(this.target.kind)) {
      return this.setStatus({ ...base, workload: workloadReport({ ...o, kind: this.target.kind }), pods: worstFirst([...this.pods.values()].map(podReport)) });
    }
    this.setStatus({ ...base, conditions: conditionsOf(o.status?.conditions) });
  }

  private setStatus(s: StatusState): void {
    const firstPod = !this.statusNow.pod && s.pod;
    this.statusNow = s;
    this.changes.fire('status');
    if (firstPod && !this.chosen) this.chooseDefaultLog();
  }

  /** The first container worth reading: one that restarted (its previous log), else the first started. */
  private chooseDefaultLog(): void {
    const pod = this.statusNow.pod;
    if (!pod || this.noLogs) return;
    const main = pod.containers.filter((c) => !c.init);
    const c = main.find((x) => defaultLogChoice(x) === 'previous') ?? main.find((x) => x.state.kind === 'running') ?? pod.containers.find((x) => x.state.kind !== 'unknown') ?? main[0];
    if (c) void this.showLog(c.name, defaultLogChoice(c) === 'previous', false);
  }

  private logTarget(container: string): LogTarget {
    return { namespace: this.target.namespace, pod: this.target.name, container, node: this.statusNow.pod?.node };
  }

  /** Shows a container's log: the previous instance's, or the current one (followed while it runs). */
  async showLog(container: string, previous: boolean, byUser = true, tailLines = LOG_TAIL_LINES): Promise<void> {
    if (byUser) this.chosen = true;
    const run = ++this.logRun;
    await this.follower?.stop();
    this.follower = undefined;
    this.buffer.clear();
    const c = this.statusNow.pod?.containers.find((x) => x.name === container);
    const follow = !previous && c?.state.kind === 'running';
    const t = this.logTarget(container);
    const state: LogState = { container, previous, following: follow, loading: true, tailLines, whole: false, shortened: false, retrying: false, lines: 0, bytes: 0, dropped: { lines: 0, bytes: 0 } };
    this.setLog(state);
    if (follow) {
      const follower = new LogFollower(this.client, t, { tailLines }, {
        onLines: (lines) => {
          this.buffer.add(lines);
          this.setLog({ ...this.logNow!, loading: false, problem: undefined, retrying: false });
        },
        onProblem: (p) => this.setLog({ ...this.logNow!, loading: false, problem: p.retryInMs !== undefined ? `${p.message} Trying again in ${Math.max(1, Math.round(p.retryInMs / 1000))} s.` : p.message, retrying: p.retryInMs !== undefined, following: p.retryInMs !== undefined }),
        onOpen: () => this.setLog({ ...this.logNow!, loading: false, problem: undefined, retrying: false }),
      });
      this.follower = follower;
      follower.start();
      return;
    }
    const o: LogOptions = { previous, tailLines, limitBytes: LOG_READ_BYTES };
    try {
      let tail = tailLines;
      for (let attempt = 0; ; attempt++) {
        const read = await readLog(this.client, t, { ...o, tailLines: tail }, this.aborter.signal);
        if (run !== this.logRun || this.isDisposed) return;
        // Cut by the byte limit: the tail's first lines came, not its last. Ask for fewer lines.
        if (read.cut && attempt < TAIL_ATTEMPTS && tail > 1) {
          const complete = Math.max(read.lines.length - 1, 0);
          tail = Math.max(1, Math.min(tail - 1, Math.floor(complete * 0.8)));
          continue;
        }
        this.buffer.add(read.lines);
        this.setLog({ ...state, tailLines: tail, loading: false, whole: !read.cut && read.lines.length < tail, shortened: tail < tailLines || read.cut });
        return;
      }
    } catch (e) {
      if (run !== this.logRun) return;
      this.setLog({ ...state, loading: false, problem: logProblem(e, t, o).message });
    }
  }

  /** Reads the shown log again with LOAD_MORE_FACTOR times the lines. */
  loadMore(): Promise<void> {
    const l = this.logNow;
    if (!l) return Promise.resolve();
    return this.showLog(l.container, l.previous, true, l.tailLines * LOAD_MORE_FACTOR);
  }

  /** The shown log's whole text, as the apiserver has it, written to a file as it arrives. */
  async saveLog(file: string, timestamps: boolean): Promise<number> {
    const l = this.logNow;
    if (!l) throw new Error('No log is shown.');
    return saveLog(this.client, this.logTarget(l.container), { previous: l.previous, timestamps }, file, this.aborter.signal);
  }

  private setLog(l: LogState): void {
    const held = this.buffer;
    this.logNow = { ...l, lines: held.length, bytes: held.bytes, dropped: held.dropped };
    this.changes.fire('log');
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.logRun++;
    this.aborter.abort(new Error('closed'));
    void this.follower?.stop();
    for (const w of this.watches) void w.stop();
    super.dispose();
  }
}
