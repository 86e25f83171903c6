// Keeps one store's events in its cluster's history log (historyLog.ts) across restarts:
// it remembers what changed since the last save (the latest state of each event, or its
// removal), appends only that, compacts when the log holds more than about twice what the
// store does, and reads the log back in slices, so the events show while the rest loads.
// Everything runs off the hot path: async file I/O, JSON done in slices between which the
// event loop runs, and errors handed to a callback, never thrown.
import * as fs from 'node:fs';
import type { ClusterEvent } from './clusterEvent';
import { appendToLog, deleteLine, eventLine, historyFile, isHeader, LogLines, parseRecord, rewriteLog } from './historyLog';
import { Slice, yieldToEventLoop } from './slices';

/** The log is compacted when it holds more than this many records per event in the store... */
const COMPACT_RATIO = 2;
/** ...plus this many, so a small store is not compacted on every save. */
const COMPACT_SLACK = 1_000;

/** What the history needs of its store. */
export interface HistoryTarget {
  size(): number;
  /** Every event now held. */
  events(): ClusterEvent[];
  /** Runs f with one change notification for all it does. */
  batch(f: () => void): void;
  /** Puts an event read from the log, unless the store has a newer copy from this session. */
  replayPut(e: ClusterEvent): void;
  /** Removes an event the log says is gone, if it came from the log. */
  replayDelete(uid: string): void;
  pruneHistory(): Promise<number>;
}

/** What went wrong, for the log: reading, appending to or rewriting the history file. */
export type HistoryErrorHandler = (error: Error, action: 'read' | 'append' | 'rewrite') => void;

/**
 * Characters of JSON per write at most: turning a string into UTF-8 for the write is
 * synchronous, so a chunk is kept small enough for that to take well under a millisecond.
 */
const CHUNK_CHARS = 256 * 1024;

/** Strings of lines, one slice of JSON at a time; the consumer's write awaits between them. */
async function* inSlices<T>(items: readonly T[], line: (x: T) => string): AsyncGenerator<string> {
  let i = 0;
  while (i < items.length) {
    const slice = new Slice();
    let s = '';
    do s += line(items[i++]);
    while (i < items.length && s.length < CHUNK_CHARS && !slice.spent());
    yield s;
  }
}

export class StoreHistory {
  readonly file: string;
  /** The latest state of each event changed since the last save; null: it is gone. */
  private dirty = new Map<string, ClusterEvent | null>();
  /** Events whose latest state the log holds (a removal of any other needs no record). */
  private readonly written = new Set<string>();
  private recordsInLog = 0;
  private logExists = false;
  /** The log is torn, foreign or of unknown state after a failed write: the next save rewrites it. */
  private needsRewrite = false;
  private detached = false;
  private queue: Promise<void> = Promise.resolve();
  /** Saves that wrote something (appends and rewrites), for tests and the benchmark. */
  writes = 0;

  constructor(
    readonly identity: string,
    folder: string,
    private readonly target: HistoryTarget,
    private readonly onError: HistoryErrorHandler,
  ) {
    this.file = historyFile(folder, identity);
  }

  /** Something would be written by a save now. */
  get changed(): boolean {
    return this.dirty.size > 0 || this.needsRewrite;
  }

  noteSet(e: ClusterEvent): void {
    if (this.needsRewrite) return;
    this.dirty.set(e.uid, e);
    // A long time without a save: a rewrite is cheaper than remembering more changes.
    if (this.dirty.size > COMPACT_RATIO * this.target.size() + COMPACT_SLACK) {
      this.needsRewrite = true;
      this.dirty.clear();
    }
  }

  noteDelete(uid: string): void {
    if (this.needsRewrite) return;
    if (this.written.has(uid)) this.dirty.set(uid, null);
    else this.dirty.delete(uid);
  }

  /** The store has moved on to another cluster (or none): a load stops, later saves do nothing. */
  detach(): void {
    this.detached = true;
  }

  /** Writes what changed since the last save; nothing when nothing did. Never rejects. */
  save(): Promise<void> {
    const run = this.queue.then(() => this.saveNow());
    this.queue = run;
    return run;
  }

  /**
   * Reads the log into the store in slices (one store change each), then prunes history
   * past its window. Returns how many events the log held.
   */
  async load(): Promise<number> {
    let buf: Buffer;
    try {
      buf = await fs.promises.readFile(this.file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.onError(e as Error, 'read');
        this.logExists = true;
        this.needsRewrite = true;
      }
      return 0;
    }
    if (this.detached) return 0;
    this.logExists = true;
    const lines = new LogLines(buf);
    const header = lines.next();
    if (header === undefined || !isHeader(header, this.identity)) {
      this.needsRewrite = true;
      return 0;
    }
    let records = 0;
    let bad = 0;
    for (let done = false; !done; ) {
      this.target.batch(() => {
        const slice = new Slice();
        for (;;) {
          const line = lines.next();
          if (line === undefined) {
            done = true;
            return;
          }
          const r = parseRecord(line);
          if (!r) bad++;
          else if ('e' in r) {
            this.written.add(r.e.uid);
            this.target.replayPut(r.e);
          } else {
            this.written.delete(r.d);
            this.target.replayDelete(r.d);
          }
          records++;
          if (slice.spent()) return;
        }
      });
      if (!done) await yieldToEventLoop();
      if (this.detached) return 0;
    }
    this.recordsInLog = records;
    if (bad > 0 || lines.torn) this.needsRewrite = true;
    const held = this.written.size;
    await this.target.pruneHistory();
    return held;
  }

  private async saveNow(): Promise<void> {
    if (this.detached || !this.changed) return;
    if (!this.logExists || this.needsRewrite || this.recordsInLog + this.dirty.size > COMPACT_RATIO * this.target.size() + COMPACT_SLACK) {
      await this.rewrite();
    } else {
      await this.append();
    }
  }

  private async append(): Promise<void> {
    const changes = [...this.dirty];
    this.dirty = new Map();
    for (const [uid, e] of changes) {
      if (e) this.written.add(uid);
      else this.written.delete(uid);
    }
    try {
      await appendToLog(this.file, inSlices(changes, ([uid, e]) => (e ? eventLine(e) : deleteLine(uid))));
      this.recordsInLog += changes.length;
      this.writes++;
    } catch (e) {
      // The log may now end in a torn line: rewrite it whole next time.
      this.needsRewrite = true;
      this.onError(e as Error, 'append');
    }
  }

  private async rewrite(): Promise<void> {
    const events = this.target.events();
    this.dirty = new Map();
    this.needsRewrite = false;
    this.written.clear();
    for (const e of events) this.written.add(e.uid);
    try {
      await rewriteLog(this.file, this.identity, inSlices(events, eventLine));
      this.recordsInLog = events.length;
      this.logExists = true;
      this.writes++;
    } catch (e) {
      this.needsRewrite = true;
      this.onError(e as Error, 'rewrite');
    }
  }
}
