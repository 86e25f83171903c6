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

/** A word as a POSIX shell reads it back unchanged: bare when safe, else in single quotes. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * `kubectl events --context c -n ns --for resource/name`, or why it cannot be built. kubectl
 * reads --for as resource/name and, with an empty name, silently lists every object's events
 * (pkg/cmd/events decodeResourceTypeName), so an object without kind or name gets no command.
 * The resource is spelled kind.version.group so kubectl resolves exactly the involved
 * object's kind; events live in the namespace given (the events' own, "default" for
 * cluster-scoped objects).
 */
export function kubectlEventsCommand(o: { kind: string; name: string; apiVersion: string }, eventNamespace: string, context?: string): { command: string } | { problem: string } {
  if (!o.kind || !o.name) return { problem: `kubectl events --for needs the object's kind and name; this event's involved object has ${!o.kind && !o.name ? 'neither' : !o.kind ? 'no kind' : 'no name'}.` };
  if (o.name.includes('/') || o.kind.includes('/')) return { problem: `kubectl events --for cannot name ${o.kind}/${o.name}: a slash in a kind or name does not fit its resource/name form.` };
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/', 2) : ['', o.apiVersion];
  const resource = group && version ? `${o.kind.toLowerCase()}.${version}.${group}` : o.kind.toLowerCase();
  const parts = ['kubectl', 'events'];
  if (context) parts.push('--context', shellQuote(context));
  if (eventNamespace) parts.push('-n', shellQuote(eventNamespace));
  parts.push('--for', shellQuote(`${resource}/${o.name}`));
  return { command: parts.join(' ') };
}
