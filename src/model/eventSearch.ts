// Search over every event the store keeps, history included: each word typed must appear
// (case-insensitive) in the reason, the message, the object (kind/name), its namespace or
// the source. Newest first, at most a page of results, so typing stays quick at 200,000.
import { sortTime, type ClusterEvent } from './clusterEvent';

/** Results shown at most; a more precise query narrows them. */
export const SEARCH_LIMIT = 200;

export interface SearchResult {
  readonly events: ClusterEvent[];
  /** Matches in all (more than `events` when the limit cut them). */
  readonly total: number;
}

function words(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

export function matchesQuery(e: ClusterEvent, terms: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const o = e.involvedObject;
  const haystack = `${e.reason}\n${e.message}\n${o.kind}/${o.name}\n${o.namespace || e.namespace}\n${e.source}`.toLowerCase();
  return terms.every((t) => haystack.includes(t));
}

export function searchEvents(events: Iterable<ClusterEvent>, query: string, limit = SEARCH_LIMIT): SearchResult {
  const terms = words(query);
  const found: ClusterEvent[] = [];
  for (const e of events) if (matchesQuery(e, terms)) found.push(e);
  found.sort((a, b) => sortTime(b) - sortTime(a));
  return { events: found.slice(0, limit), total: found.length };
}
