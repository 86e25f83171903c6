// Ages and counts exactly as kubectl prints them: apimachinery's duration.HumanDuration,
// and the interval of `kubectl events` and `kubectl describe` (k8s.io/kubectl v0.34
// pkg/cmd/events/event_printer.go getInterval, pkg/describe/describe.go DescribeEvents).
import type { ClusterEvent } from './clusterEvent';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Go's int(x) of a float and integer division of durations: truncation toward zero. */
const trunc = Math.trunc;

/** duration.HumanDuration of a duration in milliseconds. */
export function humanDuration(ms: number): string {
  const seconds = trunc(ms / SECOND);
  // Up to 2 s in the future is tolerated as clock skew ("almost now").
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = trunc(ms / SECOND) % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = trunc(ms / HOUR);
  if (hours < 8) {
    const m = trunc(ms / MINUTE) % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${trunc(hours / 24)}d` : `${trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = trunc(hours / 24) % 365;
    return dy === 0 ? `${trunc(hours / 24 / 365)}y` : `${trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${trunc(hours / 24 / 365)}y`;
}

/** translateTimestampSince: `<unknown>` for a missing time. */
export function timestampSince(t: number | undefined, now: number): string {
  return t === undefined ? '<unknown>' : humanDuration(now - t);
}

/** The LAST SEEN of `kubectl events` and the Age of `kubectl describe`: `45s (x3 over 5m2s)`. */
export function eventInterval(e: ClusterEvent, now: number): string {
  const first = timestampSince(e.firstSeen, now);
  if (e.count > 1) return `${timestampSince(e.lastSeen, now)} (x${e.count} over ${first})`;
  return first;
}

/** The age of the last occurrence, as the tree shows next to a group: `12s`. */
export function lastSeenAge(e: ClusterEvent, now: number): string {
  return timestampSince(e.lastSeen ?? e.firstSeen, now);
}

/** One row of `kubectl describe`'s Events table: Type, Reason, Age, From, Message. */
export function describeRow(e: ClusterEvent, now: number): [string, string, string, string, string] {
  return [e.type, e.reason, eventInterval(e, now), e.source, e.message.trim()];
}

/** One row of `kubectl events` (-A adds the namespace): LAST SEEN, TYPE, REASON, OBJECT, MESSAGE. */
export function kubectlEventsRow(e: ClusterEvent, now: number): [string, string, string, string, string] {
  return [eventInterval(e, now), e.type, e.reason, `${e.involvedObject.kind}/${e.involvedObject.name}`, e.message.trim()];
}

/** `kubectl events --for kind/name -n ns`, to copy. */
export function kubectlEventsCommand(o: { kind: string; name: string; namespace: string }): string {
  return `kubectl events --for ${o.kind.toLowerCase()}/${o.name}${o.namespace ? ` -n ${o.namespace}` : ''}`;
}
