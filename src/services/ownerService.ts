// The owners the workload roll-up needs, for the connected cluster: an OwnerIndex kept
// current by metadata watches while the roll-up is shown (no request per row, nothing
// watched otherwise), saved beside the history so rolled-up history survives a restart,
// and forgotten on a context switch.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { OwnerWatch } from '../cluster/ownerWatch';
import { Emitter } from '../common/emitter';
import { Disposable, toDisposable } from '../common/lifecycle';
import { followCreations, learnCreations } from '../model/createdBy';
import { OwnerIndex, type OwnedObject } from '../model/ownerIndex';
import type { Logger } from '../record/logger';
import type { ConnectionService } from './connectionService';
import type { EventStore } from '../model/eventStore';

/** Owner changes reach the tree at most this often. */
const CHANGE_DEBOUNCE_MS = 500;
/** The owners file is written at most this often (and when the connection ends). */
const SAVE_INTERVAL_MS = 30_000;

export class OwnerService extends Disposable {
  private watch: OwnerWatch | undefined;
  /** Who wants the owners watched (the roll-up, the manifests): watched while anyone does. */
  private readonly wants = new Set<string>();
  private reconciling: Promise<void> = Promise.resolve();
  private identity: string | undefined;
  private savedVersion = -1;
  private notifiedVersion = -1;
  private readonly changed = this._register(new Emitter());
  readonly onDidChange = this.changed.event;
  private readonly timer: NodeJS.Timeout;
  private readonly saver: NodeJS.Timeout;
  /** Who owns what: the roll-up and the timeline's workload lanes read it. */
  readonly index = new OwnerIndex();

  constructor(
    private readonly connection: ConnectionService,
    private readonly store: EventStore,
    private readonly folder: string | undefined,
    private readonly logger: Logger,
  ) {
    super();
    this._register(connection.onDidChangeStatus(() => void this.reconcile()));
    this._register(followCreations(store, this.index));
    this.timer = setInterval(() => this.notify(), CHANGE_DEBOUNCE_MS);
    this.saver = setInterval(() => void this.save(), SAVE_INTERVAL_MS);
    this._register(toDisposable(() => (clearInterval(this.timer), clearInterval(this.saver))));
  }

  /** Watch owners only while the roll-up is shown or manifests need them (`why` names who asks). */
  setWanted(wanted: boolean, why = 'rollup'): Promise<void> {
    if (wanted) this.wants.add(why);
    else this.wants.delete(why);
    return this.reconcile();
  }

  private get wanted(): boolean {
    return this.wants.size > 0;
  }

  /** Which owned kinds the user may not list (their objects do not roll up). */
  get forbidden(): string[] {
    const states = this.watch ? [...this.watch.state.entries()] : [];
    return states.filter(([, s]) => s.phase === 'forbidden').map(([k]) => k.split('/')[0]);
  }

  private file(identity: string): string | undefined {
    return this.folder && path.join(this.folder, `owners-${createHash('sha256').update(identity).digest('hex').slice(0, 16)}.json`);
  }

  /**
   * One reconcile at a time, each after the one before: two at once (the connection's status
   * and a setWanted together, at start) both saw the new identity, and the second cleared the
   * index after the first's watch had listed into it.
   */
  private reconcile(): Promise<void> {
    this.reconciling = this.reconciling.catch(() => undefined).then(() => this.reconcileNow());
    return this.reconciling;
  }

  private async reconcileNow(): Promise<void> {
    const identity = this.connection.connection.identity;
    if (identity !== this.identity) {
      await this.stopWatch();
      await this.save();
      this.index.clear();
      this.identity = identity;
      if (identity) this.load(identity);
      // The index was cleared: what the store holds already is learnt again.
      learnCreations(this.store.all(), this.index);
    }
    const connected = identity !== undefined && this.connection.context !== undefined;
    if (this.wanted && connected && !this.watch) {
      this.watch = new OwnerWatch(this.connection.newClient(), this.index, this.connection.request.namespaces ?? []);
      this.watch.start();
    } else if ((!this.wanted || !connected) && this.watch) {
      await this.stopWatch();
    }
  }

  private async stopWatch(): Promise<void> {
    const w = this.watch;
    this.watch = undefined;
    await w?.stop();
  }

  private load(identity: string): void {
    const file = this.file(identity);
    if (!file || !fs.existsSync(file)) return;
    try {
      this.index.load(JSON.parse(fs.readFileSync(file, 'utf8')) as OwnedObject[]);
      this.savedVersion = this.index.version;
    } catch (e) {
      this.logger.error(e, 'Cannot read the saved owners; the roll-up starts without them', ['file', file]);
    }
  }

  /** Saves what the history needs (live objects and the deleted ones events still refer to). */
  async save(): Promise<void> {
    const file = this.identity && this.file(this.identity);
    if (!file || this.index.version === this.savedVersion) return;
    const needed = new Set<string>();
    for (const e of this.store.all()) if (e.involvedObject.uid) needed.add(e.involvedObject.uid);
    this.index.prune((uid) => needed.has(uid));
    const version = this.index.version;
    try {
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.promises.writeFile(tmp, JSON.stringify(this.index.toJSON()));
      await fs.promises.rename(tmp, file);
      this.savedVersion = version;
    } catch (e) {
      this.logger.error(e, 'Cannot save the owners', ['file', file]);
    }
  }

  private notify(): void {
    if (this.index.version === this.notifiedVersion) return;
    this.notifiedVersion = this.index.version;
    this.changed.fire();
  }

  async shutdown(): Promise<void> {
    await this.stopWatch();
    await this.save();
  }
}
