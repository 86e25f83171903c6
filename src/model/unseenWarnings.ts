// The count on the view's badge: live Warning events that appeared, or whose count rose,
// since the user last looked. Kept as events come and go, so reading it costs nothing.
import { isLiveWarning } from './storeEntry';
import type { ClusterEvent } from './clusterEvent';

export class UnseenWarnings {
  private readonly unseen = new Set<string>();

  get count(): number {
    return this.unseen.size;
  }

  /** The user has seen every warning there is now. */
  markSeen(): void {
    this.unseen.clear();
  }

  /** An event was stored, replacing `old` (same uid) if there was one. */
  stored(old: ClusterEvent | undefined, e: ClusterEvent): void {
    if (!isLiveWarning(e)) this.unseen.delete(e.uid);
    else if (!old || !isLiveWarning(old) || e.count > old.count) this.unseen.add(e.uid);
  }

  removed(uid: string): void {
    this.unseen.delete(uid);
  }
}
