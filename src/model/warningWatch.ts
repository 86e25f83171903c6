// Which warning events are news: a warning is news when it is new to us, or when its count
// rose since we last looked (a repeated BackOff is a new occurrence, not the same old event).
// What exists when we start watching, or when a connection (re)lists, is the baseline, not
// news. Memory is bounded by the store: uids the store no longer has are forgotten.
import type { ClusterEvent } from './clusterEvent';
import { isLiveWarning } from './storeEntry';

export interface WarningNews {
  readonly event: ClusterEvent;
  /** New to us (else its count rose). */
  readonly isNew: boolean;
  /** The count we knew before (0 when new). */
  readonly countBefore: number;
}

export class WarningWatch {
  /** uid → the count we know. */
  private readonly known = new Map<string, number>();

  get size(): number {
    return this.known.size;
  }

  /** Takes these events as known, without news (a first list, history, a reconnect). */
  baseline(events: Iterable<ClusterEvent>): void {
    for (const e of events) if (isNews(e)) this.known.set(e.uid, Math.max(this.known.get(e.uid) ?? 0, e.count));
  }

  /** The warnings among these that are news, remembered as known from now on. */
  check(events: Iterable<ClusterEvent>): WarningNews[] {
    const news: WarningNews[] = [];
    for (const e of events) {
      if (!isNews(e)) continue;
      const before = this.known.get(e.uid);
      if (before !== undefined && e.count <= before) continue;
      news.push({ event: e, isNew: before === undefined, countBefore: before ?? 0 });
      this.known.set(e.uid, e.count);
    }
    return news;
  }

  /** Drops what the store no longer holds. */
  prune(has: (uid: string) => boolean): void {
    for (const uid of this.known.keys()) if (!has(uid)) this.known.delete(uid);
  }

  clear(): void {
    this.known.clear();
  }
}

/** A warning still on the server (history is not news), recorded by someone else. */
function isNews(e: ClusterEvent): boolean {
  return isLiveWarning(e) && e.origin !== 'local';
}
