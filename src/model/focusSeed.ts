// A focused view (warnings only, one object) starts from what the main store already holds:
// those events are current (the main watch keeps them so), so the view is ready at once,
// and the focused list+watch then adds what the main store's cap dropped and, being a
// complete list, expires what is no longer on the server. Without this the view stayed
// empty for as long as the apiserver took to list (5 s for the warnings of 200,000 events
// here, client-go's pager included).
import type { ClusterEvent } from './clusterEvent';
import type { EventStore } from './eventStore';
import { matchesFilter, type EventFilter } from './filters';

/** Events copied per event-loop turn: the extension host is shared, so no turn runs long. */
export const SEED_SLICE = 2_000;

/**
 * Copies the events `from` holds that match the filter into `to`, SEED_SLICE a turn, each
 * slice one store change. Resolves with how many were copied; stops early once `cancelled`.
 */
export async function seedFocus(from: EventStore, to: EventStore, filter: EventFilter, cancelled: () => boolean = () => false): Promise<number> {
  // Taken at once: the main store may change between slices.
  const matching: ClusterEvent[] = [];
  for (const e of from.all()) if (matchesFilter(e, filter)) matching.push(e);
  for (let i = 0; i < matching.length && !cancelled(); i += SEED_SLICE) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    if (cancelled()) break;
    to.batch(() => {
      for (const e of matching.slice(i, i + SEED_SLICE)) {
        // A newer copy may have come meanwhile (an evicted one is still copied as it was).
        const current = from.get(e.uid) ?? e;
        if (current === e || matchesFilter(current, filter)) to.upsert(current);
      }
    });
  }
  return cancelled() ? 0 : matching.length;
}
